// merge_path against a brute-force stable merge (the @post of sim/algorithms/merge/merge_path.hpp).
#include "sim/algorithms/merge/merge_path.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace bankcheck;

TEST_CASE("merge_path equals the A-count of the stable merge's prefix, ties from A first") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    const int na = static_cast<int>(rng() % 20), nb = static_cast<int>(rng() % 20);
    const int range = 1 + static_cast<int>(rng() % 10);  // small ranges force ties
    std::vector<int> A(na), B(nb);
    for (auto& x : A) x = static_cast<int>(rng() % range);
    for (auto& x : B) x = static_cast<int>(rng() % range);
    std::sort(A.begin(), A.end());
    std::sort(B.begin(), B.end());
    // Brute force: walk the stable merge, counting A's taken.
    long a = 0, b = 0;
    for (long diag = 0; diag <= na + nb; ++diag) {
      const auto a_at = [&](long i) { return A[i]; };
      const auto b_at = [&](long j) { return B[j]; };
      const auto less = [](int x, int y) { return x < y; };
      CHECK(merge_path(na, nb, diag, a_at, b_at) == a);
      // the warp's search, with as many probes as a warp has lanes to spare and with the fewest
      CHECK(MergePathWide<31>::search<long>(na, nb, diag, a_at, b_at, less) == a);
      CHECK(MergePathWide<3>::search<long>(na, nb, diag, a_at, b_at, less) == a);
      CHECK(MergePathWide<1>::search<long>(na, nb, diag, a_at, b_at, less) == a);
      if (diag == na + nb) break;
      const bool take_b = b < nb && (a >= na || B[b] < A[a]);
      take_b ? ++b : ++a;
    }
  }
}

TEST_CASE("MergePathWide's steps: probes inside the range, every step shrinks it, 5 steps for 2^23 keys") {
  using W = MergePathWide<31>;
  for (long len : {1L, 2L, 31L, 32L, 33L, 1000L, 1L << 23}) {
    for (int j = 0; j < 31; ++j) {
      CHECK(W::probe(10L, 10 + len, j) >= 10);
      CHECK(W::probe(10L, 10 + len, j) < 10 + len);
      if (j > 0) CHECK(W::probe(10L, 10 + len, j) >= W::probe(10L, 10 + len, j - 1));
    }
    for (int k = 0; k <= 31; ++k) {  // the monotone masks: lanes k.. go left
      long begin = 10, end = 10 + len;
      W::narrow(begin, end, k == 31 ? 0u : (0x7fffffffu >> k) << k);
      CHECK(begin >= 10);
      CHECK(end <= 10 + len);
      CHECK(end - begin < len);
    }
  }
  // The longest range a pass searches at 2^24 keys: 2^23 A keys against 2^23 B keys.
  std::vector<int> A(1 << 23), B(1 << 23);
  for (int i = 0; i < (1 << 23); ++i) A[i] = 2 * i, B[i] = 2 * i + 1;
  long comparisons = 0;  // 31 a step
  const auto counting_less = [&](int x, int y) { return ++comparisons, x < y; };
  const auto a_at = [&](long i) { return A[i]; };
  const auto b_at = [&](long j) { return B[j]; };
  const long diag = 1L << 23;
  CHECK(W::search<long>(diag, diag, diag, a_at, b_at, counting_less) == merge_path(diag, diag, diag, a_at, b_at));
  CHECK(comparisons <= 5 * 31);
  CHECK(comparisons > 0);
}
