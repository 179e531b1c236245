#pragma once
// CF-Merge's load-balanced dual subsequence gather, SPAA 2025 Algorithm 1
// (Berney and Sitchinava, "Eliminating Bank Conflicts in GPU Mergesort"):
// the rounds of one thread, for any layout (CfLayout, CfTileLayout).
#include <type_traits>

#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_unroll.hpp"

namespace bankcheck {

/// Whether a layout declares π the reversal (has CfTileLayout's kBReversed).
/// A C++17 detection, not a requires-expression: kernels/cf_merge_sort.cuh
/// compiles as C++17 too.
template <class Layout, class = void>
struct cf_b_reversed : std::false_type {};
template <class Layout>
struct cf_b_reversed<Layout, std::void_t<decltype(Layout::kBReversed)>> : std::true_type {};

/// Algorithm 1's rounds for one thread: `fn(j, logical, valid)` for j = 0..E-1,
/// logical = the slot of A ∪ π(B) round j reads (ρ(logical) is where it lies:
/// the caller applies ρ, so that keys and values of another width can each
/// have their own ρ over the same logical slots). With k = a_i mod E and
/// t = (j - k) mod E, round j reads A_i[t] if t < |A_i|, else
/// B_i[(k - j - 1) mod E] = B_i[E - 1 - t]; so from round k on (cyclically)
/// the rounds read A_i ascending, then B_i descending.
/// kE > 0 fixes E at compile time (= L.E): the rounds unroll, j is a constant
/// and a register array indexed by it stays in registers.
/// kPartial: a thread at the end of a partial tile has |A_i| + |B_i| < E;
/// rounds with t in [|A_i|, E - |B_i|) have nothing to read (valid = false, and
/// `logical` is then no slot to access). Without kPartial every round is
/// valid and |B_i| is E - |A_i|. The logical slots a warp reads in a round do
/// not depend on w; only ρ does (Sections 3.1-3.2).
/// @pre 0 <= a_i, a_len, b_i, b_len; a_len + b_len <= E (== E unless kPartial);
///      A_i = A[a_i, a_i + a_len), B_i = B[b_i, b_i + b_len) in L's layout.
template <int kE = 0, bool kPartial = false, class Layout, class I, class Fn>
BANKCHECK_HD void cf_gather_rounds(const Layout& L, I a_i, I a_len, I b_i, I b_len, Fn&& fn) {
  I E;
  if constexpr (kE > 0)
    E = static_cast<I>(kE);
  else
    E = static_cast<I>(L.E);
  I k;
  if constexpr (kE > 0)  // a_i >= 0: an unsigned remainder by a constant is a multiply (a mask for powers of two)
    k = static_cast<I>(static_cast<std::make_unsigned_t<I>>(a_i) % static_cast<unsigned>(kE));
  else
    k = a_i % E;
  // Algorithm 1's B index (k - j - 1) mod E equals E - 1 - t; with π the reversal (CfTileLayout) both
  // branches below are t plus a per-thread base (a_i, or |A|+|B| - b_i - E), written so for the compiler.
  BANKCHECK_CF_UNROLL
  for (I j = 0; j < E; ++j) {
    // (j - k) mod E for 0 <= j, k < E without division
    I t;
    if constexpr (kE > 0 && (kE & (kE - 1)) == 0)
      t = (j - k) & (kE - 1);
    else
      t = j >= k ? j - k : j - k + E;
    // The branch only picks the slot; the access (a shared load or store in
    // fn) is issued once per round. Calling it from both branches made nvcc
    // emit two ld.shared per round, and a warp whose lanes take both branches
    // issued both (H100 run of 2026-11-22, results README).
    const bool from_a = t < a_len;
    I logical;
    if constexpr (cf_b_reversed<Layout>::value)  // b_slot(b_i + E-1-t) = b_slot(b_i + E-1) + t
      logical = (from_a ? a_i : static_cast<I>(L.b_slot(b_i + (E - 1)))) + t;
    else
      logical = from_a ? a_i + t : L.b_slot(b_i + (E - 1 - t));
    bool valid = true;
    if constexpr (kPartial) valid = from_a || E - 1 - t < b_len;
    fn(j, logical, valid);
  }
}

}  // namespace bankcheck
