#pragma once
// One pairwise merge of a thread block as CUB's BlockMergeSort /
// DeviceMergeSort do it (cub/block/block_merge_sort.cuh; Berney and Sitchinava,
// "Eliminating Bank Conflicts in GPU Mergesort", SPAA 2025, Sections 2-3):
//   phase 0  each thread stores its E items blocked: thread t's items at t*E..t*E+E-1
//            (the tile is A followed by B; keys_shared has u*E + 1 slots as in CUB)
//   phase 1  merge-path binary search at diagonal t*E (MergePath), then
//            SerialMerge: two initial loads, then for each of the first E-1 items one load at a
//            data-dependent address (keys_shared[p ? ++b : ++a]; CUB's
//            `if (p) key2 = ...; else key1 = ...;` is one shared load per item).
// The merged items stay in registers; we copy them to a host array to check.
#include <cstdint>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp
#include "sim/algorithms/merge/merge_path.hpp"

namespace bankcheck {

/// CUB's SerialMerge (cub/block/block_merge_sort.cuh) from shared memory:
/// two initial loads (sites init_a, init_b), then after each of the first
/// items-1 outputs one load at the data-dependent slot `p ? ++b : ++a`
/// (site read); the last refill is dead once CUB's loop is unrolled. Ties
/// are taken from A (stable). kItems > 0 fixes `items` at compile time so the
/// loop unrolls and emit's index is a constant (registers on the GPU).
/// @pre a <= a_end, b <= b_end, (a_end - a) + (b_end - b) >= items, and the
///      slots a and b (even when at their end: CUB's one spare slot) are readable.
/// @post emit(i, key) for i = 0..items-1 in order: the items smallest keys of
///       the stable merge of [a, a_end) and [b, b_end).
template <class Key, int kItems = 0, class Smem, class Emit>
BANKCHECK_HD void serial_merge(const Smem& smem, int init_a, int init_b, int read, int items, long a, long a_end,
                               long b, long b_end, Emit&& emit) {
  const int n = kItems > 0 ? kItems : items;
  Key key_a = smem.template load<Key>(init_a, a);
  Key key_b = smem.template load<Key>(init_b, b);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < n; ++i) {
    const bool p = b < b_end && (a >= a_end || key_b < key_a);
    emit(i, p ? key_b : key_a);
    const long next = p ? ++b : ++a;
    if (i + 1 == n) break;
    const Key v = smem.template load<Key>(read, next);
    if (p) key_b = v; else key_a = v;
  }
}

template <class Key>
struct PairwiseMerge {
  static constexpr const char* kName = "merge";
  enum Site : int { store_tile, path_a, path_b, init_a, init_b, merge_read };
  static constexpr const char* kSiteNames[6] = {"store_tile", "path_a", "path_b", "init_a", "init_b", "merge_read"};
  static constexpr int kPhases = 2;

  int E = 1;                 ///< items per thread
  int threads = 0;           ///< u
  long a_count = 0;          ///< |A|; |B| = u*E - |A|
  const Key* tile = nullptr; ///< host: A (sorted) then B (sorted), u*E keys
  Key* out = nullptr;        ///< host: u*E merged keys, thread t's at t*E..

  BANKCHECK_HD long tile_size() const { return static_cast<long>(threads) * E; }
  BANKCHECK_HD long shared_bytes() const { return (tile_size() + 1) * static_cast<long>(sizeof(Key)); }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const long n = tile_size();
    if (k == 0) {
      for (int i = 0; i < E; ++i) smem.template store<Key>(store_tile, static_cast<long>(tid) * E + i, tile[static_cast<long>(tid) * E + i]);
      return;
    }
    const long b_count = n - a_count;
    const long diag = static_cast<long>(tid) * E;
    const long split = merge_path(
        a_count, b_count, diag, [&](long i) { return smem.template load<Key>(path_a, i); },
        [&](long j) { return smem.template load<Key>(path_b, a_count + j); });
    serial_merge<Key>(smem, init_a, init_b, merge_read, E, split, a_count, a_count + (diag - split), n,
                      [&](int i, Key key) { out[diag + i] = key; });
  }
};

static_assert(BlockAlgorithm<PairwiseMerge<std::int32_t>>);

}  // namespace bankcheck
