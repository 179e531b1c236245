#pragma once
// One pairwise merge of a thread block as CUB's BlockMergeSort /
// DeviceMergeSort do it (cub/block/block_merge_sort.cuh; SPAA 2025 Sections
// 2-3, /work/shared/papers/spaa2025-eliminating-bank-conflicts-mergesort.txt):
//   phase 0  each thread stores its E items blocked: thread t's items at t*E..t*E+E-1
//            (the tile is A followed by B; keys_shared has u*E + 1 slots as in CUB)
//   phase 1  merge-path binary search at diagonal t*E (MergePath), then
//            SerialMerge: two initial loads, then for each of the first E-1 items one load at a
//            data-dependent address (keys_shared[p ? ++b : ++a]; CUB's
//            `if (p) key2 = ...; else key1 = ...;` is one shared load per item).
// The merged items stay in registers; we copy them to a host array to check.
#include <cstdint>

#include "sim/hd.hpp"
#include "sim/merge_path.hpp"

namespace bankcheck {

template <class Key>
struct PairwiseMerge {
  static constexpr const char* kName = "merge";
  enum Site : int { store_tile, path_a, path_b, init_a, init_b, merge_read };
  static constexpr const char* kSiteNames[] = {"store_tile", "path_a", "path_b", "init_a", "init_b", "merge_read"};
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
    long a = split, b = a_count + (diag - split);
    const long a_end = a_count, b_end = n;
    Key key_a = smem.template load<Key>(init_a, a);
    Key key_b = smem.template load<Key>(init_b, b);
    for (int i = 0; i < E; ++i) {
      const bool p = b < b_end && (a >= a_end || key_b < key_a);
      out[diag + i] = p ? key_b : key_a;
      const long next = p ? ++b : ++a;
      if (i + 1 == E) break;  // the last refill is dead code once CUB's loop is unrolled
      const Key v = smem.template load<Key>(merge_read, next);
      if (p) key_b = v; else key_a = v;
    }
  }
};

}  // namespace bankcheck
