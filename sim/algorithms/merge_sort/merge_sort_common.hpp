#pragma once
// What the two kernels of the single-source merge sort
// (sim/algorithms/merge_sort/merge_sort.hpp) share: the site ids, the
// shared-memory plan, and each thread's steps of one merge in either variant
// (Berney and Sitchinava, "Eliminating Bank Conflicts in GPU Mergesort",
// SPAA 2025):
//   baseline  CUB: merge path per thread over A | B, SerialMerge from shared
//             memory (sim/algorithms/merge/pairwise_merge.hpp's serial_merge);
//   cf        CF-Merge (Algorithm 1, Section 3.3): each merge group's A and
//             reversed B (π) stored circularly shifted (ρ, gcd(w, E) > 1) in
//             the block's slots, merge path through that layout, the dual
//             subsequence gather (sim/algorithms/merge/cf_merge.hpp) into
//             registers and an odd-even transposition sort of the E gathered
//             keys (Section 5).
//
// Keys survive a barrier only in shared memory (a thread's registers do not
// outlive a phase), so every merge reads one buffer and writes the other
// (two buffers of T+1 keys, T = u*E; CUB uses one buffer and a barrier
// between its merge and the next store). The cf variant also keeps each
// thread's split in a small shared array (u+1 ints) for its neighbour: the
// gather needs |A_i| = a_{i+1} - a_i. Both variants use the same footprint.
//
// E is a template parameter so the per-thread key arrays stay in registers
// on the GPU; w (warp size = banks) and u are parameters.
#include <cstdint>

#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/merge_path.hpp"
#include "sim/algorithms/merge/pairwise_merge.hpp"

#if defined(__CUDA_ARCH__)
#define BANKCHECK_MERGE_SORT_UNROLL _Pragma("unroll")
#else
#define BANKCHECK_MERGE_SORT_UNROLL
#endif

namespace bankcheck {

enum class MergeSortVariant : int { baseline, cf };

/// Site ids shared by both kernels (a kernel uses a subset).
struct MergeSortSites {
  enum Site : int {
    stage,         ///< global -> shared (tile: warp-striped; pass: block-striped, CF: into the layout)
    load_blocked,  ///< tile: thread t reads its E keys t*E.. (BlockLoad's transpose)
    sorted_store,  ///< tile: the E register-sorted keys into the first round's layout
    path_a,        ///< merge-path probe of A
    path_b,        ///< merge-path probe of B
    init_a,        ///< baseline: SerialMerge's first A key
    init_b,        ///< baseline: SerialMerge's first B key
    merge_read,    ///< baseline: SerialMerge's data-dependent refill
    split_store,   ///< cf: thread's split a_i (int) for its neighbour
    split_load,    ///< cf: a_i and a_{i+1}
    gather,        ///< cf: the dual subsequence gather
    merged_store,  ///< the E merged keys into the next round's layout (or blocked)
    out_read,      ///< warp-striped read of the sorted tile for the global store
  };
  static constexpr const char* kSiteNames[13] = {"stage",       "load_blocked", "sorted_store", "path_a", "path_b",
                                               "init_a",      "init_b",       "merge_read",   "split_store",
                                               "split_load",  "gather",       "merged_store", "out_read"};
};

/// CUB's StableOddEvenSort (cub/block/block_merge_sort.cuh): E rounds of
/// compare-exchanges on fixed register pairs (data oblivious, stable).
template <int E, class Key>
BANKCHECK_HD void odd_even_transposition_sort(Key (&keys)[E]) {
  BANKCHECK_MERGE_SORT_UNROLL
  for (int r = 0; r < E; ++r) {
    BANKCHECK_MERGE_SORT_UNROLL
    for (int j = r & 1; j + 1 < E; j += 2)
      if (keys[j + 1] < keys[j]) {
        const Key t = keys[j];
        keys[j] = keys[j + 1];
        keys[j + 1] = t;
      }
  }
}

/// Shared memory of one block: buffers 0 and 1 (T+1 keys each, rounded up
/// to 128 bytes so both start on bank 0), then u+1 int splits.
struct MergeSortSmemPlan {
  long tile = 0;   ///< T = u*E
  int threads = 0;
  long key_bytes = 4;
  BANKCHECK_HD long buffer_bytes() const { return ((tile + 1) * key_bytes + 127) / 128 * 128; }
  BANKCHECK_HD long splits_offset() const { return 2 * buffer_bytes(); }
  BANKCHECK_HD long total_bytes() const { return splits_offset() + (threads + 1) * 4L; }
};

/// What both kernels share: the variant, shape, and per-thread merge steps.
template <class Key, int E>
struct MergeSortCommon : MergeSortSites {
  MergeSortVariant variant = MergeSortVariant::baseline;
  int w = 32;        ///< warp size = banks
  int threads = 0;   ///< u
  int gcd_wE = 0;    ///< d = gcd(w, E), set by set_shape (the CF layout's ρ needs it on every access)

