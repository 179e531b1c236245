// sim/inputs/random.hpp: the engine is std::mt19937_64 (whose 10000th output
// the C++ standard states) and below(n) is exact rejection sampling.
#include "sim/inputs/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

using bankcheck::inputs::Random;

TEST_CASE("Random's stream is std::mt19937_64's: the standard's 10000th output for seed 5489") {
  Random r(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = r.next();
  CHECK(x == 9981545732273789042ull);  // [rand.predef]
}

TEST_CASE("below(n) keeps the engine outputs under the largest multiple of n, reduced mod n") {
  // n = 2^63 + 1: the largest multiple of n below 2^64 is n itself, so about
  // half the outputs are rejected and each kept one is its own value.
  const std::uint64_t n = (std::uint64_t{1} << 63) + 1;
  Random r(11);
  std::mt19937_64 engine(11);
  for (int i = 0; i < 200; ++i) {
    std::uint64_t kept = engine();
    while (kept >= n) kept = engine();
    CHECK(r.below(n) == kept);
  }
  // n = 3: 2^64 - 1 is a multiple of 3, so nothing is rejected.
  Random s(12);
  std::mt19937_64 e(12);
  for (int i = 0; i < 200; ++i) CHECK(s.below(3) == e() % 3);
  CHECK(Random(1).below(1) == 0);
}

TEST_CASE("below(6) is uniform: chi-square over 60000 draws") {
  Random r(2026);
  std::array<double, 6> count{};
  for (int i = 0; i < 60000; ++i) count[r.below(6)] += 1;
  double chi2 = 0;
  for (double c : count) chi2 += (c - 10000) * (c - 10000) / 10000;
  CHECK(chi2 < 20.5);  // 5 degrees of freedom: P(chi2 > 20.5) < 0.001
}

TEST_CASE("Random is a UniformRandomBitGenerator: std::shuffle gives what it gives with the engine") {
  std::vector<int> a(50), b(50);
  for (int i = 0; i < 50; ++i) a[i] = b[i] = i;
  Random r(9);
  std::mt19937_64 e(9);
  std::shuffle(a.begin(), a.end(), r);
  std::shuffle(b.begin(), b.end(), e);
  CHECK(a == b);
}
