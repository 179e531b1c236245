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
      const long got = merge_path(na, nb, diag, [&](long i) { return A[i]; }, [&](long j) { return B[j]; });
      CHECK(got == a);
      if (diag == na + nb) break;
      const bool take_b = b < nb && (a >= na || B[b] < A[a]);
      take_b ? ++b : ++a;
    }
  }
}
