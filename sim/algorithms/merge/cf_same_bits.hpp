#pragma once
// Whether two objects are bit for bit the same: the test under which a copy
// of one item may stand in for another in a sort's output (a partial tile
// padded with copies of its largest item, kernels/cf_merge_sort_agent.cuh).
// Equivalence under the sort's comparator is not enough: a comparator may
// order by part of a key, and a value is not compared at all. C++17.
#include <cstring>
#include <type_traits>

#include "model/hd.hpp"

namespace bankcheck {

/// a and b have the same object representation (padding bytes included: two
/// equal structs with different padding count as different, which only makes a
/// caller take its general path).
template <class T>
BANKCHECK_HD bool cf_same_bits(const T& a, const T& b) {
  static_assert(std::is_trivially_copyable_v<T>, "bits compare only trivially copyable types");
  // 4-byte words where the size allows: copies into a local array of scalars stay in registers
  using Word = std::conditional_t<sizeof(T) % 4 == 0, unsigned, unsigned char>;
  constexpr int kWords = static_cast<int>(sizeof(T) / sizeof(Word));
  Word x[kWords], y[kWords];
  std::memcpy(x, &a, sizeof(T));
  std::memcpy(y, &b, sizeof(T));
  bool same = true;
  for (int i = 0; i < kWords; ++i) same = same && x[i] == y[i];
  return same;
}

}  // namespace bankcheck
