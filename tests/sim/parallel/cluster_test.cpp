// shard_of splits every item exactly once, in order, with sizes that differ
// by at most one (checked by enumeration); a single process gathers itself.
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
