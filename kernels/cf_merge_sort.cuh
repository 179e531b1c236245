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
// Kept from CUB: the three kernels (block sort, merge-path partition, merge),
// their tile ranges and ping-pong buffers, BlockLoad/BlockStore (warp
// transpose), StableOddEvenSort of each thread's E keys in the block sort.
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

#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/cf_merge_passes.hpp"
#include "sim/algorithms/merge/cf_merge_sort.hpp"
#include "sim/algorithms/shared_array.hpp"

namespace bankcheck::cf {

/// Tuning of the sort (CUB's AgentMergeSortPolicy plus a register bound).
/// @tparam kThreads u, threads per block: a power of two, a multiple of 32
/// @tparam kItems E, keys per thread
/// @tparam kMinBlocks __launch_bounds__' minimum resident blocks per SM (register cap)
template <int kThreads_, int kItems_, cub::BlockLoadAlgorithm kLoad_ = cub::BLOCK_LOAD_WARP_TRANSPOSE,
          cub::BlockStoreAlgorithm kStore_ = cub::BLOCK_STORE_WARP_TRANSPOSE, int kMinBlocks_ = 1>
struct Policy {
  static constexpr int kThreads = kThreads_;
  static constexpr int kItems = kItems_;
  static constexpr int kTile = kThreads_ * kItems_;
  static constexpr cub::BlockLoadAlgorithm kLoad = kLoad_;
  static constexpr cub::BlockStoreAlgorithm kStore = kStore_;
  static constexpr int kMinBlocks = kMinBlocks_;
};

/// The default policy per key and value size (docs/cf-merge.md, "Tuning"), chosen
/// by the H100 tune run of 2026-11-23 (kernels/cf_sort_bench_tune.cuh) and measured
/// at full size in the second run: 128 bytes of keys per thread for keys only (E =
/// 32 for 4-byte keys, 16 for 8-byte keys), E = 16 for pairs, u = 256 (that run's
/// tune also favours E = 32 for 4-byte pairs, not yet timed at full size). Larger
/// tiles amortize the per-tile work (merge-path search, barriers, the block-level
/// rounds) over more items; the gather stays conflict free at every E (gcd(w, E)
/// > 1 takes the circular-shift layout, Section 3.2). The register bound (minimum
/// blocks per SM) is 4 up to 32 words of keys and values per thread and 2 above,
/// the largest at which ptxas reports no spill in the full-tile kernels.
template <class Key, class Value = CfNoValue>
struct DefaultPolicy {
  static constexpr bool kPairs = !std::is_same_v<Value, CfNoValue>;
  static constexpr int kKeyBytes = static_cast<int>(sizeof(Key));
  static constexpr int kValueBytes = kPairs ? static_cast<int>(sizeof(Value)) : 0;
  static constexpr int kItems = kPairs ? 16 : (kKeyBytes >= 4 ? 128 / kKeyBytes : 32);
  /// keys (and values) of E items in registers: 32 words for 4-byte keys at E = 32
  static constexpr int kWords = kItems * (kKeyBytes + kValueBytes) / 4;
  static constexpr int kMinBlocks = kWords <= 32 ? 4 : 2;
  using type = Policy<256, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE, kMinBlocks>;
};

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

/// Block sort (CUB's DeviceMergeSortBlockSortKernel): tile first_tile +
/// blockIdx.x sorted into `ping ? keys : keys_buf` (in place when ping: a block
/// reads its whole tile before it writes). kPartial: the one last tile of
/// n - base < u*E keys. CUB runs both cases in one kernel; here the partial
/// tile is its own launch, so that its extra registers (the gather's validity
/// flags) do not lower the occupancy of every full tile; it has no register
/// bound (one block: spilling would only slow it down).
template <class P, bool kPartial, class Key, class Value, class Less>
__global__ void __launch_bounds__(P::kThreads, kPartial ? 1 : P::kMinBlocks)
    block_sort_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, std::int64_t n,
                      std::int64_t first_tile, Less less) {
  using A = Agent<P, Key, Value>;
  const std::int64_t base = (first_tile + blockIdx.x) * P::kTile;
  Key* keys_out = (ping ? keys : keys_buf) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (ping ? vals : vals_buf) + base;
  const Value* vals_in = A::kKeysOnly ? nullptr : vals + base;
  A::template block_sort<kPartial>(keys + base, vals_in, keys_out, vals_out,
                                   kPartial ? static_cast<int>(n - base) : P::kTile, less);
}

/// Merge-path partitions of a pass (CUB's DeviceMergeSortPartitionKernel).
template <class Key, class Less>
__global__ void partition_kernel(bool ping, const Key* keys, const Key* keys_buf, std::int64_t n,
                                 std::int64_t num_tiles, std::int64_t* partitions, std::int64_t target, int tile,
                                 Less less) {
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx > num_tiles) return;
  partitions[idx] = cf_merge_partition(ping ? keys : keys_buf, n, idx, num_tiles, target, tile, less);
}

