#pragma once
// The kernels of kernels/cf_merge_sort.cuh: the block sort and merge kernels
// over the block-level steps (Agent, kernels/cf_merge_sort_agent.cuh). C++17,
// as the sort's header.
#include <cstdint>

#include "kernels/cf_launch.cuh"
#include "kernels/cf_merge_sort_agent.cuh"
#include "kernels/cf_warp_partition.cuh"
#include "sim/algorithms/merge/cf_merge_sort.hpp"

namespace bankcheck::cf::detail {

/// The tile of block blockIdx.x in a launch over tiles [first, first + gridDim.x). A
/// partial last tile is in the same launch, as in CUB: a one-block launch of
/// its own after the full tiles exposed that block's whole latency (0.052 ms
/// at 2^24 + 12,345 4-byte keys, docs/cf-merge.md "Sizes that are not a power
/// of two"). It goes to block 0, scheduled first, so that its slower path (a
/// call that may spill, Agent::block_sort_partial) overlaps the full tiles.
__device__ inline std::int64_t tile_of_block(std::int64_t n, int tile, std::int64_t first = 0) {
  const std::int64_t grid = gridDim.x, block = blockIdx.x;
  if ((first + grid) * tile <= n) return first + block;  // every tile of the launch is full
  return block == 0 ? first + grid - 1 : first + block - 1;
}

/// Block sort (CUB's DeviceMergeSortBlockSortKernel): each tile sorted into
/// `ping ? keys : keys_buf` (in place when ping: a block reads its whole tile
/// before it writes), or into the other buffer for the first `singles` tiles,
/// which the merge plan's level 0 skips (cf_pass_plan.hpp).
template <class P, class Key, class Value, class Less, bool kNetwork = true>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    block_sort_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, std::int64_t n,
                      std::int64_t singles, Less less) {
  using A = Agent<P, Key, Value>;
  follow_previous_grid();
  const std::int64_t tile_idx = tile_of_block(n, P::kTile);
  const std::int64_t base = tile_idx * P::kTile;
  const bool out_ping = ping != (tile_idx < singles);
  Key* keys_out = (out_ping ? keys : keys_buf) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (out_ping ? vals : vals_buf) + base;
  const Value* vals_in = A::kKeysOnly ? nullptr : vals + base;
  if (n - base >= P::kTile)
    A::template block_sort<false, Less, kNetwork>(keys + base, vals_in, keys_out, vals_out, P::kTile, less);
  else if (!A::template block_sort_padded<Less, kNetwork>(keys + base, vals_in, keys_out, vals_out,
                                                          static_cast<int>(n - base), less))
    A::template block_sort_partial<Less, kNetwork>(keys + base, vals_in, keys_out, vals_out,
                                                   static_cast<int>(n - base), less);
}

/// The tile's two partitions searched by the block itself (warps 0 and 1,
/// 31 probes a step), for a pass without a partition kernel.
template <class A, class Key, class Less>
__device__ void search_bounds(const Key* keys_in, const CfPassPlan& plan, int level, std::int64_t tile_idx,
                              Less less) {
  const int warp = static_cast<int>(threadIdx.x / 32);
  if (warp < 2) {
    const std::int64_t at = warp_partition<31>(keys_in, cf_merge_partition_search(plan, level, tile_idx + warp), less);
    if (threadIdx.x % 32 == 0) A::storage().merge.bounds[warp] = at;
  }
  __syncthreads();
}

/// One global merge pass, level `level` of `plan` (CUB's DeviceMergeSortMergeKernel) over
/// tiles [plan.first_tile(level), num_tiles): reads `ping ? keys : keys_buf`, writes the
/// other. The tile's partitions come from the partition kernel, or with partitions ==
/// nullptr the block searches them (search_bounds): that saves the partition kernel's
/// launch where every tile of the pass is resident at once, and slows the merges where
/// they are not (docs/cf-merge.md, cf_merge_fused_partitions).
template <class P, class Key, class Value, class Less>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    merge_kernel(bool ping, Key* keys, Value* vals, Key* keys_buf, Value* vals_buf, CfPassPlan plan, int level,
                 const std::int64_t* partitions, Less less) {
  using A = Agent<P, Key, Value>;
  follow_previous_grid();
  const std::int64_t n = plan.n;
  const std::int64_t tile_idx = tile_of_block(n, P::kTile, plan.first_tile(level));
  const Key* keys_in = ping ? keys : keys_buf;
  if (partitions == nullptr) search_bounds<A>(keys_in, plan, level, tile_idx, less);
  const std::int64_t* bounds = partitions == nullptr ? A::storage().merge.bounds : partitions + tile_idx;
  const CfMergeTileRanges g = cf_merge_tile_ranges(plan, level, tile_idx, bounds[0], bounds[1]);
  const Value* vals_in = ping ? vals : vals_buf;
  const std::int64_t base = tile_idx * P::kTile;
  Key* keys_out = (ping ? keys_buf : keys) + base;
  Value* vals_out = A::kKeysOnly ? nullptr : (ping ? vals_buf : vals) + base;
  if (n - base >= P::kTile)
    A::template merge_tile<false>(g, keys_in, vals_in, keys_out, vals_out, less);
  else
    A::merge_tile_partial(g, keys_in, vals_in, keys_out, vals_out, less);
}

}  // namespace bankcheck::cf::detail
