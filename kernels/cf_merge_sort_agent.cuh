#pragma once
// The block-level steps of kernels/cf_merge_sort.cuh: CUB's AgentBlockSort /
// AgentMerge with CF-Merge's merges (Agent); the block sort's partial tile is
// padded to a full one where that gives the same output. C++17, as the sort's header.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/thread/thread_sort.cuh>
#include <cub/util_type.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/cf_largest_item.cuh"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/cf_merge_sort.hpp"
#include "sim/algorithms/merge/cf_register_sort.hpp"
#include "sim/algorithms/shared_array.hpp"

namespace bankcheck::cf::detail {

/// One `extern __shared__` array for every kernel of this file (dynamic shared memory).
__device__ __forceinline__ unsigned char* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char cf_merge_sort_smem[];
  return cf_merge_sort_smem;
}

template <class P, class Key, class Value>
struct Agent {
  static constexpr int kThreads = P::kThreads, kItems = P::kItems, kTile = P::kTile;
  using Block = CfSortBlock<Key, Value, kThreads, kItems>;
  static constexpr bool kKeysOnly = Block::kKeysOnly;
  using ValueT = std::conditional_t<kKeysOnly, char, Value>;  ///< a stand-in type for CUB's templates
  using LoadKeys = cub::BlockLoad<Key, kThreads, kItems, P::kLoad>;
  using LoadValues = cub::BlockLoad<ValueT, kThreads, kItems, P::kLoad>;
  using StoreKeys = cub::BlockStore<Key, kThreads, kItems, P::kStore>;
  using StoreValues = cub::BlockStore<ValueT, kThreads, kItems, P::kStore>;

  /// The merge's shared memory: key layout, value layout, the splits (CUB
  /// unions its load/store storage with its keys_shared the same way).
  struct MergeStorage {
    Key keys[Block::kKeySlots];
    ValueT vals[kKeysOnly ? 1 : Block::kValueSlots];
    std::int32_t splits[kThreads];
    std::int64_t bounds[2];  ///< the tile's partitions when the merge kernel searches them itself
  };
  using Item = CfItem<Key, ValueT>;
  template <class Less>
  using Larger = CfLarger<Key, ValueT, Less>;
  static constexpr int kWarps = kThreads / 32;
  using WarpReduce = cub::WarpReduce<Item>;
  /// A value, or for keys only the stand-in (there are no values then).
  __device__ static ValueT value_of(const Value& v) {
    if constexpr (kKeysOnly)
      return ValueT{};
    else
      return v;
  }

  /// pad_with_largest's: each warp's largest item
  struct PadStorage {
    typename WarpReduce::TempStorage reduce[kWarps];
    Item largest[kWarps];
  };

  union TempStorage {
    PadStorage pad;
    typename LoadKeys::TempStorage load_keys;
    typename LoadValues::TempStorage load_values;
    typename StoreKeys::TempStorage store_keys;
    typename StoreValues::TempStorage store_values;
    MergeStorage merge;
  };
  static constexpr std::size_t kSharedBytes = sizeof(TempStorage);
  static_assert(offsetof(MergeStorage, keys) == 0, "the key layout must start the block's shared memory (bank 0)");

  __device__ static TempStorage& storage() { return *reinterpret_cast<TempStorage*>(dynamic_smem()); }
  __device__ static SharedArray keys_smem() { return SharedArray(storage().merge.keys); }
  __device__ static SharedArray vals_smem() { return SharedArray(storage().merge.vals); }
  __device__ static SharedArray splits_smem() { return SharedArray(storage().merge.splits); }

  template <bool kPartial>
  __device__ static void store_tile(Key* keys_out, Value* vals_out, Key (&keys)[kItems], Value (&vals)[kItems],
                                    int valid) {
    if constexpr (kPartial)
      StoreKeys(storage().store_keys).Store(keys_out, keys, valid);
    else
      StoreKeys(storage().store_keys).Store(keys_out, keys);
    if constexpr (!kKeysOnly) {
      __syncthreads();
      if constexpr (kPartial)
        StoreValues(storage().store_values).Store(vals_out, vals, valid);
      else
        StoreValues(storage().store_values).Store(vals_out, vals);
    }
  }

