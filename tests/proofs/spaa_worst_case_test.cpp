#include "proofs/spaa_worst_case.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/theorem8.hpp"

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

namespace {
/// Theorem 8's count for the warp as the paper prints it (all d subproblems),
/// apart from model/analytic, in the signed counts of MergeCost.
std::int64_t paper_count(std::uint64_t w, std::uint64_t E) {
  return static_cast<std::int64_t>(bankcheck::test::theorem8_per_warp(w, E));
}
}  // namespace

TEST_CASE("Section 4's merge order reaches Theorem 8's count at every 2 <= E <= w <= 96") {
  for (std::uint64_t w = 2; w <= 96; ++w)
    for (std::uint64_t E = 2; E <= w; ++E) {
      const TupleSequence warp = build_warp(w, E);
      REQUIRE(warp.error.empty());
      const MergeCost c = merge_cost(w, E, construction_order(warp, w, E));
      CHECK_MESSAGE(c.bottom_total >= paper_count(w, E),
                    "w=" << w << " E=" << E << ": " << c.bottom_total);
    }
}

TEST_CASE("Section 4's merge order reaches it where a search of 64 threads did not, and at the widths CLI accepts") {
  // The paper's counts at the points where the order search fell short
  // (86/70: 3496, 129/105: 7866, 106/98: 5644, 256/200: 30208, 512/400:
  // 120832, 1024/1000: 527616), each with more than 64 mixing threads.
  struct Case {
    std::uint64_t w, E;
    std::int64_t count;
  };
  for (const Case& k : {Case{86, 70, 3496}, Case{129, 105, 7866}, Case{106, 98, 5644}, Case{256, 200, 30208},
                        Case{512, 400, 120832}, Case{1024, 1000, 527616}}) {
    CAPTURE(k.w);
    CAPTURE(k.E);
    CHECK(paper_count(k.w, k.E) == k.count);
    CHECK(theorem8_total(k.w, k.E) == k.count);
    const TupleSequence warp = build_warp(k.w, k.E);
    std::uint64_t mixed = 0;
    for (const Tuple& t : warp.tuples) mixed += t.a > 0 && t.b > 0;
    CHECK(mixed > 64);
    CHECK(merge_cost(k.w, k.E, construction_order(warp, k.w, k.E)).bottom_total >= k.count);
  }
  for (std::uint64_t w : {65, 127, 128, 129, 255, 256, 257, 1000, 1024})
    for (std::uint64_t E : {std::uint64_t{2}, w / 2, w / 2 + 1, w - 1, w}) {
      CAPTURE(w);
      CAPTURE(E);
      const TupleSequence warp = build_warp(w, E);
      REQUIRE(warp.error.empty());
      CHECK(merge_cost(w, E, construction_order(warp, w, E)).bottom_total >= paper_count(w, E));
    }
}

TEST_CASE("Section 4's merge order, w = 12, E = 5 (Figure 4, left): mixing threads read the part starting a column first") {
  // T = (2,3) (5,0) (5,0) (1,4) (0,5) (1,4) (5,0) (5,0) (2,3) (0,5) (5,0) (5,0); A fills 3 columns of 12.
  // Thread 0 starts column 0 of A and of B: A first. Thread 3's A cell starts column 1 of A: A first.
  // Thread 5's A cell is bank 1 of column 1, its B cells start column 1 of B: B first. Thread 8 starts column 2 of A.
  const std::vector<char> order = construction_order(build_warp(12, 5), 12, 5);
  auto reads = [&](int thread) { return std::string(order.begin() + thread * 5, order.begin() + thread * 5 + 5); };
  CHECK(reads(0) == std::string{1, 1, 0, 0, 0});
  CHECK(reads(3) == std::string{1, 0, 0, 0, 0});
  CHECK(reads(5) == std::string{0, 0, 0, 0, 1});
  CHECK(reads(8) == std::string{1, 1, 0, 0, 0});
  CHECK(reads(1) == std::string(5, 1));
  CHECK(reads(4) == std::string(5, 0));
}
