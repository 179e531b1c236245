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
#include "model/hd.hpp"  // C++17: kernels/cf_merge_sort.cuh includes this header
#include "sim/algorithms/merge/cf_gather_rounds.hpp"
#include "sim/algorithms/merge/cf_register_merge.hpp"
#include "sim/algorithms/merge/cf_tile_layout.hpp"
#include "sim/algorithms/merge/merge_path.hpp"
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

// The same layout, rounds and register merge in the form a kernel needs (w
// and E known at compile time, 32-bit slots: sim/algorithms/merge/
// cf_merge_sort.hpp and kernels/cf_merge_sort.cuh use them) are in their own
// headers, included above:
//   cf_tile_layout.hpp     CfTileLayout<w, E>: ρ(A ∪ π(B)) with constant divisions
//   cf_gather_rounds.hpp   cf_gather_rounds: Algorithm 1's rounds for any layout
//                          (cf_gather_slots above applies CfLayout's ρ to them)
//   cf_register_merge.hpp  cf_merge_gathered: a thread's E items sorted in
//                          registers (SPAA 2025 Section 5)
// CfMerge below stays on the lines that the H100 line tables of
// validate/results/h100-2026-11-22/per-instruction/ name (docs/algorithms.md):
// an edit that moves its code lines needs new measurements.

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
  static constexpr const char* kSiteNames[5] = {"store_tile", "path_a", "path_b", "gather", "scatter"};

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

}  // namespace bankcheck
