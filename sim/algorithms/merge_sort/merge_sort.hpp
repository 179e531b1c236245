#pragma once
// Full pairwise merge sort, single source (Berney and Sitchinava, "Eliminating
// Bank Conflicts in GPU Mergesort", SPAA 2025, Sections 2, 3.3 and 5), in
// the two kernels of CUB's DeviceMergeSort (cub/agent/agent_merge_sort.cuh):
//
//   MergeSortTile  one block sorts a tile of u*E keys: load (global, warp-
//                  striped, through shared memory to E blocked keys per thread),
//                  odd-even transposition sort of the E keys in registers, then
//                  log2(u) in-block merge rounds of groups of m = 2, 4, ..., u
//                  threads, then the sorted tile back to global memory
//                  (blocked store to shared memory, warp-striped read: CUB's
//                  BLOCK_STORE_WARP_TRANSPOSE).
//   MergeSortPass  one global pass merging pairs of sorted runs of `run` keys:
//                  block b writes merged positions [bT, bT + T) of its pair; its
//                  A and B ranges (merge_pass_partition, CUB's partition kernel)
//                  are staged into shared memory block-striped, each thread
//                  merges E keys, and the tile goes out as above.
//
// Both come in the baseline (CUB SerialMerge) and cf (CF-Merge) variants of
// sim/algorithms/merge_sort/merge_sort_common.hpp, which also holds the
// per-thread merge steps they share.
// @pre u a power of two and a multiple of w (so warps and rho partitions are
//      whole), 1 <= E; a pass needs n a multiple of 2*run and run a multiple of T.
#include "model/hd.hpp"
#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/merge/merge_path.hpp"
#include "sim/algorithms/merge_sort/merge_sort_common.hpp"

namespace bankcheck {

/// One block sorts its tile of u*E keys (CUB's block-sort kernel).
/// @post out[0..T) = the tile's keys sorted (stable).
template <class Key, int E>
struct MergeSortTile : MergeSortCommon<Key, E> {
  using Base = MergeSortCommon<Key, E>;
  using Site = MergeSortSites::Site;
  static constexpr const char* kName = "merge-sort-tile";
  const Key* in = nullptr;  ///< this block's T input keys
  Key* out = nullptr;       ///< this block's T output keys

  BANKCHECK_HD int rounds() const {
    int r = 0;
    while ((1 << r) < this->threads) ++r;
    return r;
  }
  BANKCHECK_HD int round_phases() const { return this->variant == MergeSortVariant::cf ? 2 : 1; }
  BANKCHECK_HD int phases() const { return 3 + rounds() * round_phases(); }
  /// The phase that runs merge round r (groups of 2^(r+1) threads); cf: its gather phase.
  BANKCHECK_HD int merge_phase(int r) const { return 2 + r * round_phases() + round_phases() - 1; }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const int R = rounds();
    if (k == 0) {  // BlockLoad, warp-striped global reads staged in buffer 0
      const Smem buf = this->buffer(smem, 0);
      const int lane = tid % this->w;
      const long base = static_cast<long>(tid - lane) * E;
      BANKCHECK_MERGE_SORT_UNROLL
      for (int i = 0; i < E; ++i) {
        const long p = base + static_cast<long>(i) * this->w + lane;
        buf.template store<Key>(Site::stage, p, in[p]);
      }
      return;
    }
    if (k == 1) {  // blocked keys, sorted in registers, into the first round's layout
      const Smem src = this->buffer(smem, 0);
      Key keys[E];
      this->load_blocked_keys(src, Site::load_blocked, static_cast<long>(tid) * E, keys);
      odd_even_transposition_sort(keys);
      this->store_for_merge(this->buffer(smem, 1), Site::sorted_store, 2, tid, keys);
      return;
    }
    if (k == phases() - 1) {
      this->write_out(this->buffer(smem, (R + 1) % 2), tid, out);
      return;
    }
    const int r = (k - 2) / round_phases(), step = (k - 2) % round_phases();
    const int m = 2 << r;
    const Smem src = this->buffer(smem, (r + 1) % 2), dst = this->buffer(smem, r % 2);
    const int local = tid % m;
    const long gbase = static_cast<long>(tid - local) * E, half = static_cast<long>(m) * E / 2;
    const long diag = static_cast<long>(local) * E;
    Key keys[E];
    if (this->variant == MergeSortVariant::baseline) {
      this->serial_merge_thread(src, gbase, half, 2 * half, diag, keys);
    } else {
      const CfLayout L = this->layout(m, gbase, half);
      const Smem split_array = this->splits(smem);
      if (step == 0) {
        this->cf_split(src, split_array, L, diag, tid);
        return;
      }
      this->cf_gather_sort(src, split_array, L, local, tid, keys);
    }
    this->store_for_merge(dst, Site::merged_store, 2 * m, tid, keys);
  }
};

