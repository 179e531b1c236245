#pragma once
// CF-Merge's load-balanced dual subsequence gather, SPAA 2025 Algorithm 1
// (Berney and Sitchinava, "Eliminating Bank Conflicts in GPU Mergesort"):
//   shmem = ρ(A ∪ π(B))          B reversed (π, Section 3.1); partitions of
//                                 wE/d slots circularly shifted by ℓ mod d (ρ,
//                                 Sections 3.2-3.3), d = gcd(w, E)
//   k = a_i mod E; for j < E:     round j reads the (j-k mod E)-th element of A_i
//                                 if that is < |A_i|, else the (k-j-1 mod E)-th of B_i
// and the inverse scatter (footnote 5): the same addresses written back.
// Thread-block layout (Section 3.3): A and reversed B fill u*E slots; ρ works
// on the block's slots, partition ℓ = slot / (wE/d), ℓ in 0..ud/w - 1.
//
// Mutations for the claims checker: reverse_b = false stores B in order
// (π = identity); circular_shift = false drops ρ.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp
#include "sim/algorithms/merge/merge_path.hpp"

#if defined(__CUDA_ARCH__)
#define BANKCHECK_CF_UNROLL _Pragma("unroll")
#else
#define BANKCHECK_CF_UNROLL
#endif

namespace bankcheck {

/// Where logical slot p of A ∪ π(B) lives in shared memory, and π.
struct CfLayout {
  int w = 32, E = 1, threads = 0;
  long a_count = 0;
  bool reverse_b = true;       ///< π: B stored reversed (the paper)
  bool circular_shift = true;  ///< ρ: shift partition ℓ by ℓ mod d (the paper)
  /// Block slot of this layout's slot 0 and the block's slot count (0: size()).
  /// A merge group smaller than the block (the in-block rounds of
  /// sim/algorithms/merge_sort/merge_sort.hpp) is one layout at its group's offset; ρ's partitions
  /// always count from the block's slot 0, so partition ℓ of a warp's wE slots
  /// gets its own shift ℓ mod d whatever the group size (Section 3.3).
  long offset = 0;
  long block_slots = 0;
  /// gcd(w, E) if already known (0: computed on each use). A kernel sets it
  /// once per thread: Euclid's 64-bit remainders on every ρ made the GPU
  /// gather several times slower than the merge it replaces.
  int d = 0;

