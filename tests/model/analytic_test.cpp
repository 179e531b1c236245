// Closed forms against hand-computed values and brute-force sums.
#include "model/analytic.hpp"

#include <doctest/doctest.h>

#include <numeric>

using namespace bankcheck::analytic;

TEST_CASE("A_PBS by hand: w = 32, K = 1024 -> 32*(10-5+1)-1 = 191; K = 4096 -> 255") {
  CHECK(pbs_worst_accesses_per_warp(32, 1024) == 191);
  CHECK(pbs_worst_accesses_per_warp(32, 4096) == 255);
  CHECK(pbs_worst_conflicts_per_warp(32, 1024) == 181);
  CHECK(pbs_worst_accesses_total(32, 1024, 3200) == 19100);
}

TEST_CASE("A_PBS equals the sum of min(2^i, w) over log K rounds when w² | K") {
  for (std::uint64_t w = 1; w <= 64; w *= 2)
    for (std::uint64_t K = w * w; K <= (std::uint64_t{1} << 40); K *= 4) {
      cpp_int sum = 0;
      for (unsigned i = 0; (std::uint64_t{1} << i) < K; ++i) sum += std::min<std::uint64_t>(std::uint64_t{1} << i, w);
      CHECK(pbs_worst_accesses_per_warp(w, K) == sum);
      CHECK(pbs_worst_accesses_capped_per_warp(w, K) == sum);
    }
}

TEST_CASE("totals never wrap: Q near 2^64") {
  const std::uint64_t Q = (~std::uint64_t{0} / 32) * 32;
  CHECK(pbs_worst_accesses_total(32, 1024, Q) == cpp_int(191) * (Q / 32));
  CHECK(pbs_worst_accesses_total(32, 1024, Q) > cpp_int(~std::uint64_t{0}));
}

TEST_CASE("Theorem 8 per warp: E² up to w/2, then (E² + 2Er + Ed - r² - rd)/2") {
  CHECK(merge_worst_conflicts_per_warp(32, 15) == 225);
  // w = 12, E = 9: q = 1, r = 3, d = 3: (81 + 54 + 27 - 9 - 9)/2 = 72
  CHECK(merge_worst_conflicts_per_warp(12, 9) == 72);
  // w = 12, E = 7: r = 5, d = 1: (49 + 70 + 7 - 25 - 5)/2 = 48
  CHECK(merge_worst_conflicts_per_warp(12, 7) == 48);
  // w = 32, E = 17 (CUB's sm_90 E): r = 15, d = 1: (289 + 510 + 17 - 225 - 15)/2 = 288
  CHECK(merge_worst_conflicts_per_warp(32, 17) == 288);
  // E = w: r = 0, d = w: (w² + w²)/2 = w²
  CHECK(merge_worst_conflicts_per_warp(32, 32) == 1024);
  // n = 10^8 rounded to whole warps of 32*15 = 480 keys: 208333 warps * 225
  CHECK(merge_worst_conflicts_total(32, 15, 480 * 208333) == cpp_int(225) * 208333);
  CHECK_THROWS_AS(merge_worst_conflicts_total(32, 15, 100), std::invalid_argument);
}

TEST_CASE("Theorem 8's closed form beyond the theorem's domain, by hand (the claims explore E = 1 and E > w)") {
  CHECK(merge_worst_closed_form(32, 1) == 1);   // 2E <= w: E²
  CHECK(merge_worst_closed_form(1, 1) == 1);    // r = 0, d = 1: (1 + 0 + 1 - 0 - 0)/2
  CHECK(merge_worst_closed_form(2, 6) == 32);   // r = 2, d = 2: (36 + 24 + 12 - 4 - 4)/2
  CHECK(merge_worst_closed_form(5, 7) == 48);   // r = 5, d = 1: (49 + 70 + 7 - 25 - 5)/2
  CHECK(merge_worst_closed_form(12, 9) == merge_worst_conflicts_per_warp(12, 9));
  // The second case's numerator: w = 12, E = 9 (r = d = 3) gives 144; lifted
  // by K (r and d scale by K too) it is 144 K², far past 64 bits.
  CHECK(merge_worst_closed_form_twice_wide(12, 9) == 144);
  const cpp_int K = (cpp_int(1) << 100) + 7;
  CHECK(merge_worst_closed_form_twice_wide(12 * K, 9 * K) == 144 * K * K);
  CHECK(merge_worst_closed_form(12 * K, 9 * K) == 72 * K * K);
  CHECK_THROWS_AS(merge_worst_closed_form(0, 3), std::invalid_argument);
  CHECK_THROWS_AS(merge_worst_closed_form_twice_wide(3, 0), std::invalid_argument);
}

TEST_CASE("domains are enforced") {
  CHECK_THROWS_AS(pbs_worst_accesses_per_warp(32, 1000), std::invalid_argument);
  CHECK_THROWS_AS(pbs_worst_accesses_per_warp(32, 512), std::invalid_argument);  // not a multiple of w²
  CHECK_THROWS_AS(pbs_worst_accesses_per_warp(12, 144), std::invalid_argument);
  CHECK_THROWS_AS(pbs_worst_accesses_total(32, 1024, 33), std::invalid_argument);
  CHECK_THROWS_AS(pbs_cf_conflicts(32, 16), std::invalid_argument);
  CHECK_THROWS_AS(pbs_cl_stage2_bound_per_warp(12), std::invalid_argument);
  CHECK_THROWS_AS(merge_worst_conflicts_per_warp(32, 1), std::invalid_argument);
  CHECK_THROWS_AS(merge_worst_conflicts_per_warp(32, 33), std::invalid_argument);
  CHECK(pbs_cl_stage2_bound_per_warp(32) == 31);
  CHECK(pbs_cf_conflicts(32, 32) == 0);
}
