// Swizzle<B,M,S> against the bit-by-bit definition of cute/swizzle.hpp:
// bit M + i of the result is bit M + i XOR bit M + S + i, for i < B.
#include <doctest/doctest.h>

#include <array>

#include "sim/layout/swizzle.hpp"

using bankcheck::layout::Swizzle;
using bankcheck::layout::swizzle_problem;

namespace {
std::uint64_t by_bits(int b, int m, int s, std::uint64_t x) {
  std::uint64_t out = x;
  for (int i = 0; i < b; ++i) {
    const int zbit = s >= 0 ? m + i : m - s + i, ybit = s >= 0 ? m + s + i : m + i;
    out ^= ((x >> ybit) & 1u) << zbit;
  }
  return out;
}
}  // namespace

TEST_CASE("swizzle: every offset of the CUTLASS swizzles equals the bit definition") {
  for (auto [b, m, s] : {std::array{3, 3, 3}, {3, 4, 3}, {2, 4, 3}, {1, 4, 3}, {3, 3, 4}, {2, 3, 3}, {5, 0, 5},
                         {2, 1, -3}, {0, 4, 3}})
    for (std::uint64_t x = 0; x < 4096; ++x) REQUIRE(Swizzle{b, m, s}.apply(x) == by_bits(b, m, s, x));
}

TEST_CASE("swizzle: hand-worked values, masks and text") {
  const Swizzle sw{3, 3, 3};
  CHECK(sw.apply(64) == 72);     // row 1 of 64 fp16: chunk 0 -> chunk 1
  CHECK(sw.apply(7 * 64 + 8) == 7 * 64 + 8 * 6);  // row 7, chunk 1 -> chunk 1^7 = 6
  CHECK(sw.yyy_mask() == 0x1c0);
  CHECK(sw.zzz_mask() == 0x38);
  CHECK(sw.text() == "Sw<3,3,3>");
  CHECK(Swizzle{2, 1, -3}.zzz_mask() == 0x30);
  CHECK(Swizzle{2, 1, -3}.yyy_mask() == 0x6);
}

TEST_CASE("swizzle: CuTe's constraint |S| >= B and the ranges") {
  CHECK(swizzle_problem(3, 3, 3).empty());
  CHECK(swizzle_problem(3, 3, 2).find("exceeds |S| = 2") != std::string::npos);
  CHECK(swizzle_problem(-1, 3, 3).find("outside 0..16") != std::string::npos);
  CHECK(swizzle_problem(2, 40, 3).find("outside 0..32") != std::string::npos);
}