  /// Set w and u (and d).
  BANKCHECK_HD void set_shape(int warp, int block_threads) {
    w = warp;
    threads = block_threads;
    int a = warp, b = E;
    while (b != 0) {
      const int t = a % b;
      a = b;
      b = t;
    }
    gcd_wE = a;
  }

  /// Blocked accesses (thread t's E keys at t*E..) of E*sizeof(Key) bytes a
  /// multiple of 16 go as 16-byte accesses: nvcc merges them so (E = 16,
  /// 4-byte keys: H100 run of 2026-11-22), and the trace must be what runs.
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Key));
  static constexpr bool kVectorBlocked = sizeof(Key) <= 16 && 16 % sizeof(Key) == 0 && E % kVec == 0;
  struct alignas(16) KeyVec {
    Key k[kVec];
  };
  template <class Smem>
  BANKCHECK_HD void store_blocked(const Smem& dst, int site, long first, const Key (&keys)[E]) const {
    if constexpr (kVectorBlocked) {
      BANKCHECK_MERGE_SORT_UNROLL
      for (int g = 0; g < E / kVec; ++g) {
        KeyVec v;
        BANKCHECK_MERGE_SORT_UNROLL
        for (int x = 0; x < kVec; ++x) v.k[x] = keys[g * kVec + x];
        dst.template store<KeyVec>(site, first / kVec + g, v);
      }
    } else {
      BANKCHECK_MERGE_SORT_UNROLL
      for (int i = 0; i < E; ++i) dst.template store<Key>(site, first + i, keys[i]);
    }
  }
  template <class Smem>
  BANKCHECK_HD void load_blocked_keys(const Smem& src, int site, long first, Key (&keys)[E]) const {
    if constexpr (kVectorBlocked) {
      BANKCHECK_MERGE_SORT_UNROLL
      for (int g = 0; g < E / kVec; ++g) {
        const KeyVec v = src.template load<KeyVec>(site, first / kVec + g);
        BANKCHECK_MERGE_SORT_UNROLL
        for (int x = 0; x < kVec; ++x) keys[g * kVec + x] = v.k[x];
      }
    } else {
      BANKCHECK_MERGE_SORT_UNROLL
      for (int i = 0; i < E; ++i) keys[i] = src.template load<Key>(site, first + i);
    }
  }

  BANKCHECK_HD long tile() const { return static_cast<long>(threads) * E; }
  BANKCHECK_HD MergeSortSmemPlan plan() const { return {tile(), threads, static_cast<long>(sizeof(Key))}; }
  BANKCHECK_HD long shared_bytes() const { return plan().total_bytes(); }
  template <class Smem>
  BANKCHECK_HD Smem buffer(Smem& smem, int which) const {
    return smem.at(static_cast<std::size_t>(which * plan().buffer_bytes()));
  }
  template <class Smem>
  BANKCHECK_HD Smem splits(Smem& smem) const {
    return smem.at(static_cast<std::size_t>(plan().splits_offset()));
  }

  /// CF layout of a merge group of m threads at block slot gbase with |A| = a_count.
  BANKCHECK_HD CfLayout layout(int m, long gbase, long a_count) const {
    CfLayout L;
    L.d = gcd_wE;
    L.w = w;
    L.E = E;
    L.threads = m;
    L.a_count = a_count;
    L.offset = gbase;
    L.block_slots = tile();
    return L;
  }

  /// Store thread tid's E keys (merged positions tid*E.. of the block) where
  /// the next merge, of groups of m threads, expects them: blocked for the
  /// baseline and after the last round (m > u); for cf, ρ(A ∪ π(B)) of the
  /// thread's group (first half A, second half B).
  template <class Smem>
  BANKCHECK_HD void store_for_merge(const Smem& dst, int site, int m, int tid, const Key (&keys)[E]) const {
    const long first = static_cast<long>(tid) * E;
    if (variant == MergeSortVariant::baseline || m > threads) {
      store_blocked(dst, site, first, keys);
      return;
    }
    const long gbase = static_cast<long>(tid / m) * m * E, half = static_cast<long>(m) * E / 2;
    const CfLayout L = layout(m, gbase, half);
    const long q0 = first - gbase;
    BANKCHECK_MERGE_SORT_UNROLL
    for (int i = 0; i < E; ++i) {
      const long q = q0 + i;
      dst.template store<Key>(site, L.rho(q < half ? q : L.b_slot(q - half)), keys[i]);
    }
  }

  /// Baseline merge of thread tid: merge path at diagonal `diag` of the
  /// group [gbase, gbase + a_count) | [gbase + a_count, gbase + len), SerialMerge.
  template <class Smem>
  BANKCHECK_HD void serial_merge_thread(const Smem& src, long gbase, long a_count, long len, long diag,
                                        Key (&keys)[E]) const {
    const long split = merge_path(
        a_count, len - a_count, diag, [&](long i) { return src.template load<Key>(path_a, gbase + i); },
        [&](long j) { return src.template load<Key>(path_b, gbase + a_count + j); });
    serial_merge<Key, E>(src, init_a, init_b, merge_read, E, gbase + split, gbase + a_count,
                         gbase + a_count + diag - split, gbase + len, [&](int i, Key k) { keys[i] = k; });
  }

  /// CF step 1: thread tid's split (merge path through the group's layout) into splits[tid].
  template <class Smem>
  BANKCHECK_HD void cf_split(const Smem& src, const Smem& split_array, const CfLayout& L, long diag, int tid) const {
    const long split = merge_path(
        L.a_count, L.size() - L.a_count, diag, [&](long i) { return src.template load<Key>(path_a, L.rho(i)); },
        [&](long j) { return src.template load<Key>(path_b, L.rho(L.b_slot(j))); });
    split_array.template store<std::int32_t>(split_store, tid, static_cast<std::int32_t>(split));
  }

  /// CF step 2: the gather of thread tid (local index `local` in its group of
  /// L.threads) and the in-register sort: keys = merged positions diag.. of the group.
  template <class Smem>
  BANKCHECK_HD void cf_gather_sort(const Smem& src, const Smem& split_array, const CfLayout& L, int local, int tid,
                                   Key (&keys)[E]) const {
    const long a_i = split_array.template load<std::int32_t>(split_load, tid);
    const long a_next =
        local + 1 == L.threads ? L.a_count : split_array.template load<std::int32_t>(split_load, tid + 1);
    const long diag = static_cast<long>(local) * E;
    cf_gather_slots<E>(L, a_i, a_next - a_i, diag - a_i,
                       [&](long j, long slot) { keys[j] = src.template load<Key>(gather, slot); });
    odd_even_transposition_sort(keys);
  }

  /// The sorted tile (blocked in `src`) to global memory, warp-striped.
  template <class Smem>
  BANKCHECK_HD void write_out(const Smem& src, int tid, Key* out) const {
    const int lane = tid % w;
    const long base = static_cast<long>(tid - lane) * E;
    BANKCHECK_MERGE_SORT_UNROLL
    for (int i = 0; i < E; ++i) {
      const long p = base + static_cast<long>(i) * w + lane;
      out[p] = src.template load<Key>(out_read, p);
    }
  }
};

}  // namespace bankcheck
