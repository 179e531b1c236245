// Run under `mpirun -n 3`: every rank sends "rank R" except rank 1, which
// reports a failure; rank 0 must receive them in rank order with rank 1's
// error intact, a broadcast from rank 0 must reach every rank, and reduce
// must give every rank the merge (or every rank the failure). Exit 0
// only if all of that holds (tests/CMakeLists.txt registers the run).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/parallel/cluster.hpp"

int main(int argc, char** argv) {
  bankcheck::ClusterSession session(argc, argv);
  const bankcheck::Cluster& c = bankcheck::Cluster::instance();
  const std::string word = c.broadcast(c.root() ? "from-root" : "");
  if (word != "from-root") {
    std::fprintf(stderr, "rank %d: broadcast gave '%s'\n", c.rank(), word.c_str());
    return 1;
  }
  // reduce: every rank gets rank 0's merge of all payloads in rank order.
  const std::string merged = c.reduce({true, std::to_string(c.rank())}, [](const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) s += p;
    return s;
  });
  if (merged != "012") {
    std::fprintf(stderr, "rank %d: reduce gave '%s'\n", c.rank(), merged.c_str());
    return 1;
  }
  // A failed rank fails the reduce on every rank, naming the rank.
  try {
    (void)c.reduce({c.rank() != 2, "no space"}, [](const std::vector<std::string>&) { return std::string("x"); });
    std::fprintf(stderr, "rank %d: a failed rank's reduce returned\n", c.rank());
    return 1;
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("no space (rank 2)") == std::string::npos) {
      std::fprintf(stderr, "rank %d: reduce failed with '%s'\n", c.rank(), e.what());
      return 1;
    }
  }
  const bool fail = c.rank() == 1;
  const auto all = c.gather({!fail, fail ? "rank 1 failed" : "rank " + std::to_string(c.rank())});
  if (!c.root()) return 0;
  if (c.size() != 3 || all.size() != 3) {
    std::fprintf(stderr, "expected 3 ranks, got %d (%zu outcomes)\n", c.size(), all.size());
    return 1;
  }
  const bool ok = all[0].ok && all[0].payload == "rank 0" && !all[1].ok && all[1].payload == "rank 1 failed" &&
                  all[2].ok && all[2].payload == "rank 2";
  std::printf("%s: %s | %s | %s\n", ok ? "ok" : "wrong", all[0].payload.c_str(), all[1].payload.c_str(),
              all[2].payload.c_str());
  return ok ? 0 : 1;
}
