#pragma once
// CuTe's Swizzle<B,M,S> (include/cute/swizzle.hpp in CUTLASS): of an offset
// written in binary, the B bits at [M + max(0,S), +B) (YYY) are XORed into
// the B bits at [M - min(0,S), +B) (ZZZ); the M lowest bits never change, so
// 2^M consecutive units stay together. S may be negative (YYY below ZZZ);
// CuTe requires |S| >= B, so the two fields never overlap.
//
//   apply(x) = x ^ shift_right(x & yyy_mask, S)   (shift left when S < 0)
//
// What an offset counts (elements or bytes) is the composed layout's
// business (sim/layout/shared_layout.hpp).
#include <cstdint>
#include <string>

namespace bankcheck::layout {

struct Swizzle {
  int bits = 0;   ///< B: width of the XOR mask, 0..16
  int base = 0;   ///< M: low bits kept, 0..32
  int shift = 0;  ///< S: distance from YYY down to ZZZ, |S| >= B

  /// The YYY bits (the ones XORed into ZZZ).
  std::uint64_t yyy_mask() const;
  /// The ZZZ bits (the ones that change).
  std::uint64_t zzz_mask() const;
  std::uint64_t apply(std::uint64_t offset) const;
  /// "Sw<B,M,S>", as cute::print writes it.
  std::string text() const;
  bool operator==(const Swizzle&) const = default;
};

/// Why B, M, S make no Swizzle (CuTe's static_asserts and this tool's
/// ranges), or "" when they do: "B = 3 exceeds |S| = 2".
std::string swizzle_problem(int bits, int base, int shift);

}  // namespace bankcheck::layout
