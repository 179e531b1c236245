// sim/inputs/splitmix64.hpp against the published SplitMix64 outputs and the
// definition of the multiply-shift mapping.
#include "sim/inputs/splitmix64.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using bankcheck::inputs::SplitMix64;

TEST_CASE("SplitMix64 seeded with 0 gives the reference implementation's first outputs") {
  // Vigna's splitmix64.c with x = 0: the test vectors other ports check too.
  SplitMix64 g(0);
  CHECK(g() == 0xE220A8397B1DCDAFull);
  CHECK(g() == 0x6E789E6AA1B965F4ull);
  CHECK(g() == 0x06C45D188009454Full);
  CHECK(SplitMix64::hash(0) == 0xE220A8397B1DCDAFull);  // the first output of the generator seeded with x
  static_assert(SplitMix64::hash(0) == 0xE220A8397B1DCDAFull, "usable in constant expressions");
}

TEST_CASE("hash(x) is the first output of a generator seeded with x; mix is a bijection on a sample") {
  for (std::uint64_t x : {1ull, 2ull, 12345ull, 0xFFFFFFFFFFFFFFFFull}) {
    CAPTURE(x);
    CHECK(SplitMix64::hash(x) == SplitMix64(x)());
  }
  std::vector<std::uint64_t> images;
  for (std::uint64_t z = 0; z < 4096; ++z) images.push_back(SplitMix64::mix(z));
  std::sort(images.begin(), images.end());
  CHECK(std::adjacent_find(images.begin(), images.end()) == images.end());
}

TEST_CASE("below(2^k) is the top k bits of the next output; below(n) < n") {
  for (unsigned k : {1u, 5u, 32u, 63u}) {
    CAPTURE(k);
    SplitMix64 a(7), b(7);
    for (int i = 0; i < 100; ++i) CHECK(a.below(std::uint64_t{1} << k) == b() >> (64 - k));
  }
  SplitMix64 g(3);
  for (std::uint64_t n : {1ull, 2ull, 3ull, 1000ull, 2049ull})
    for (int i = 0; i < 1000; ++i) CHECK(g.below(n) < n);
  // A UniformRandomBitGenerator: std::shuffle accepts it.
  std::vector<int> v = {1, 2, 3, 4, 5};
  std::shuffle(v.begin(), v.end(), g);
  std::sort(v.begin(), v.end());
  CHECK(v == std::vector<int>{1, 2, 3, 4, 5});
}
