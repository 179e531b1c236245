#include "proofs/spaa_worst_case.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace bankcheck::spaa;

TEST_CASE("T for w = 12, E = 5 is the sequence of SPAA Figure 4 (left), read off the figure") {
  const TupleSequence t = build_t(12, 5);
  REQUIRE(t.error.empty());
  const std::vector<std::int64_t> a = {2, 5, 5, 1, 0, 1, 5, 5, 2, 0, 5, 5};  // A cells per thread in the figure
  REQUIRE(t.tuples.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(t.tuples[i].a == a[i]);
    CHECK(t.tuples[i].b == 5 - a[i]);
  }
}

TEST_CASE("Theorem 8 totals by hand") {
  CHECK(theorem8_total(12, 5) == 25);  // E <= w/2: E^2
  CHECK(theorem8_total(12, 9) == 72);  // d = 3, r = 3: (81 + 54 + 27 - 9 - 9) / 2
  CHECK(theorem8_total(12, 12) == 144);
  // Beyond 1 < E <= w, where the claims explore: the same expression.
  CHECK(theorem8_total(32, 1) == 1);  // E² (2E <= w)
  CHECK(theorem8_total(2, 6) == 32);  // r = 2, d = 2: (36 + 24 + 12 - 4 - 4) / 2
  CHECK(theorem8_total(5, 7) == 48);  // r = 5, d = 1: (49 + 70 + 7 - 25 - 5) / 2
}

TEST_CASE("merge cost by hand: every thread scans its own column") {
  // w = 2, E = 2, all from A: thread 0 reads A[0], A[1]; thread 1 reads A[2], A[3].
  // Step 0: cells 0 and 2, both bank 0 -> 2. Step 1: cells 1 and 3 -> 2.
  const MergeCost c = merge_cost(2, 2, {1, 1, 1, 1});
  CHECK(c.total == 4);
  CHECK(c.worst_step == 2);
}

TEST_CASE("the construction is undefined beyond E <= w") {
  CHECK_FALSE(build_t(5, 7).error.empty());  // q = 0 asks for q - 1 = -1 tuples
}
