#pragma once
// A thread's E keys sorted in registers before the block sort's first round
// (kernels/cf_merge_sort_kernels.cuh): Batcher's bitonic sorting network for
// E a power of two, E/2 log2 E (log2 E + 1) / 2 compare-exchanges (240 at E =
// 32) where CUB's StableOddEvenSort takes E(E-1)/2 (496). Not stable, as the
// rest of the sort; the partial tile keeps CUB's stable sort (its padding
// must stay behind equal real keys). All comparators put the minimum at the
// lower register (the "flip" form of the network), so the plan is a list of
// (lo, hi) pairs for cf_register_merge.hpp's compare-exchange.
#include <cstddef>
#include <utility>

#include "model/power_of_two.hpp"  // and model/hd.hpp
#include "sim/algorithms/merge/cf_register_merge.hpp"

namespace bankcheck {

/// Whether the bitonic network sorts E items (E a power of two).
BANKCHECK_HD constexpr bool cf_register_sort_fits(int e) { return e >= 1 && is_power_of_two(static_cast<unsigned>(e)); }

/// The network for E items: `ops[0..count)` in order.
template <int kE>
struct CfSortPlan {
  static constexpr int kLog = cf_log2_ceil(kE);
  CfMergeOp ops[kE / 2 * kLog * (kLog + 1) / 2 + 1] = {};
  int count = 0;
};

template <int kE>
BANKCHECK_HD constexpr CfSortPlan<kE> cf_sort_plan() {
  static_assert(cf_register_sort_fits(kE), "the bitonic network sorts a power of two of items");
  CfSortPlan<kE> plan{};
  for (int block = 2; block <= kE; block *= 2) {
    // flip: i against its mirror in the block (two sorted halves make one bitonic sequence, turned ascending)
    for (int i = 0; i < kE; ++i) {
      const int mirror = i ^ (block - 1);
      if (mirror > i) plan.ops[plan.count++] = CfMergeOp{i, mirror};
    }
    for (int half = block / 4; half >= 1; half /= 2)  // half-cleaners
      for (int i = 0; i < kE; ++i)
        if ((i & half) == 0) plan.ops[plan.count++] = CfMergeOp{i, i + half};
  }
  return plan;
}
template <int kE>
BANKCHECK_HD constexpr int cf_sort_op_lo(int i) { return cf_sort_plan<kE>().ops[i].lo; }
template <int kE>
BANKCHECK_HD constexpr int cf_sort_op_hi(int i) { return cf_sort_plan<kE>().ops[i].hi; }

namespace cf_detail {
template <int kE, class Key, class Value, class Less, std::size_t... I>
BANKCHECK_HD void apply_sort_plan(Key (&keys)[kE], Value (&vals)[kE], Less& less, std::index_sequence<I...>) {
  // no validity flags: compare_exchange reads them only with kFlags
  (compare_exchange<cf_sort_op_lo<kE>(static_cast<int>(I)), cf_sort_op_hi<kE>(static_cast<int>(I)), false>(
       keys, vals, static_cast<bool*>(nullptr), less),
   ...);
}
}  // namespace cf_detail

/// Sorts keys[0..E) ascending by `less` in registers, values (if any) moving with their keys.
/// @pre cf_register_sort_fits(E). @post ascending; not stable.
template <int kE, class Key, class Value, class Less>
BANKCHECK_HD void cf_register_sort(Key (&keys)[kE], Value (&vals)[kE], Less less) {
  cf_detail::apply_sort_plan<kE>(keys, vals, less,
                                 std::make_index_sequence<static_cast<std::size_t>(cf_sort_plan<kE>().count)>{});
}

}  // namespace bankcheck
