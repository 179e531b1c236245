// sim/inputs/random_permutation.hpp: a bijection of [0, n) for every n
// (checked by counting images), deterministic in the key, and scrambling.
#include "sim/inputs/random_permutation.hpp"

#include <doctest/doctest.h>

#include <vector>

using bankcheck::inputs::RandomPermutation;

TEST_CASE("RandomPermutation is a bijection of [0, n)") {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 4ull, 5ull, 16ull, 17ull, 1000ull, 4097ull, 65536ull}) {
    CAPTURE(n);
    const RandomPermutation p(n, 0x5eed0000ull + n);
    std::vector<int> hits(n, 0);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t y = p(i);
      REQUIRE(y < n);
      ++hits[y];
    }
    for (std::uint64_t y = 0; y < n; ++y) CHECK(hits[y] == 1);
  }
}

TEST_CASE("RandomPermutation depends on the key only, and moves most indices") {
  const std::uint64_t n = 10000;
  const RandomPermutation a(n, 1), b(n, 1), c(n, 2);
  std::uint64_t same_key_equal = 0, other_key_equal = 0, fixed = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    same_key_equal += a(i) == b(i);
    other_key_equal += a(i) == c(i);
    fixed += a(i) == i;
  }
  CHECK(same_key_equal == n);
  CHECK(other_key_equal < n / 100);  // a random pair of permutations agrees on about 1 index
  CHECK(fixed < n / 100);            // a random permutation fixes about 1 index
}
