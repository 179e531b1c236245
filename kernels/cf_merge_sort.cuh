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
// BlockStore (warp transpose), StableOddEvenSort of each thread's E keys in a
// partial tile. Changed: a full tile's thread sorts its keys with a bitonic
// network; partitions searched by a warp each, by the merge blocks themselves
// where a pass's tiles are all resident; launches overlapped (programmatic
// dependent launch) except where a pass's blocks fill more than half and at
// most three quarters of the resident places (cf_overlapped_launch); runs
// merged by the balanced plan (cf_pass_plan.hpp: where the tile count is not a
// power of two, the first pass merges only the tiles it must, and no later
// pass has a run without a partner); two tiles a block sorted where the tiles
// take more than one wave; a small sort (at most 3 tiles an SM, or at most 12
// where its block sort takes two of its tiles a block) run with half the
// threads a block, so half the tile, and one more block an SM where that lets
// the next pass's blocks fit beside the running one's (cf_tighter_register_cap);
// a tiny sort (at most one tile an SM of a quarter of the keys a thread) with
// a quarter of the tile (cf_tiny_sort), but for keys only the small sort where
// the tiny sort's tiles would be 2 to 8 (cf_small_sort_for_few_tiles); the
// block sort's partial tile sorted by
// the full tiles' code, padded with copies of its largest item, where no real
// item is equivalent to that one without being a copy of it
// (Agent::block_sort_padded); groups of at most 32 threads in the block sort's
// rounds ordered by a warp barrier.
// Design, tuning and measurements: docs/cf-merge.md.
//
// Not stable (equal keys may change order), as cub::DeviceMergeSort::SortKeys.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/cf_launch.cuh"
#include "kernels/cf_merge_sort_kernels.cuh"
#include "kernels/cf_merge_sort_policy.cuh"
#include "kernels/cf_warp_partition.cuh"
#include "sim/algorithms/merge/cf_merge_passes.hpp"
#include "sim/algorithms/merge/cf_pass_plan.hpp"