  BANKCHECK_HD long size() const { return static_cast<long>(threads) * E; }
  BANKCHECK_HD long gcd_wE() const {
    if (d > 0) return d;
    long a = w, b = E;
    while (b != 0) { const long t = a % b; a = b; b = t; }
    return a;
  }
  /// Logical slot of B[y] in A ∪ π(B).
  BANKCHECK_HD long b_slot(long y) const { return reverse_b ? size() - 1 - y : a_count + y; }
  /// ρ: physical (block) slot of logical slot p.
  BANKCHECK_HD long rho(long p) const {
    const long q = offset + p;
    if (!circular_shift) return q;
    const long g = gcd_wE();
    if (g == 1) return q;
    const long part = static_cast<long>(w) * E / g;
    const long total = block_slots > 0 ? block_slots : offset + size();
    if (total <= 0x7fffffffL) {  // 32-bit division: a few instructions on the GPU, not a 64-bit routine
      const int qi = static_cast<int>(q), pi = static_cast<int>(part), l = qi / pi, base = l * pi;
      if (base + pi > total) return q;
      return base + (qi - base + l % static_cast<int>(g)) % pi;
    }
    const long l = q / part;
    const long base = l * part;
    if (base + part > total) return q;  // a partial last partition (u not a multiple of w) is not shifted
    return base + (q - base + l % g) % part;
  }
};

/// gcd(a, b) at compile time (d = gcd(w, E) of Section 3.2).
BANKCHECK_HD constexpr int cf_gcd(int a, int b) {
  while (b != 0) {
    const int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// The CF layout with w and E fixed at compile time: what a kernel uses. The
/// same ρ(A ∪ π(B)) as CfLayout (Sections 3.1-3.3), in 32-bit block slots, so
/// ρ's divisions are by constants (shifts and masks when wE/d is a power of
/// two) instead of the runtime division CfLayout needs.
/// `kW` counts banks in keys: 32 for 4-byte keys, 16 for 8-byte keys (the H100
/// serves 8-byte requests by half-warps of 16 lanes over 16 8-byte bank pairs,
/// docs/bank-model.md, so a half-warp is the "warp" of the paper's proof).
/// A group (a merge of |A| + |B| = count keys) is one layout at block slot
/// `offset`; ρ's partitions count from the block's slot 0 (Section 3.3) and
/// only those wholly below `total` (the block's slots in use, the same for
/// every group of a block) are shifted, so ρ permutes [0, total) whatever the
/// group sizes: the groups of a block never overlap.
/// kWhole: every partition of the block is whole (a full tile of u*E slots,
/// w | u), so `total` is not consulted: in a full tile ρ is then two shifts,
/// an add and a mask when wE/d is a power of two (E = 8, 16 with w = 16, 32).
template <int kW, int kE, bool kWhole = false>
struct CfTileLayout {
  static_assert(kW >= 1 && kE >= 1, "w and E must be positive");
  static constexpr int kD = cf_gcd(kW, kE);
  static constexpr int kPart = kW / kD * kE;  ///< wE/d slots per partition
  /// π is the reversal (b_slot is affine with slope -1): cf_gather_rounds folds it.
  static constexpr bool kBReversed = true;
  int offset = 0;   ///< block slot of logical slot 0
  int count = 0;    ///< |A| + |B|
  int a_count = 0;  ///< |A|
  int total = 0;    ///< block slots in use (a multiple of wE/d for whole tiles)

  /// π: logical slot of B[y] (B reversed after A).
  BANKCHECK_HD int b_slot(int y) const { return count - 1 - y; }
  /// Logical slot of the p-th key of A then B (p < |A|: A[p], else B[p - |A|]).
  BANKCHECK_HD int input_slot(int p) const { return p < a_count ? p : b_slot(p - a_count); }
  /// ρ: block slot of logical slot p, 0 <= p < count.
  BANKCHECK_HD int rho(int p) const {
    const unsigned q = static_cast<unsigned>(offset + p);
    if constexpr (kD == 1) {
      return static_cast<int>(q);
    } else {
      constexpr unsigned part = static_cast<unsigned>(kPart);
      const unsigned l = q / part, base = l * part;
      if constexpr (!kWhole)
        if (base + part > static_cast<unsigned>(total)) return static_cast<int>(q);  // partial last partition
      const unsigned shifted = q + l % static_cast<unsigned>(kD);
      if constexpr ((kPart & (kPart - 1)) == 0) {
        // base + (q - base + shift) mod part, with part a power of two: a bit select (one LOP3)
        return static_cast<int>((q & ~(part - 1)) | (shifted & (part - 1)));
      } else {
        const unsigned r = shifted - base;  // < 2 part
        return static_cast<int>(r >= part ? shifted - part : shifted);
      }
    }
  }
};

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
    if constexpr (requires { Layout::kBReversed; })  // b_slot(b_i + E-1-t) = b_slot(b_i + E-1) + t
      logical = (from_a ? a_i : static_cast<I>(L.b_slot(b_i + (E - 1)))) + t;
    else
      logical = from_a ? a_i + t : L.b_slot(b_i + (E - 1 - t));
    bool valid = true;
    if constexpr (kPartial) valid = from_a || E - 1 - t < b_len;
    fn(j, logical, valid);
  }
}

/// The gather of one thread: the E physical slots it reads, in round order.
/// kE > 0 fixes E at compile time (= L.E) so the rounds unroll and a register
/// array indexed by the round stays in registers on the GPU.
/// @pre 0 <= a_i, a_len, a_i + a_len <= |A|, b_i = i*E - a_i, a_len + b_len = E.
template <int kE = 0, class SlotFn>
BANKCHECK_HD void cf_gather_slots(const CfLayout& L, long a_i, long a_len, long b_i, SlotFn slot_for_round) {
  const long E = kE > 0 ? kE : L.E;
  cf_gather_rounds<kE, false>(L, a_i, a_len, b_i, E - a_len,
                              [&](long j, long logical, bool) { slot_for_round(j, L.rho(logical)); });
}

// ---------------------------------------------------------------------------
// Merging the gathered items in registers.
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
/// invalid item (kFlags) is larger than every key.
template <int kLo, int kHi, bool kFlags, int N, class Key, class Value, class Less>
BANKCHECK_HD void compare_exchange(Key (&keys)[N], Value (&vals)[N], bool (&valid)[N], Less& less) {
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

/// One block of CF-Merge's gather (and optional scatter).
/// phase 0: store the tile as ρ(A ∪ π(B)) (thread t stores logical slots t, t+u, ...)
/// phase 1: thread t's split a_t (from `splits` when given, else merge path
///          through the layout) into split_buf[t]
/// phase 2: the gather into registers, copied to `out` in round order
/// phase 3 (scatter = true): the inverse scatter writes the items back to the same slots.
template <class Key>
struct CfMerge {
  static constexpr const char* kName = "cf-merge";
  enum Site : int { store_tile, path_a, path_b, gather, scatter_store };
  static constexpr const char* kSiteNames[] = {"store_tile", "path_a", "path_b", "gather", "scatter"};

  CfLayout layout;
  bool scatter = false;
  const Key* tile = nullptr;     ///< host: A (sorted) then B (sorted)
  const long* splits = nullptr;  ///< host, optional: a_t for threads 0..u-1; else merge path
  long* split_buf = nullptr;     ///< host, u+1 entries: the splits used (split_buf[u] = |A|)
  Key* out = nullptr;            ///< host: thread t's E gathered items at t*E.. in round order

  BANKCHECK_HD int phases() const { return scatter ? 4 : 3; }
  BANKCHECK_HD long shared_bytes() const { return layout.size() * static_cast<long>(sizeof(Key)); }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const CfLayout& L = layout;
    const long n = L.size();
    if (k == 0) {
      for (long p = tid; p < n; p += L.threads) {
        // logical slot p holds A[p] or, for p >= |A|, the B element whose slot is p
        const Key v = p < L.a_count ? tile[p] : tile[L.a_count + (L.reverse_b ? n - 1 - p : p - L.a_count)];
        smem.template store<Key>(store_tile, L.rho(p), v);
      }
      return;
    }
    if (k == 1) {
      split_buf[tid] = splits ? splits[tid]
                              : merge_path(
                                    L.a_count, n - L.a_count, static_cast<long>(tid) * L.E,
                                    [&](long i) { return smem.template load<Key>(path_a, L.rho(i)); },
                                    [&](long j) { return smem.template load<Key>(path_b, L.rho(L.b_slot(j))); });
      if (tid == 0) split_buf[L.threads] = L.a_count;
      return;
    }
    const long a_i = split_buf[tid];
    const long a_len = split_buf[tid + 1] - a_i;
    const long b_i = static_cast<long>(tid) * L.E - a_i;
    const long first = static_cast<long>(tid) * L.E;
    if (k == 2)
      cf_gather_slots(L, a_i, a_len, b_i,
                      [&](long j, long slot) { out[first + j] = smem.template load<Key>(gather, slot); });
    else
      cf_gather_slots(L, a_i, a_len, b_i,
                      [&](long j, long slot) { smem.template store<Key>(scatter_store, slot, out[first + j]); });
  }

  BANKCHECK_HD int threads() const { return layout.threads; }
};

static_assert(BlockAlgorithm<CfMerge<std::int32_t>>);

}  // namespace bankcheck
