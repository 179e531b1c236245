#pragma once
// A CF-Merge device merge sort with cub::DeviceMergeSort's interface (SortKeys,
// SortPairs: keys in place, optional values, a comparator, a stream, the
// temp-storage query with d_temp_storage == nullptr, any num_items).
//
//   size_t bytes = 0;
//   bankcheck::cf::DeviceMergeSort::SortKeys(nullptr, bytes, d_keys, n, less);     // query
//   bankcheck::cf::DeviceMergeSort::SortKeys(d_temp, bytes, d_keys, n, less);      // sort
//
// It is CUB's merge sort (CUDA 13.0: cub/device/dispatch/dispatch_merge_sort.cuh,
// cub/agent/agent_merge_sort.cuh, cub/block/block_merge_sort.cuh) with one step
// replaced, the one SPAA 2025 changes: where CUB's SerialMerge reads each
// thread's E merge inputs from shared memory at data-dependent addresses (bank
// conflicts up to Theorem 8's count on adversarial inputs), every merge here
// stores A and reversed B circularly shifted and reads them with the dual
// subsequence gather (Algorithm 1, Sections 3.1-3.3), conflict free for every
// input, then merges the E keys in registers. Those steps are sim/algorithms/merge/cf_merge.hpp
// and sim/algorithms/merge/cf_merge_sort.hpp, the same code bankcheck's CPU replay runs.
// Kept from CUB: the block sort and merge kernels with the partial last tile
// in the same launch, their tile ranges and ping-pong buffers, BlockLoad/
// BlockStore (warp transpose), StableOddEvenSort of each thread's E keys in the
// block sort. Not kept: CUB's partition kernel; each merge block finds its own
// two merge-path partitions, one warp each.
// Design, tuning and measurements: docs/cf-merge.md.
//
// Not stable (equal keys may change order), as cub::DeviceMergeSort::SortKeys.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/thread/thread_sort.cuh>
#include <cub/util_type.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/cf_launch.cuh"
#include "kernels/cf_merge_sort_policy.cuh"
#include "kernels/cf_warp_partition.cuh"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/cf_merge_passes.hpp"
#include "sim/algorithms/merge/cf_merge_sort.hpp"
#include "sim/algorithms/shared_array.hpp"

namespace bankcheck::cf {

namespace detail {

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
    Key keys[kTile];
    ValueT vals[kKeysOnly ? 1 : kTile];
    std::int32_t splits[kThreads];
  };
  union TempStorage {
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
  template <class Less>
  __device__ __noinline__ static void block_sort_partial(const Key* keys_in, const Value* vals_in, Key* keys_out,
                                                        Value* vals_out, int valid, Less less) {
    block_sort<true>(keys_in, vals_in, keys_out, vals_out, valid, less);
  }
  template <class Less>
  __device__ __noinline__ static void merge_tile_partial(CfMergeTileRanges g, const Key* keys_in,
                                                        const Value* vals_in, Key* keys_out, Value* vals_out,
                                                        Less less) {
    merge_tile<true>(g, keys_in, vals_in, keys_out, vals_out, less);
  }