  /// The partial last tile's paths as calls: ptxas allocates their registers
  /// apart (spilling there if it must, in one block), so the partial path's
  /// extra registers cannot make the full tiles' path spill in the same kernel.
  /// Arguments by value: a reference made every thread of every tile store
  /// the ranges to local memory before the branch (the merges were 6% slower).
  template <class Less, bool kNetwork = true>
  __device__ __noinline__ static void block_sort_partial(const Key* keys_in, const Value* vals_in, Key* keys_out,
                                                        Value* vals_out, int valid, Less less) {
    block_sort<true, Less, kNetwork>(keys_in, vals_in, keys_out, vals_out, valid, less);
  }
  template <class Less>
  __device__ __noinline__ static void merge_tile_partial(CfMergeTileRanges g, const Key* keys_in,
                                                        const Value* vals_in, Key* keys_out, Value* vals_out,
                                                        Less less) {
    merge_tile<true>(g, keys_in, vals_in, keys_out, vals_out, less);
  }

  /// The barrier of an in-block round of groups of m threads. A group of at most 32
  /// threads is one warp's, and so are the slots it stores and reads: its keys' logical
  /// slots, their layout partitions (w/d threads each, aligned, w/d dividing 32:
  /// cf_tile_layout.hpp) and its splits. A warp barrier orders such a round; a round of
  /// larger groups needs the block's, its first barrier too (its stores reach slots that
  /// other warps read in the round before).
  __device__ static void round_barrier(int m) {
    if (m <= 32)
      __syncwarp();
    else
      __syncthreads();
  }

  /// The tile's keys (and values) into the thread's registers, blocked: kPartial, the
  /// first `valid` only, the others copies of the tile's first key (value).
  template <bool kPartial>
  __device__ static void load_tile(const Key* keys_in, const Value* vals_in, Key (&keys)[kItems],
                                   Value (&vals)[kItems], int valid) {
    if constexpr (!kKeysOnly) {
      if constexpr (kPartial)
        LoadValues(storage().load_values).Load(vals_in, vals, valid, vals_in[0]);
      else
        LoadValues(storage().load_values).Load(vals_in, vals);
      __syncthreads();
    }
    if constexpr (kPartial)
      LoadKeys(storage().load_keys).Load(keys_in, keys, valid, keys_in[0]);
    else
      LoadKeys(storage().load_keys).Load(keys_in, keys);
    __syncthreads();  // the load's storage becomes the merge layout
  }

  /// The thread's E keys sorted, then the in-block rounds while they merge any of the
  /// first `merged` keys (kPartial: layouts clipped to the tile's `valid` keys; a padded
  /// tile's rounds stop once its real keys are merged, as a partial tile's do).
  /// kNetwork: a thread whose E keys are all real sorts them with the bitonic network
  /// (cf_register_sort.hpp) where E allows, else with CUB's StableOddEvenSort.
  template <bool kPartial, bool kNetwork, class Less>
  __device__ static void sort_tile(Key (&keys)[kItems], Value (&vals)[kItems], int valid, int merged, Less less) {
    const int tid = static_cast<int>(threadIdx.x);
    // A thread whose E keys are all real sorts them with the network (the CF
    // sort is not stable); only the thread that holds a partial tile's end needs
    // the stable sort, to keep CUB's padding after its real keys.
    bool sorted = false;
    if constexpr (kNetwork && cf_register_sort_fits(kItems)) {
      if (!kPartial || kItems * (tid + 1) <= valid) {
        cf_register_sort(keys, vals, less);
        sorted = true;
      }
    }
    if (!sorted && (!kPartial || kItems * tid < valid)) {
      if constexpr (kKeysOnly) {
        cub::NullType none[kItems];
        cub::StableOddEvenSort(keys, none, less);
      } else {
        cub::StableOddEvenSort(keys, vals, less);
      }
    }
    const SharedArray keys_s = keys_smem(), vals_s = vals_smem(), splits_s = splits_smem();
    for (int m = 2; m <= kThreads && Block::round_merges(m, merged); m *= 2) {
      const auto r = Block::template round<kPartial>(m, tid, valid);
      if (m > 2) round_barrier(m);  // the previous round's gather is done with the layout
      Block::template store_blocked<kPartial>(keys_s, vals_s, r.L, r.local * kItems, keys, vals);
      round_barrier(m);
      const int split = Block::find_split(keys_s, r.L, r.diag, less);
      Block::publish_split(splits_s, tid, split);
      round_barrier(m);
      const int a_next = Block::next_split(splits_s, r.L, r.local, m, tid);
      Block::template gather_merge<kPartial>(keys_s, vals_s, r.L, split, a_next, r.diag, keys, vals, less);
    }
  }