/// One global merge pass (CUB's DeviceMergeSortMergeKernel) over tiles
/// first_tile + blockIdx.x: reads `ping ? keys : keys_buf`, writes the other.
/// kPartial: the last tile, of fewer than u*E outputs (its own launch, as above).
template <class P, bool kPartial, class Key, class Value, class Less>
__global__ void __launch_bounds__(P::kThreads, kPartial ? 1 : P::kMinBlocks)
    merge_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, std::int64_t n,
                 const std::int64_t* partitions, std::int64_t target, std::int64_t first_tile, Less less) {
  using A = Agent<P, Key, Value>;
  const std::int64_t tile_idx = first_tile + blockIdx.x;
  const CfMergeTileRanges g = cf_merge_tile_ranges(tile_idx, n, P::kTile, target, partitions);
  const Key* keys_in = ping ? keys : keys_buf;
  const Value* vals_in = ping ? vals : vals_buf;
  const std::int64_t base = tile_idx * P::kTile;
  Key* keys_out = (ping ? keys_buf : keys) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (ping ? vals_buf : vals) + base;
  A::template merge_tile<kPartial>(g, keys_in, vals_in, keys_out, vals_out, less);
}

inline std::size_t align_up(std::size_t x) { return (x + 255) / 256 * 256; }

/// dispatch's marks(stage, pass) after each launch: nothing, or a profiler's CUDA event on the stream.
struct NoMarks {
  void operator()(const char*, int) const {}
};

/// The whole sort (CUB's DispatchMergeSort::Invoke). kLeaveLoneRuns = false copies a pass's trailing
/// lone run as CUB does (validate/cf_merge/sort_table.cu --profile compares the two).
template <class P, class Key, class Value, bool kLeaveLoneRuns = true, class Less, class Marks = NoMarks>
cudaError_t dispatch(void* d_temp, std::size_t& temp_bytes, Key* d_keys, Value* d_vals, std::int64_t n, Less less,
                     cudaStream_t stream, Marks&& marks = {}) {
  using A = Agent<P, Key, Value>;
  if (n <= 0) {
    if (d_temp == nullptr) temp_bytes = 0;
    return cudaSuccess;
  }
  const std::int64_t num_tiles = (n + P::kTile - 1) / P::kTile;
  const std::size_t part_bytes = align_up(static_cast<std::size_t>(num_tiles + 1) * sizeof(std::int64_t));
  const std::size_t key_bytes = align_up(static_cast<std::size_t>(n) * sizeof(Key));
  const std::size_t val_bytes = A::kKeysOnly ? 0 : align_up(static_cast<std::size_t>(n) * sizeof(Value));
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
    for (const void* k : {reinterpret_cast<const void*>(&block_sort_kernel<P, false, Key, Value, Less>),
                          reinterpret_cast<const void*>(&block_sort_kernel<P, true, Key, Value, Less>),
                          reinterpret_cast<const void*>(&merge_kernel<P, false, Key, Value, Less>),
                          reinterpret_cast<const void*>(&merge_kernel<P, true, Key, Value, Less>)}) {
      const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      if (e != cudaSuccess) return e;
    }
  }
  const int passes = cf_merge_pass_count(num_tiles);
  // CUB's ping: the last pass writes d_keys (ping = read d_keys, write the buffer)
  bool ping = passes % 2 == 0;
  // Full tiles in one launch, a partial last tile (n not a multiple of u*E) in a second one.
  const bool partial = n % P::kTile != 0;
  const std::int64_t full_tiles = partial ? num_tiles - 1 : num_tiles;
  if (full_tiles > 0)
    block_sort_kernel<P, false, Key, Value, Less><<<static_cast<unsigned>(full_tiles), P::kThreads, smem, stream>>>(
        ping, d_keys, d_vals, keys_buf, vals_buf, n, 0, less);
  marks("block sort", -1);
  if (partial)
    block_sort_kernel<P, true, Key, Value, Less>
        <<<1, P::kThreads, smem, stream>>>(ping, d_keys, d_vals, keys_buf, vals_buf, n, full_tiles, less);
  if (partial) marks("block sort, partial tile", -1);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess) return e;
  for (int pass = 0; pass < passes; ++pass, ping = !ping) {
    const std::int64_t target = std::int64_t{2} << pass;
    // [merged, num_tiles): a trailing run left where it lies (cf_merge_passes.hpp), with the partial tile if any
    const std::int64_t merged = kLeaveLoneRuns ? cf_merge_pass_tiles(num_tiles, pass) : num_tiles;
    const bool merge_partial = partial && merged == num_tiles;
    const unsigned grid = static_cast<unsigned>(merged == num_tiles ? full_tiles : merged);
    partition_kernel<Key, Less><<<static_cast<unsigned>((merged + 1 + 255) / 256), 256, 0, stream>>>(
        ping, d_keys, keys_buf, n, num_tiles, partitions, target, P::kTile, less);
    marks("partition", pass);
    if (grid > 0)
      merge_kernel<P, false, Key, Value, Less><<<grid, P::kThreads, smem, stream>>>(
          ping, d_keys, d_vals, keys_buf, vals_buf, n, partitions, target, 0, less);
    marks("merge", pass);
    if (merge_partial)
      merge_kernel<P, true, Key, Value, Less><<<1, P::kThreads, smem, stream>>>(
          ping, d_keys, d_vals, keys_buf, vals_buf, n, partitions, target, full_tiles, less);
    if (merge_partial) marks("merge, partial tile", pass);
    e = cudaPeekAtLastError();
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
