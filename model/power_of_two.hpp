#pragma once
// Powers of two and their logarithms: the project's one home for them
// (bank counts, warp sizes, tile sizes and swizzle rows are powers of two
// throughout the papers). BANKCHECK_HD and constexpr, so algorithm headers
// that also run on the GPU use the same functions as the host code.
#include <cstdint>

#include "model/hd.hpp"

namespace bankcheck {

/// True iff n is a power of two (n >= 1).
BANKCHECK_HD constexpr bool is_power_of_two(std::uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

/// floor(log2 n) for n >= 1; 0 for n = 0.
BANKCHECK_HD constexpr unsigned log2_floor(std::uint64_t n) {
  unsigned r = 0;
  while (n >>= 1) ++r;
  return r;
}

/// ceil(log2 n): the least r with 2^r >= n; 0 for n <= 1.
BANKCHECK_HD constexpr unsigned log2_ceil(std::uint64_t n) { return n <= 1 ? 0 : log2_floor(n - 1) + 1; }

}  // namespace bankcheck
