#pragma once
// CF-Merge's register merge: a thread's E gathered items sorted in registers
// (Berney and Sitchinava, "Eliminating Bank Conflicts in GPU Mergesort").
//
// SPAA 2025 Section 5 sorts the E gathered items with an odd-even
// transposition sort (data oblivious, so the register indices are constants;
// E(E-1)/2 compare-exchanges). The gather's round order is more than a
// multiset: from round k = a_i mod E on (cyclically) it holds A_i ascending
// then B_i descending, a cyclic rotation of a bitonic sequence. Batcher's
// bitonic merger (E/2 log2 E compare-exchanges) sorts every such sequence when
// E is a power of two (0-1 principle: 0/1 cyclic bitonic sequences are
// 0*1*0* or 1*0*1*). For other E the items are first rotated by k (a barrel
// shifter: ceil(log2 E) stages of E selects) so that A_i starts at register 0,
// and padded to P = 2^ceil(log2 E) with -infinity at the end (A ascending, B
// descending, -inf ... is still bitonic). The pads exist only at compile time:
// a compare-exchange with a pad is a renaming of registers (cf_merge_plan).
#include <cstddef>
#include <type_traits>
#include <utility>

#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_unroll.hpp"

namespace bankcheck {

/// The key-only form of the register merge passes arrays of this.
struct CfNoValue {};

/// One compare-exchange of the plan: min into register lo, max into hi.
struct CfMergeOp {
  int lo = 0, hi = 0;
};

/// ceil(log2(n)), n >= 1.
BANKCHECK_HD constexpr int cf_log2_ceil(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

/// The bitonic merger for E items as compare-exchanges on the E registers,
/// pads resolved: `ops[0..count)` in order, then output position x is register out[x].
template <int kE>
struct CfMergePlan {
  static constexpr int kLog = cf_log2_ceil(kE);
  static constexpr int kP = 1 << kLog;
  CfMergeOp ops[kP / 2 * kLog + 1] = {};
  int count = 0;
  int out[kE] = {};
};

template <int kE>
BANKCHECK_HD constexpr CfMergePlan<kE> cf_merge_plan() {
  using Plan = CfMergePlan<kE>;
  Plan plan{};
  int reg[Plan::kP] = {};  // position -> register, -1 = a pad (-infinity)
  for (int p = 0; p < Plan::kP; ++p) reg[p] = p < kE ? p : -1;
  for (int lg = Plan::kLog - 1; lg >= 0; --lg) {
    const int s = 1 << lg;
    for (int i = 0; i < Plan::kP; ++i) {
      if ((i & s) != 0) continue;
      const int a = reg[i], b = reg[i + s];
      if (a >= 0 && b >= 0) {
        plan.ops[plan.count++] = CfMergeOp{a, b};
      } else if (a >= 0) {  // a pad at the higher position: the min (the pad) moves down
        reg[i + s] = a;
        reg[i] = -1;
      }  // a pad at the lower position already holds the min
    }
  }
  for (int x = 0; x < kE; ++x) plan.out[x] = reg[Plan::kP - kE + x];  // the pads end at positions 0..P-E-1
  return plan;
}
template <int kE>
BANKCHECK_HD constexpr int cf_merge_op_lo(int i) { return cf_merge_plan<kE>().ops[i].lo; }
template <int kE>
BANKCHECK_HD constexpr int cf_merge_op_hi(int i) { return cf_merge_plan<kE>().ops[i].hi; }
template <int kE>
BANKCHECK_HD constexpr int cf_merge_out(int x) { return cf_merge_plan<kE>().out[x]; }

namespace cf_detail {

/// Compare-exchange of registers kLo < kHi ... (as positions: min to kLo). An
/// invalid item (kFlags) is larger than every key. The arrays come as
/// pointers: GCC folds identical instantiations for different array lengths
/// and then warns (-Warray-bounds) about the folded copy's length.
template <int kLo, int kHi, bool kFlags, class Key, class Value, class Less>
BANKCHECK_HD void compare_exchange(Key* keys, Value* vals, bool* valid, Less& less) {
  bool swap;
  if constexpr (kFlags)
    swap = valid[kHi] && (!valid[kLo] || less(keys[kHi], keys[kLo]));
  else
    swap = less(keys[kHi], keys[kLo]);
  const Key lo = keys[kLo], hi = keys[kHi];
  keys[kLo] = swap ? hi : lo;
  keys[kHi] = swap ? lo : hi;
  if constexpr (!std::is_same_v<Value, CfNoValue>) {
    const Value vlo = vals[kLo], vhi = vals[kHi];
    vals[kLo] = swap ? vhi : vlo;
    vals[kHi] = swap ? vlo : vhi;
  }
  if constexpr (kFlags) {
    const bool flo = valid[kLo], fhi = valid[kHi];
    valid[kLo] = swap ? fhi : flo;
    valid[kHi] = swap ? flo : fhi;
  }
}

template <int kE, bool kFlags, class Key, class Value, class Less, std::size_t... I>
BANKCHECK_HD void apply_plan(Key (&keys)[kE], Value (&vals)[kE], bool (&valid)[kE], Less& less,
                             std::index_sequence<I...>) {
  // template arguments: the plan is evaluated by the compiler, never at run time
  (compare_exchange<cf_merge_op_lo<kE>(static_cast<int>(I)), cf_merge_op_hi<kE>(static_cast<int>(I)), kFlags>(
       keys, vals, valid, less),
   ...);
}

template <int kDst, int kSrc, int N, class T>
BANKCHECK_HD void copy_one(T (&dst)[N], const T (&src)[N]) {
  dst[kDst] = src[kSrc];
}

/// dst[x] = src[out[x]] for the plan's output permutation.
template <int kE, class T, std::size_t... X>
BANKCHECK_HD void permute_out(T (&a)[kE], std::index_sequence<X...>) {
  T src[kE];
  BANKCHECK_CF_UNROLL
  for (int x = 0; x < kE; ++x) src[x] = a[x];
  (copy_one<static_cast<int>(X), cf_merge_out<kE>(static_cast<int>(X))>(a, src), ...);
}

/// a[x] = a[(x + k) mod E] for every x: ceil(log2 E) stages, stage b rotates by 2^b when bit b of k is set.
template <int kE, class T>
BANKCHECK_HD void rotate_left(T (&a)[kE], unsigned k) {
  constexpr int kLog = cf_log2_ceil(kE);
  BANKCHECK_CF_UNROLL
  for (int b = 0; b < kLog; ++b) {
    const bool bit = ((k >> b) & 1u) != 0;
    T old[kE];
    BANKCHECK_CF_UNROLL
    for (int x = 0; x < kE; ++x) old[x] = a[x];
    BANKCHECK_CF_UNROLL
    for (int x = 0; x < kE; ++x) a[x] = bit ? old[(x + (1 << b)) % kE] : old[x];
  }
}

}  // namespace cf_detail

/// Sorts a thread's E gathered items (cf_gather_rounds' round order, round j
/// in register j) ascending by `less`, values (if any) moving with their keys.
/// @pre k = a_i mod E of the gather; from register k on (cyclically) the
///      valid items are A_i ascending then B_i descending; with kFlags an
///      invalid item (valid[j] false: a partial tile's missing round) sits
///      between them and compares larger than every key.
/// @post keys ascending, invalid items last. Not stable: equal keys of A_i and
///       B_i may change order (cub::DeviceMergeSort::SortKeys is not
///       guaranteed stable either).
template <int kE, bool kFlags, class Key, class Value, class Less>
BANKCHECK_HD void cf_merge_gathered(Key (&keys)[kE], Value (&vals)[kE], bool (&valid)[kE], unsigned k, Less less) {
  constexpr bool kRotate = (kE & (kE - 1)) != 0;
  if constexpr (kRotate) {
    cf_detail::rotate_left(keys, k);
    if constexpr (!std::is_same_v<Value, CfNoValue>) cf_detail::rotate_left(vals, k);
    if constexpr (kFlags) cf_detail::rotate_left(valid, k);
  }
  cf_detail::apply_plan<kE, kFlags>(keys, vals, valid, less,
                                    std::make_index_sequence<static_cast<std::size_t>(cf_merge_plan<kE>().count)>{});
  if constexpr (kRotate) {
    cf_detail::permute_out(keys, std::make_index_sequence<kE>{});
    if constexpr (!std::is_same_v<Value, CfNoValue>) cf_detail::permute_out(vals, std::make_index_sequence<kE>{});
    if constexpr (kFlags) cf_detail::permute_out(valid, std::make_index_sequence<kE>{});
  }
}

}  // namespace bankcheck
