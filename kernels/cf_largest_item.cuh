#pragma once
// The real item with the largest key among a tile's, and whether some item
// equivalent to it is not a bit-for-bit copy of it: the condition under which
// a partial tile may be padded with copies of it and sorted as a full one
// (Agent::pad_with_largest, kernels/cf_merge_sort_agent.cuh). C++17.
#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_same_bits.hpp"

namespace bankcheck::cf::detail {

/// real: there was an item; contested: some item equivalent to it differs from it in bits.
template <class Key, class Value>
struct CfLargestItem {
  Key key;
  Value val;
  bool real, contested;
};

/// The reduction of CfLargestItems: the larger, or of two equivalent ones either,
/// contested unless both are uncontested copies of one item. Associative, as
/// cub::BlockReduce needs: the result is the largest key's class, contested iff
/// that class holds two items of different bits.
template <class Key, class Value, class Less>
struct CfLarger {
  Less less;
  BANKCHECK_HD CfLargestItem<Key, Value> operator()(const CfLargestItem<Key, Value>& a,
                                                    const CfLargestItem<Key, Value>& b) const {
    if (!b.real) return a;
    if (!a.real) return b;
    if (less(a.key, b.key)) return b;
    if (less(b.key, a.key)) return a;
    CfLargestItem<Key, Value> r = a;
    r.contested = a.contested || b.contested || !(cf_same_bits(a.key, b.key) && cf_same_bits(a.val, b.val));
    return r;
  }
};

}  // namespace bankcheck::cf::detail
