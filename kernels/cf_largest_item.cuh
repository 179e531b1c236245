#pragma once
// A partial tile may be padded with copies of its largest item and sorted as a
// full one (Agent::pad_with_largest, kernels/cf_merge_sort_agent.cuh) where no
// item equivalent to that one differs from it in bits. Two steps decide it: a
// reduction by CfLarger finds some item M of the largest key's class, then
// every item is held against M (cf_breaks_copy) and the answers are or-ed.
// Whichever member of the class the reduction returns, some item breaks the
// copy iff the class holds two items of different bits, so the reduction may
// combine in any order and break ties either way. C++17.
#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_same_bits.hpp"

namespace bankcheck::cf::detail {

/// A key and its value (for keys only, a stand-in value that never differs).
template <class Key, class Value>
struct CfItem {
  Key key;
  Value val;
};

/// The larger of two items by key; of two equivalent ones, the first.
template <class Key, class Value, class Less>
struct CfLarger {
  Less less;
  BANKCHECK_HD CfItem<Key, Value> operator()(const CfItem<Key, Value>& a, const CfItem<Key, Value>& b) const {
    return less(a.key, b.key) ? b : a;
  }
};

/// Whether item (key, val) keeps a tile from being padded with copies of m: its key is equivalent
/// to m's and it is not a bit-for-bit copy of m.
template <class Key, class Value, class Less>
BANKCHECK_HD bool cf_breaks_copy(const Key& key, const Value& val, const CfItem<Key, Value>& m, Less less) {
  return !less(key, m.key) && !less(m.key, key) && !(cf_same_bits(key, m.key) && cf_same_bits(val, m.val));
}

}  // namespace bankcheck::cf::detail