namespace bankcheck::cf {

namespace detail {

inline std::size_t align_up(std::size_t x) { return (x + 255) / 256 * 256; }

/// Where the merge kernels' partitions come from (dispatch's kFuse).
enum class Fuse { by_occupancy, never, always };
/// Whether the block sort sorts pairs of tiles, pass 0 done in the block (dispatch's kWide).
enum class Wide { by_tiles, never, always };
/// Which runs the merge passes merge (dispatch's kPlan, cf_pass_plan.hpp): the balanced plan where
/// cf_balanced_plan says so, CUB's plan, or the balanced plan at every size.
enum class Plan { by_waves, cub, balanced };
/// Whether a merge pass's launches may overlap the kernel before them (dispatch's kOverlap,
/// kernels/cf_launch.cuh): where cf_overlapped_launch says so, always, or never (as CUB).
enum class Overlap { by_occupancy, always, never };

/// The block sort of pairs of tiles: twice the threads, the same keys a thread,
/// half the resident blocks (the same registers a thread).
template <class P>
using WidePolicy = Policy<2 * P::kThreads, P::kItems, P::kLoad, P::kStore, (P::kMinBlocks > 1 ? P::kMinBlocks / 2 : 1)>;
/// Whether a block of WidePolicy<P> can run: at most 1024 threads, and P's
/// register cap leaves room for two of its blocks (a wide block takes both).
template <class P>
inline constexpr bool kWideFits = 2 * P::kThreads <= 1024 && P::kMinBlocks >= 2;

/// dispatch's marks(stage, pass) after each launch: nothing, or a profiler's CUDA event on the stream.
struct NoMarks {
  void operator()(const char*, int) const {}
};

/// Level `level`'s partitions (cf_warp_partition.cuh) with kProbes probes a step, or with
/// kProbes = 0 partition_probes(num_tiles) (a kernel per count).
template <int kProbes, class Key, class Less>
cudaError_t launch_partitions(bool overlap, cudaStream_t stream, const Key* keys, const CfPassPlan& plan, int level,
                              std::int64_t* partitions, Less less) {
  if constexpr (kProbes == 0) {
    switch (partition_probes(plan.num_tiles)) {
      case 31: return launch_partitions<31>(overlap, stream, keys, plan, level, partitions, less);
      case 15: return launch_partitions<15>(overlap, stream, keys, plan, level, partitions, less);
      case 7: return launch_partitions<7>(overlap, stream, keys, plan, level, partitions, less);
      default: return launch_partitions<3>(overlap, stream, keys, plan, level, partitions, less);
    }
  } else {
    constexpr int kWarps = 8;  // partitions per block
    const std::int64_t count = plan.num_tiles - plan.first_tile(level) + 1;
    return launch(overlap, partition_kernel<kProbes, Key, Less>, static_cast<unsigned>((count + kWarps - 1) / kWarps),
                  32 * kWarps, 0, stream, keys, plan, level, partitions, less);
  }
}

/// One block-sort launch over tiles of Q's size (one tile a block, or two with WidePolicy<P>).
/// The first `singles` tiles of Q's size go to the buffer that merge level 1 reads (cf_pass_plan.hpp).
template <class Q, class Key, class Value, class Less, bool kNetwork>
cudaError_t launch_block_sort(cudaStream_t stream, bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf,
                              std::int64_t n, std::int64_t singles, Less less) {
  const auto blocks = static_cast<unsigned>((n + Q::kTile - 1) / Q::kTile);
  return launch(false, block_sort_kernel<Q, Key, Value, Less, kNetwork>, blocks, Q::kThreads,
                static_cast<int>(Agent<Q, Key, Value>::kSharedBytes), stream, ping, keys, vals, keys_buf, vals_buf, n,
                singles, less);
}

/// Whether the dispatch's block sort sorts pairs of tiles (`wide`): kWide, where
/// Wide::by_tiles asks cf_wide_block_sort; never where a wide block cannot run
/// (kWideFits: it is not compiled then) or its shared memory exceeds the device's
/// opt-in limit. A wide block sort's kernel is let take its shared memory.
template <class P, class Key, class Value, class Less, bool kNetwork, Wide kWide>
cudaError_t choose_wide_block_sort([[maybe_unused]] std::int64_t n, [[maybe_unused]] int passes, bool& wide) {
  wide = false;
  if constexpr (kWideFits<P> && kWide != Wide::never) {
    using PW = WidePolicy<P>;
    constexpr int smem = static_cast<int>(Agent<PW, Key, Value>::kSharedBytes);
    const auto kernel = block_sort_kernel<PW, Key, Value, Less, kNetwork>;
    if (passes == 0) return cudaSuccess;
    int optin = 0, resident = 0;
    cudaError_t e = optin_shared_bytes(optin);
    if (e != cudaSuccess || smem > optin) return e;
    e = opt_in_smem(kernel, smem);
    if (e == cudaSuccess && kWide == Wide::by_tiles) e = resident_blocks<PW>(kernel, PW::kThreads, smem, resident);
    if (e != cudaSuccess) return e;
    wide = kWide == Wide::always || cf_wide_block_sort((n + PW::kTile - 1) / PW::kTile, resident);
  }
  return cudaSuccess;
}

/// The merge kernel's resident blocks under policy Q (SMs x occupancy, looked up once a device).
template <class Q, class Key, class Value, class Less>
cudaError_t merge_resident(int& resident) {
  constexpr int smem = static_cast<int>(Agent<Q, Key, Value>::kSharedBytes);
  return resident_blocks<Q>(merge_kernel<Q, Key, Value, Less>, Q::kThreads, smem, resident);
}

/// Where dispatch's merge passes read and write: the caller's arrays, the temporary buffers of the
/// same size (CUB's ping-pong) and the partitions.
template <class Key, class Value>
struct MergeBuffers {
  Key* keys;
  Value* vals;
  Key* keys_buf;
  Value* vals_buf;
  std::int64_t* partitions;
};

/// dispatch's passes after the block sort: per level, the partition search (unless the merge kernel
/// searches its own, kFuse) and the merge, ping-ponging between the caller's arrays and the buffers.
template <class P, int kProbes, Fuse kFuse, Overlap kOverlap, class Key, class Value, class Less, class Marks>
cudaError_t merge_passes(const CfPassPlan& plan, std::int64_t num_tiles, bool wide, int resident, bool ping,
                         const MergeBuffers<Key, Value>& b, Less less, cudaStream_t stream, Marks& marks) {
  constexpr int smem = static_cast<int>(Agent<P, Key, Value>::kSharedBytes);
  for (int level = 0; level < plan.levels; ++level, ping = !ping) {
    const int pass = level + (wide ? 1 : 0);
    const std::int64_t merged = num_tiles - plan.first_tile(level);
    const bool fused =
        kFuse == Fuse::always || (kFuse == Fuse::by_occupancy && cf_merge_fused_partitions(merged, resident));
    const bool overlap =
        kOverlap == Overlap::always || (kOverlap == Overlap::by_occupancy && cf_overlapped_launch(merged, resident));
    cudaError_t e = cudaSuccess;
    if (!fused) {
      e = launch_partitions<kProbes>(overlap, stream, ping ? b.keys : b.keys_buf, plan, level, b.partitions, less);
      marks("partition", pass);
      if (e != cudaSuccess) return e;
    }
    e = launch(overlap, merge_kernel<P, Key, Value, Less>, static_cast<unsigned>(merged), P::kThreads, smem, stream,
               ping, b.keys, b.vals, b.keys_buf, b.vals_buf, plan, level,
               static_cast<const std::int64_t*>(fused ? nullptr : b.partitions), less);
    marks("merge", pass);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/// The whole sort (CUB's DispatchMergeSort::Invoke). The other forms, which cf_sort_table --profile
/// compares with it: kPlan says which runs the passes merge (Plan::by_waves: the balanced plan
/// where cf_balanced_plan says so, else CUB's; cf_pass_plan.hpp); kProbes > 0 fixes the partition search's probes (0:
/// partition_probes; 1: binary, as CUB); kFuse says where the merge kernels search their own
/// partitions (Fuse::by_occupancy: where cf_merge_fused_partitions says so); kOverlap says where a
/// pass's launches may overlap the kernel before them (Overlap::by_occupancy: where
/// cf_overlapped_launch says so; Overlap::never launches every kernel after the last has finished,
/// as CUB does; kernels/cf_launch.cuh);
/// kNetwork = false sorts each thread's keys in the block sort with CUB's StableOddEvenSort;
/// kWide says where the block sort sorts pairs of tiles (Wide::by_tiles: where cf_wide_block_sort
/// says so), so that the passes start at pass 1.
template <class P, class Key, class Value, Plan kPlan = Plan::by_waves, int kProbes = 0,
          Fuse kFuse = Fuse::by_occupancy, Overlap kOverlap = Overlap::by_occupancy, bool kNetwork = true,
          Wide kWide = Wide::by_tiles,
          class Less, class Marks = NoMarks>
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
  const int passes = cf_merge_pass_count(num_tiles);
  bool wide = false;
  cudaError_t e = choose_wide_block_sort<P, Key, Value, Less, kNetwork, kWide>(n, passes, wide);
  if (e == cudaSuccess) e = opt_in_smem(merge_kernel<P, Key, Value, Less>, smem);
  if (e == cudaSuccess && !wide) e = opt_in_smem(block_sort_kernel<P, Key, Value, Less, kNetwork>, smem);
  if (e != cudaSuccess) return e;
  int resident = 0;  // merge blocks the GPU holds at once (the plan and fusing the partitions follow it)
  if (kFuse == Fuse::by_occupancy || kPlan == Plan::by_waves || kOverlap == Overlap::by_occupancy) {
    e = merge_resident<P, Key, Value, Less>(resident);
    if (e != cudaSuccess) return e;
  }
  const bool balanced = kPlan == Plan::balanced || (kPlan == Plan::by_waves && cf_balanced_plan(num_tiles, resident));
  const CfPassPlan plan = CfPassPlan::make(n, P::kTile, wide ? 1 : 0, balanced);
  // CUB's ping: the last level writes d_keys (ping = read d_keys, write the buffer). The block sort
  // writes where level 0 reads, the plan's singles where level 1 reads.
  bool ping = plan.levels % 2 == 0;
  // The first kernel waits for the caller's work on the stream as any launch does.
  if constexpr (kWideFits<P>)
    if (wide)
      e = launch_block_sort<WidePolicy<P>, Key, Value, Less, kNetwork>(stream, ping, d_keys, d_vals, keys_buf,
                                                                      vals_buf, n, plan.singles, less);
  if (!wide)
    e = launch_block_sort<P, Key, Value, Less, kNetwork>(stream, ping, d_keys, d_vals, keys_buf, vals_buf, n,
                                                         plan.singles, less);
  marks("block sort", -1);
  if (e != cudaSuccess) return e;
  const MergeBuffers<Key, Value> buffers{d_keys, d_vals, keys_buf, vals_buf, partitions};
  return merge_passes<P, kProbes, kFuse, kOverlap>(plan, num_tiles, wide, resident, ping, buffers, less, stream, marks);
}

/// The drop-in sort: SmallSortPolicy<P>'s dispatch where cf_small_sort_for_few_tiles says so (keys
/// only, 2 to 8 tiny tiles), TinySortPolicy<P>'s where cf_tiny_sort says so (its tiles at most
/// one an SM), else P's or SmallSortPolicy<P>'s where cf_small_sort says so (P's tiles at most 3
/// an SM, or at most 12 where the small sort's block sort takes pairs of its tiles), with one more
/// resident block an SM where cf_tighter_register_cap says so. The query returns the largest of
/// the needs.
template <class P, class Key, class Value, class Less>
cudaError_t dispatch_by_size(void* d_temp, std::size_t& temp_bytes, Key* d_keys, Value* d_vals, std::int64_t n,
                             Less less, cudaStream_t stream) {
  using T = TinySortPolicy<P>;
  using S = SmallSortPolicy<P>;
  using S1 = TighterPolicy<S>;
  if (d_temp == nullptr) {
    std::size_t need[4] = {};
    cudaError_t e = dispatch<P, Key, Value>(nullptr, need[0], d_keys, d_vals, n, less, stream);
    if (e == cudaSuccess) e = dispatch<S, Key, Value>(nullptr, need[1], d_keys, d_vals, n, less, stream);
    if (e == cudaSuccess) e = dispatch<S1, Key, Value>(nullptr, need[2], d_keys, d_vals, n, less, stream);
    if (e == cudaSuccess) e = dispatch<T, Key, Value>(nullptr, need[3], d_keys, d_vals, n, less, stream);
    temp_bytes = std::max({need[0], need[1], need[2], need[3]});
    return e;
  }
  int sms = 0;
  cudaError_t e = multiprocessors(sms);
  if (e != cudaSuccess) return e;
  constexpr int kValueBytes = Agent<P, Key, Value>::kKeysOnly ? 0 : static_cast<int>(sizeof(Value));
  constexpr int kWords = cf_thread_words(P::kItems, static_cast<int>(sizeof(Key)), kValueBytes);  // of P
  const std::int64_t tiny_tiles = (n + T::kTile - 1) / T::kTile;
  if (cf_small_sort_for_few_tiles(tiny_tiles, kWords))
    return dispatch<S, Key, Value>(d_temp, temp_bytes, d_keys, d_vals, n, less, stream);
  if (cf_tiny_sort(tiny_tiles, sms))
    return dispatch<T, Key, Value>(d_temp, temp_bytes, d_keys, d_vals, n, less, stream);
  const std::int64_t tiles = (n + P::kTile - 1) / P::kTile, small_tiles = (n + S::kTile - 1) / S::kTile;
  bool wide = false;  // whether S's dispatch would sort pairs of its tiles in the block sort
  if (tiles > 3 * sms)
    e = choose_wide_block_sort<S, Key, Value, Less, true, Wide::by_tiles>(n, cf_merge_pass_count(small_tiles), wide);
  if (e != cudaSuccess) return e;
  if (!cf_small_sort(tiles, sms, wide))
    return dispatch<P, Key, Value>(d_temp, temp_bytes, d_keys, d_vals, n, less, stream);
  int resident = 0, tighter = 0;
  e = merge_resident<S, Key, Value, Less>(resident);
  if (e == cudaSuccess) e = merge_resident<S1, Key, Value, Less>(tighter);
  if (e != cudaSuccess) return e;
  if (cf_tighter_register_cap(small_tiles, resident, tighter))
    return dispatch<S1, Key, Value>(d_temp, temp_bytes, d_keys, d_vals, n, less, stream);
  return dispatch<S, Key, Value>(d_temp, temp_bytes, d_keys, d_vals, n, less, stream);
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

/// The drop-in entry points (cub::DeviceMergeSort's SortKeys / SortPairs): the default policy
/// of the key type, or by size its small-sort or tiny-sort form (dispatch_by_size: SmallSortPolicy,
/// TinySortPolicy). Pre- and postconditions as DeviceMergeSortPolicy's.
struct DeviceMergeSort {
  template <class Key, class NumItems, class Less>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys,
                              NumItems num_items, Less less, cudaStream_t stream = 0) {
    static_assert(std::is_integral_v<NumItems>, "num_items must be an integer");
    return detail::dispatch_by_size<typename DefaultPolicy<Key>::type>(
        d_temp_storage, temp_storage_bytes, d_keys, static_cast<CfNoValue*>(nullptr),
        static_cast<std::int64_t>(num_items), less, stream);
  }
  template <class Key, class Value, class NumItems, class Less>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, Key* d_keys, Value* d_values,
                               NumItems num_items, Less less, cudaStream_t stream = 0) {
    static_assert(std::is_integral_v<NumItems>, "num_items must be an integer");
    static_assert(!std::is_same_v<Value, CfNoValue>, "SortPairs needs a value type");
    return detail::dispatch_by_size<typename DefaultPolicy<Key, Value>::type>(
        d_temp_storage, temp_storage_bytes, d_keys, d_values, static_cast<std::int64_t>(num_items), less, stream);
  }
};

}  // namespace bankcheck::cf