/// CUB's partition kernel: the A-count of the merged prefix before block
/// `block`'s first output in its pair of runs.
/// @pre in holds sorted runs of `run` keys; run a multiple of tile.
template <class Key>
BANKCHECK_HD long merge_pass_partition(const Key* in, long run, long tile, long block) {
  const long start = block * tile;
  const long pair_base = start / (2 * run) * (2 * run);
  return merge_path(
      run, run, start - pair_base, [&](long i) { return in[pair_base + i]; },
      [&](long j) { return in[pair_base + run + j]; });
}

/// One block of a global merge pass (CUB's merge kernel).
/// @pre partitions[b] = merge_pass_partition(in, run, T, b) for this block and the next.
/// @post out[bT..bT+T) = merged positions [bT - pair_base, ...) of the block's pair.
template <class Key, int E>
struct MergeSortPass : MergeSortCommon<Key, E> {
  using Site = MergeSortSites::Site;
  static constexpr const char* kName = "merge-sort-pass";
  long run = 0;                   ///< keys per sorted input run (a multiple of T)
  long block = 0;                 ///< this block's index
  const Key* in = nullptr;        ///< the whole input array
  Key* out = nullptr;             ///< the whole output array
  const long* partitions = nullptr;

  BANKCHECK_HD int phases() const { return this->variant == MergeSortVariant::cf ? 4 : 3; }

  struct Ranges {
    long a_begin, b_begin;  ///< absolute input positions of the block's first A and B keys
    long a_count;           ///< |A| of the block (|B| = T - |A|)
  };
  BANKCHECK_HD Ranges ranges() const {
    const long T = this->tile(), start = block * T;
    const long pair_base = start / (2 * run) * (2 * run), diag = start - pair_base;
    const long a0 = partitions[block];
    const long a1 = diag + T == 2 * run ? run : partitions[block + 1];
    return {pair_base + a0, pair_base + run + (diag - a0), a1 - a0};
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const long T = this->tile();
    const Ranges g = ranges();
    const bool cf = this->variant == MergeSortVariant::cf;
    const CfLayout L = this->layout(this->threads, 0, g.a_count);
    if (k == 0) {  // gmem_to_reg + reg_to_shared, block-striped; cf stores into ρ(A ∪ π(B))
      const Smem buf = this->buffer(smem, 0);
      BANKCHECK_MERGE_SORT_UNROLL
      for (int i = 0; i < E; ++i) {
        const long p = static_cast<long>(i) * this->threads + tid;
        const bool from_a = p < g.a_count;
        const Key v = from_a ? in[g.a_begin + p] : in[g.b_begin + (p - g.a_count)];
        const long slot = !cf ? p : L.rho(from_a ? p : L.b_slot(p - g.a_count));
        buf.template store<Key>(Site::stage, slot, v);
      }
      return;
    }
    if (k == phases() - 1) {
      this->write_out(this->buffer(smem, 1), tid, out + block * T);
      return;
    }
    const Smem src = this->buffer(smem, 0), dst = this->buffer(smem, 1);
    const long diag = static_cast<long>(tid) * E;
    Key keys[E];
    if (!cf) {
      this->serial_merge_thread(src, 0, g.a_count, T, diag, keys);
    } else {
      const Smem split_array = this->splits(smem);
      if (k == 1) {
        this->cf_split(src, split_array, L, diag, tid);
        return;
      }
      this->cf_gather_sort(src, split_array, L, tid, tid, keys);
    }
    this->store_for_merge(dst, Site::merged_store, 2 * this->threads, tid, keys);
  }
};

static_assert(BlockAlgorithm<MergeSortTile<std::int32_t, 17>>);
static_assert(BlockAlgorithm<MergeSortPass<std::int64_t, 15>>);

}  // namespace bankcheck
