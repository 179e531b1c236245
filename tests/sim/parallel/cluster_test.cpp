// shard_of splits every item exactly once, in order, with sizes that differ
// by at most one (checked by enumeration); a single process gathers itself
// and reduces its own result, and a failed outcome or merge fails the reduce.
#include "sim/parallel/cluster.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace bankcheck;

TEST_CASE("shards cover the items once, in rank order, evenly") {
  for (std::size_t items : {0u, 1u, 2u, 7u, 64u, 1000u, 1001u})
    for (int size = 1; size <= 9; ++size) {
      CAPTURE(items);
      CAPTURE(size);
      std::size_t next = 0, smallest = items, largest = 0;
      for (int rank = 0; rank < size; ++rank) {
        const Shard s = shard_of(items, rank, size);
        CHECK(s.begin == next);
        next = s.end;
        smallest = std::min(smallest, s.size());
        largest = std::max(largest, s.size());
      }
      CHECK(next == items);
      CHECK(largest - smallest <= 1);
    }
}

TEST_CASE("a rank outside the job is refused") {
  CHECK_THROWS_AS(shard_of(10, 2, 2), std::invalid_argument);
  CHECK_THROWS_AS(shard_of(10, -1, 2), std::invalid_argument);
  CHECK_THROWS_AS(shard_of(10, 0, 0), std::invalid_argument);
}

TEST_CASE("without an MPI launcher the run is one process that gathers itself") {
  const Cluster& c = Cluster::instance();
  CHECK(c.size() == 1);
  CHECK(c.root());
  const auto all = c.gather({true, "result"});
  REQUIRE(all.size() == 1);
  CHECK(all[0].payload == "result");
  CHECK(c.broadcast("seed") == "seed");
}

TEST_CASE("reduce on one process: the merge of its own payload, or its error") {
  const Cluster& c = Cluster::instance();
  const auto concat = [](const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) s += "[" + p + "]";
    return s;
  };
  CHECK(c.reduce({true, "a"}, concat) == "[a]");
  CHECK_THROWS_WITH_AS(c.reduce({false, "disk full"}, concat), "disk full", std::runtime_error);
  CHECK_THROWS_WITH_AS(c.reduce({true, "a"}, [](const auto&) -> std::string { throw std::invalid_argument("bad"); }),
                       "bad", std::runtime_error);
}