  /// CUB's AgentBlockSort::consume_tile with CF-Merge's in-block rounds (kPartial:
  /// CUB's padding of a partial tile).
  template <bool kPartial, class Less, bool kNetwork = true>
  __device__ static void block_sort(const Key* keys_in, const Value* vals_in, Key* keys_out, Value* vals_out,
                                    int valid, Less less) {
    Key keys[kItems];
    Value vals[kItems];
    load_tile<kPartial>(keys_in, vals_in, keys, vals, valid);
    if constexpr (kPartial) {
      // CUB's padding (BlockMergeSortStrategy::Sort): keys past `valid` take
      // the thread's running maximum, so the stable sort leaves them last.
      const int tid = static_cast<int>(threadIdx.x);
      Key max_key = keys[0];
#pragma unroll
      for (int i = 1; i < kItems; ++i) {
        if (kItems * tid + i < valid)
          max_key = less(max_key, keys[i]) ? keys[i] : max_key;
        else
          keys[i] = max_key;
      }
    }
    sort_tile<kPartial, kNetwork>(keys, vals, valid, valid, less);
    __syncthreads();  // the layout becomes the store's storage
    store_tile<kPartial>(keys_out, vals_out, keys, vals, valid);
  }

  /// The thread's keys past the tile's first `valid` made copies of the tile's largest real
  /// item, where no real item is equivalent to it without being a copy of it
  /// (kernels/cf_largest_item.cuh); returns whether it did (the same in every thread; none
  /// changed where not). Every slot holds a real item when this runs (load_tile<true> fills
  /// those past `valid` with copies of the tile's first), so no slot is left out of either
  /// step. Each warp's largest item goes to shared memory; every thread reduces them in
  /// the same order, so all pad with the same item. The or-barrier that ends the test also
  /// orders every thread's reads of the warps' items before any thread writes shared memory
  /// again: the rounds' stores, or the partial path's load (compute-sanitizer racecheck
  /// found such a race when a read came after the test's barrier).
  template <class Less>
  __device__ static bool pad_with_largest(Key (&keys)[kItems], Value (&vals)[kItems], int valid, Less less) {
    const Larger<Less> larger{less};
    const int warp = static_cast<int>(threadIdx.x) / 32;
    Item mine{keys[0], value_of(vals[0])};
#pragma unroll
    for (int i = 1; i < kItems; ++i) mine = larger(mine, Item{keys[i], value_of(vals[i])});
    mine = WarpReduce(storage().pad.reduce[warp]).Reduce(mine, larger);  // lane 0's is the warp's
    if (threadIdx.x % 32 == 0) storage().pad.largest[warp] = mine;
    __syncthreads();
    Item m = storage().pad.largest[0];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) m = larger(m, storage().pad.largest[w]);
    bool breaks = false;
#pragma unroll
    for (int i = 0; i < kItems; ++i) breaks = breaks | cf_breaks_copy(keys[i], value_of(vals[i]), m, less);
    if (__syncthreads_or(breaks)) return false;
    const int first = kItems * static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (first + i >= valid) {
        keys[i] = m.key;
        if constexpr (!kKeysOnly) vals[i] = m.val;
      }
    return true;
  }

  /// A partial tile sorted as a full one where that gives its sorted keys, else nothing
  /// done (false: the caller takes the partial path). The keys past `valid` become
  /// copies of one real item (M, V) with the largest key M: the full tile's code (its
  /// layouts whole, every thread's keys sorted by the network) then leaves the real items
  /// first, but for keys equivalent to M, which the sort may interleave with the copies.
  /// So the tile is padded only where every real item equivalent to M is a bit-for-bit
  /// copy of (M, V) -- a copy in its place is the same output (the usual case: a unique
  /// largest key, or equal keys-only keys) -- which a reduction and an or-barrier of the
  /// loaded items tell (pad_with_largest). A partial path costs 1.5 to 2.4 times the cycles of a full tile
  /// (Nsight Compute on the H100, docs/cf-merge.md item 23). Its own call, as the
  /// partial path's: inline, the full tiles' code around it was slower for pairs
  /// (4-byte pairs at 2^20 keys 1.24 of CUB's speed against 1.41 without padding), and
  /// the tighter cap's kernel spilled.
  template <class Less, bool kNetwork = true>
  __device__ __noinline__ static bool block_sort_padded(const Key* keys_in, const Value* vals_in, Key* keys_out,
                                                       Value* vals_out, int valid, Less less) {
    if constexpr (!std::is_trivially_copyable_v<Key> || !std::is_trivially_copyable_v<ValueT>) {
      return false;
    } else {
      Key keys[kItems];
      Value vals[kItems];
      load_tile<true>(keys_in, vals_in, keys, vals, valid);
      if (!pad_with_largest(keys, vals, valid, less)) return false;
      sort_tile<false, kNetwork>(keys, vals, kTile, valid, less);
      __syncthreads();  // the layout becomes the store's storage
      store_tile<true>(keys_out, vals_out, keys, vals, valid);
      return true;
    }
  }

  /// CUB's AgentMerge::consume_tile with the CF-Merge merge.
  template <bool kPartial, class Less>
  __device__ static void merge_tile(const CfMergeTileRanges& g, const Key* keys_in, const Value* vals_in,
                                    Key* keys_out, Value* vals_out, Less less) {
    const int tid = static_cast<int>(threadIdx.x);
    const auto L = Block::template pass_layout<kPartial>(g.a_count, g.b_count);
    const SharedArray keys_s = keys_smem(), vals_s = vals_smem(), splits_s = splits_smem();
    const Value* a_vals = kKeysOnly ? nullptr : vals_in + g.a_begin;
    const Value* b_vals = kKeysOnly ? nullptr : vals_in + g.b_begin;
    Block::template stage_striped<kPartial>(keys_s, vals_s, L, tid, keys_in + g.a_begin, keys_in + g.b_begin, a_vals,
                                            b_vals);
    __syncthreads();
    const int diag = kPartial ? (tid * kItems < L.count ? tid * kItems : L.count) : tid * kItems;
    const int split = Block::find_split(keys_s, L, diag, less);
    Block::publish_split(splits_s, tid, split);
    __syncthreads();
    const int a_next = Block::next_split(splits_s, L, tid, kThreads, tid);
    Key keys[kItems];
    Value vals[kItems];
    Block::template gather_merge<kPartial>(keys_s, vals_s, L, split, a_next, diag, keys, vals, less);
    __syncthreads();  // the layout becomes the store's storage
    store_tile<kPartial>(keys_out, vals_out, keys, vals, L.count);
  }
};

}  // namespace bankcheck::cf::detail
