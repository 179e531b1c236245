#pragma once
// select(c, a, b) = c ? a : b without a data-dependent branch on the host.
// The recorder runs every lane of an algorithm header on the CPU, where a
// comparison that steers a search or a merge is taken about half the time at
// random: a mispredicted branch per probe costs about a third of a recorded PBS run
// (docs/algorithms.md, "Speed"). On the device nvcc already turns `c ? a : b`
// into a select, so the GPU code is the same either way.
#include <type_traits>

#include "model/hd.hpp"

namespace bankcheck {

template <class T>
BANKCHECK_HD T select(bool c, T a, T b) {
#if defined(__CUDA_ARCH__)
  return c ? a : b;
#else
  static_assert(std::is_integral_v<T>, "select: integral types only");
  using U = std::make_unsigned_t<T>;
  const U mask = static_cast<U>(-static_cast<std::make_signed_t<U>>(c));  // all ones iff c
  return static_cast<T>((static_cast<U>(a) & mask) | (static_cast<U>(b) & ~mask));
#endif
}

}  // namespace bankcheck
