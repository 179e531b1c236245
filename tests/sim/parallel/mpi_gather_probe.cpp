// Run under `mpirun -n 3`: every rank sends "rank R" except rank 1, which
// reports a failure; rank 0 must receive them in rank order with rank 1's
// error intact, and a broadcast from rank 0 must reach every rank. Exit 0
// only if all of that holds (tests/CMakeLists.txt registers the run).
#include <cstdio>
#include <string>

#include "sim/parallel/cluster.hpp"

int main(int argc, char** argv) {
  bankcheck::ClusterSession session(argc, argv);
  const bankcheck::Cluster& c = bankcheck::Cluster::instance();
  const std::string word = c.broadcast(c.root() ? "from-root" : "");
  if (word != "from-root") {
    std::fprintf(stderr, "rank %d: broadcast gave '%s'\n", c.rank(), word.c_str());
    return 1;
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
