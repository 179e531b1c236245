// The XOR-map search shared by layout --suggest and suggest on captures:
// the construction gives a transpose's column of 32 lanes (deltas 128 x k)
// 32 distinct banks, counted here by enumeration of the mapped addresses;
// the descent reaches the minimum of a cost whose minimum is known; the
// swizzle list is every valid Swizzle<B,M,S> inside the bits, counted
// against the validity rule by brute force.
#include "proofs/xor_map_search.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <set>

namespace xor_map_search_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

TEST_CASE("xor map search: the construction spreads a 32x32 fp32 column over the 32 banks") {
  const XorFrame f{2, 7, 12, 2};  // 4-byte vectors, 32 banks of 4 bytes, a 4096-byte buffer
  PhaseColumns column;
  for (unsigned k = 0; k < 5; ++k) column.push_back(128u << k);
  const std::vector<std::uint64_t> c = construct_xor_vectors({column}, f);
  REQUIRE(c.size() == 5);
  const XorAddressMap m = xor_map_of_vectors(c, f);
  CHECK(m.lowest_target() >= 2);
  for (std::uint64_t col = 0; col < 32; ++col) {
    std::set<std::uint64_t> banks;
    for (std::uint64_t lane = 0; lane < 32; ++lane) banks.insert((m.apply(lane * 128 + col * 4) / 4) % 32);
    CHECK(banks.size() == 32);
  }
  const std::vector<std::uint64_t> none = construct_xor_vectors({}, f);
  CHECK(xor_map_of_vectors(none, f).is_identity());
}

TEST_CASE("xor map search: the descent reaches a separable cost's known minimum") {
  const XorFrame f{2, 4, 6, 2};  // targets bits 2-3, sources bits 4-5: c[h] in 0..3
  // Cost: the bits by which each source bit's image differs from the wanted map's (bit 2 ^= bit 4; bit 3 ^=
  // bits 4,5); zero only there. Separable in c[h], so a coordinate descent (a local search) provably reaches it.
  const XorAddressMap wanted{{{2, 0x10}, {3, 0x30}}};
  const auto cost = [&](const XorAddressMap& m) {
    return static_cast<std::uint64_t>(std::popcount(m.apply(16) ^ wanted.apply(16)) +
                                      std::popcount(m.apply(32) ^ wanted.apply(32)));
  };
  std::vector<std::uint64_t> c(2, 0);
  std::uint64_t evaluations = 0;
  descend_xor_vectors(cost, f, c, evaluations);
  CHECK(xor_map_of_vectors(c, f) == wanted);
  CHECK(evaluations > 1);
}

TEST_CASE("xor map search: swizzles_within lists exactly the valid swizzles inside the bits") {
  for (unsigned bits = 1; bits <= 8; ++bits) {
    std::size_t expected = 0;
    const int n = static_cast<int>(bits);
    for (int b = 1; b <= n; ++b)
      for (int m = 0; m < n; ++m)
        for (int s = -n; s <= n; ++s) {
          // CuTe: |S| >= B (the fields do not overlap); the fields [M, M+B) and [M+|S|, M+|S|+B) lie below n.
          if (std::abs(s) >= b && m + std::abs(s) + b <= n) ++expected;
        }
    CHECK(swizzles_within(bits).size() == expected);
  }
  CHECK(phase_lane_bits(false, 4) == 5);
  CHECK(phase_lane_bits(false, 8) == 4);
  CHECK(phase_lane_bits(false, 16) == 3);
  CHECK(phase_lane_bits(true, 16) == 3);
}

}  // namespace xor_map_search_test