  /// CUB's AgentBlockSort::consume_tile with CF-Merge's in-block rounds.
  template <bool kPartial, class Less>
  __device__ static void block_sort(const Key* keys_in, const Value* vals_in, Key* keys_out, Value* vals_out,
                                    int valid, Less less) {
    const int tid = static_cast<int>(threadIdx.x);
    Key keys[kItems];
    Value vals[kItems];
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
    if constexpr (kPartial) {
      // CUB's padding (BlockMergeSortStrategy::Sort): keys past `valid` take
      // the thread's running maximum, so the stable sort leaves them last.
      Key max_key = keys[0];
#pragma unroll
      for (int i = 1; i < kItems; ++i) {
        if (kItems * tid + i < valid)
          max_key = less(max_key, keys[i]) ? keys[i] : max_key;
        else
          keys[i] = max_key;
      }
    }
    if (!kPartial || kItems * tid < valid) {
      if constexpr (kKeysOnly) {
        cub::NullType none[kItems];
        cub::StableOddEvenSort(keys, none, less);
      } else {
        cub::StableOddEvenSort(keys, vals, less);
      }
    }
    const SharedArray keys_s = keys_smem(), vals_s = vals_smem(), splits_s = splits_smem();
    for (int m = 2; m <= kThreads; m *= 2) {
      const auto r = Block::template round<kPartial>(m, tid, valid);
      if (m > 2) __syncthreads();  // the previous round's gather is done with the layout
      Block::template store_blocked<kPartial>(keys_s, vals_s, r.L, r.local * kItems, keys, vals);
      __syncthreads();
      const int split = Block::find_split(keys_s, r.L, r.diag, less);
      Block::publish_split(splits_s, tid, split);
      __syncthreads();
      const int a_next = Block::next_split(splits_s, r.L, r.local, m, tid);
      Block::template gather_merge<kPartial>(keys_s, vals_s, r.L, split, a_next, r.diag, keys, vals, less);
    }
    __syncthreads();  // the layout becomes the store's storage
    store_tile<kPartial>(keys_out, vals_out, keys, vals, valid);
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

/// The tile of block blockIdx.x in a launch over tiles [0, gridDim.x). A
/// partial last tile is in the same launch, as in CUB: a one-block launch of
/// its own after the full tiles exposed that block's whole latency (0.052 ms
/// at 2^24 + 12,345 4-byte keys, docs/cf-merge.md "Sizes that are not a power
/// of two"). It goes to block 0, scheduled first, so that its slower path (a
/// call that may spill, Agent::block_sort_partial) overlaps the full tiles.
__device__ inline std::int64_t tile_of_block(std::int64_t n, int tile) {
  const std::int64_t grid = gridDim.x, block = blockIdx.x;
  if (grid * tile <= n) return block;  // every tile of the launch is full
  return block == 0 ? grid - 1 : block - 1;
}

/// Block sort (CUB's DeviceMergeSortBlockSortKernel): each tile sorted into
/// `ping ? keys : keys_buf` (in place when ping: a block reads its whole tile
/// before it writes).
template <class P, class Key, class Value, class Less>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    block_sort_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, std::int64_t n, Less less) {
  using A = Agent<P, Key, Value>;
  allow_next_grid();
  wait_for_previous_grid();
  const std::int64_t base = tile_of_block(n, P::kTile) * P::kTile;
  Key* keys_out = (ping ? keys : keys_buf) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (ping ? vals : vals_buf) + base;
  const Value* vals_in = A::kKeysOnly ? nullptr : vals + base;
  if (n - base >= P::kTile)
    A::template block_sort<false>(keys + base, vals_in, keys_out, vals_out, P::kTile, less);
  else
    A::block_sort_partial(keys + base, vals_in, keys_out, vals_out, static_cast<int>(n - base), less);
}

/// One global merge pass (CUB's DeviceMergeSortMergeKernel): reads `ping ?
/// keys : keys_buf`, writes the other. (Each block searching its own two
/// partitions instead of a partition kernel made the passes 30% slower at
/// 2^26 keys: docs/cf-merge.md.)
template <class P, class Key, class Value, class Less>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    merge_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, std::int64_t n,
                 const std::int64_t* partitions, std::int64_t target, Less less) {
  using A = Agent<P, Key, Value>;
  allow_next_grid();
  wait_for_previous_grid();
  const std::int64_t tile_idx = tile_of_block(n, P::kTile);
  const CfMergeTileRanges g =
      cf_merge_tile_ranges(tile_idx, n, P::kTile, target, partitions[tile_idx], partitions[tile_idx + 1]);
  const Key* keys_in = ping ? keys : keys_buf;
  const Value* vals_in = ping ? vals : vals_buf;
  const std::int64_t base = tile_idx * P::kTile;
  Key* keys_out = (ping ? keys_buf : keys) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (ping ? vals_buf : vals) + base;
  if (n - base >= P::kTile)
    A::template merge_tile<false>(g, keys_in, vals_in, keys_out, vals_out, less);
  else
    A::merge_tile_partial(g, keys_in, vals_in, keys_out, vals_out, less);
}

inline std::size_t align_up(std::size_t x) { return (x + 255) / 256 * 256; }

/// dispatch's marks(stage, pass) after each launch: nothing, or a profiler's CUDA event on the stream.
struct NoMarks {
  void operator()(const char*, int) const {}
};

/// One pass's partitions with `probes` probes a step (a kernel per count).
template <int kProbes, class Key, class Less>
cudaError_t launch_partitions(bool overlap, cudaStream_t stream, const Key* keys, std::int64_t n,
                              std::int64_t num_tiles, std::int64_t count, std::int64_t* partitions,
                              std::int64_t target, int tile, Less less) {
  constexpr int kWarps = 8;  // partitions per block
  return launch(overlap, partition_kernel<kProbes, Key, Less>, static_cast<unsigned>((count + kWarps - 1) / kWarps),
                32 * kWarps, 0, stream, keys, n, num_tiles, count, partitions, target, tile, less);
}

/// The whole sort (CUB's DispatchMergeSort::Invoke). kLeaveLoneRuns = false copies a pass's trailing
/// lone run as CUB does; kProbes > 0 fixes the partition search's probes (0: partition_probes; 1:
/// binary, as CUB); kOverlap = false
/// launches every kernel after the last has finished, as CUB does (kernels/cf_launch.cuh);
/// cf_sort_table --profile compares them.
template <class P, class Key, class Value, bool kLeaveLoneRuns = true, int kProbes = 0,
          bool kOverlap = true, class Less, class Marks = NoMarks>
cudaError_t dispatch(void* d_temp, std::size_t& temp_bytes, Key* d_keys, Value* d_vals, std::int64_t n, Less less,
                     cudaStream_t stream, Marks&& marks = {}) {
  using A = Agent<P, Key, Value>;
  if (n <= 0) {
    if (d_temp == nullptr) temp_bytes = 0;
    return cudaSuccess;
  }
  const std::int64_t num_tiles = (n + P::kTile - 1) / P::kTile;
  const std::size_t key_bytes = align_up(static_cast<std::size_t>(n) * sizeof(Key));
  const std::size_t val_bytes = A::kKeysOnly ? 0 : align_up(static_cast<std::size_t>(n) * sizeof(Value));
  const std::size_t part_bytes = align_up(static_cast<std::size_t>(num_tiles + 1) * sizeof(std::int64_t));
  const std::size_t needed = part_bytes + key_bytes + val_bytes;
  if (d_temp == nullptr) {
    temp_bytes = needed;
    return cudaSuccess;
  }
  if (temp_bytes < needed) return cudaErrorInvalidValue;
  auto* partitions = static_cast<std::int64_t*>(d_temp);
  Key* keys_buf = reinterpret_cast<Key*>(static_cast<unsigned char*>(d_temp) + part_bytes);
  Value* vals_buf =
      A::kKeysOnly ? nullptr : reinterpret_cast<Value*>(static_cast<unsigned char*>(d_temp) + part_bytes + key_bytes);

  constexpr int smem = static_cast<int>(A::kSharedBytes);
  if constexpr (smem > 48 * 1024) {  // above the default: opt in (cheap when already set)
    for (const void* k : {reinterpret_cast<const void*>(&block_sort_kernel<P, Key, Value, Less>),
                          reinterpret_cast<const void*>(&merge_kernel<P, Key, Value, Less>)}) {
      const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      if (e != cudaSuccess) return e;
    }
  }
  const int passes = cf_merge_pass_count(num_tiles);
  // CUB's ping: the last pass writes d_keys (ping = read d_keys, write the buffer)
  bool ping = passes % 2 == 0;
  // The first kernel waits for the caller's work on the stream as any launch does.
  cudaError_t e = launch(false, block_sort_kernel<P, Key, Value, Less>, static_cast<unsigned>(num_tiles), P::kThreads,
                         smem, stream, ping, d_keys, d_vals, keys_buf, vals_buf, n, less);
  marks("block sort", -1);
  if (e != cudaSuccess) return e;
  for (int pass = 0; pass < passes; ++pass, ping = !ping) {
    const std::int64_t target = std::int64_t{2} << pass;
    // [merged, num_tiles): a trailing run left where it lies (cf_merge_passes.hpp)
    const std::int64_t merged = kLeaveLoneRuns ? cf_merge_pass_tiles(num_tiles, pass) : num_tiles;
    const Key* in = ping ? d_keys : keys_buf;
    const auto partition_pass = [&](auto probes) {
      return launch_partitions<decltype(probes)::value>(kOverlap, stream, in, n, num_tiles, merged + 1, partitions,
                                                        target, P::kTile, less);
    };
    using std::integral_constant;
    if constexpr (kProbes > 0)
      e = partition_pass(integral_constant<int, kProbes>{});
    else
      switch (partition_probes(num_tiles)) {
        case 31: e = partition_pass(integral_constant<int, 31>{}); break;
        case 15: e = partition_pass(integral_constant<int, 15>{}); break;
        case 7: e = partition_pass(integral_constant<int, 7>{}); break;
        default: e = partition_pass(integral_constant<int, 3>{}); break;
      }
    marks("partition", pass);
    if (e != cudaSuccess) return e;
    e = launch(kOverlap, merge_kernel<P, Key, Value, Less>, static_cast<unsigned>(merged), P::kThreads, smem, stream,
               ping, d_keys, d_vals, keys_buf, vals_buf, n, static_cast<const std::int64_t*>(partitions), target, less);
    marks("merge", pass);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace detail

/// The entry points with an explicit policy (the benchmark's candidates).
template <class P>
struct DeviceMergeSortPolicy {
  /// Sorts d_keys[0, num_items) in place by `less`.
  /// @pre d_keys device-accessible; less a strict weak order callable on the
  ///      device as less(Key, Key); d_temp_storage == nullptr (query) or of at
  ///      least temp_storage_bytes bytes from a previous query with the same n.
  /// @post query: temp_storage_bytes set, nothing else done. Sort: d_keys sorted
  ///       ascending (not stable) once the work queued on `stream` completes.
  /// @return the first CUDA error of a launch, or cudaErrorInvalidValue when
  ///         temp_storage_bytes is too small.
  template <class Key, class NumItems, class Less>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys,
                              NumItems num_items, Less less, cudaStream_t stream = 0) {
    static_assert(std::is_integral_v<NumItems>, "num_items must be an integer");
    return detail::dispatch<P, Key, CfNoValue>(d_temp_storage, temp_storage_bytes, d_keys,
                                               static_cast<CfNoValue*>(nullptr),
                                               static_cast<std::int64_t>(num_items), less, stream);
  }

  /// Sorts d_keys[0, num_items) in place by `less`, d_values moved with their keys.
  /// @pre as SortKeys; d_values has num_items values.
  /// @post d_keys sorted ascending (not stable), d_values[i] the value that came with d_keys[i].
  template <class Key, class Value, class NumItems, class Less>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys, Value* d_values,
                               NumItems num_items, Less less, cudaStream_t stream = 0) {
    static_assert(std::is_integral_v<NumItems>, "num_items must be an integer");
    static_assert(!std::is_same_v<Value, CfNoValue>, "SortPairs needs a value type");
    return detail::dispatch<P, Key, Value>(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                           static_cast<std::int64_t>(num_items), less, stream);
  }
};

/// The drop-in entry points (cub::DeviceMergeSort's SortKeys / SortPairs), the
/// default policy of the key type.
struct DeviceMergeSort {
  /// DeviceMergeSortPolicy<DefaultPolicy<Key>>::SortKeys.
  template <class Key, class NumItems, class Less>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys,
                              NumItems num_items, Less less, cudaStream_t stream = 0) {
    return DeviceMergeSortPolicy<typename DefaultPolicy<Key>::type>::SortKeys(d_temp_storage, temp_storage_bytes,
                                                                              d_keys, num_items, less, stream);
  }
  /// DeviceMergeSortPolicy<DefaultPolicy<Key, Value>>::SortPairs.
  template <class Key, class Value, class NumItems, class Less>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys, Value* d_values,
                               NumItems num_items, Less less, cudaStream_t stream = 0) {
    return DeviceMergeSortPolicy<typename DefaultPolicy<Key, Value>::type>::SortPairs(
        d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, less, stream);
  }
};

}  // namespace bankcheck::cf
