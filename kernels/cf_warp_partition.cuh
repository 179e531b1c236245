#pragma once
// The partition kernel of kernels/cf_merge_sort.cuh: CUB's merge-path
// partition of each tile of a pass, found by one warp instead of one thread.
// CUB's thread does a binary search in global memory, 23 dependent loads at
// 2^24 keys: 0.011-0.018 ms a pass (docs/cf-merge.md). C++17, as the sort's header.
#include <cstdint>

#include "kernels/cf_launch.cuh"
#include "sim/algorithms/merge/cf_merge_sort.hpp"
#include "sim/algorithms/merge/merge_path.hpp"

namespace bankcheck::cf::detail {

/// CUB's merge-path partition (AgentPartition::Process) searched by one warp:
/// kProbes lanes probe, a ballot narrows (MergePathWide: 5 dependent steps
/// for 2^23 keys at 31 probes, where a binary search, kProbes = 1, takes 23).
/// The result is cf_merge_partition's.
template <int kProbes, class Key, class Less>
__device__ std::int64_t warp_partition(const Key* keys, const CfPartitionSearch& s, Less less) {
  using Wide = MergePathWide<kProbes>;
  const int lane = static_cast<int>(threadIdx.x % 32);
  std::int64_t begin, end;
  merge_path_range(s.a_count, s.b_count, s.diag, begin, end);
  while (begin < end) {  // warp-uniform: every lane narrows with the same ballot
    bool left = false;
    if (lane < kProbes) {
      const std::int64_t p = Wide::probe(begin, end, lane);
      left = less(keys[s.b_begin + s.diag - 1 - p], keys[s.a_begin + p]);
    }
    Wide::narrow(begin, end, __ballot_sync(0xffffffffu, left) & ((1u << kProbes) - 1));
  }
  return s.a_begin + begin;
}

/// The partitions of level `level` of `plan` (CUB's DeviceMergeSortPartitionKernel),
/// one warp each: partitions[idx] for idx in [first, num_tiles], first = plan.first_tile(level).
template <int kProbes, class Key, class Less>
__global__ void partition_kernel(const Key* keys, CfPassPlan plan, int level, std::int64_t* partitions,
                                 Less less) {
  follow_previous_grid();
  const std::int64_t idx =
      plan.first_tile(level) + (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (idx > plan.num_tiles) return;  // whole warps
  const std::int64_t at = warp_partition<kProbes>(keys, cf_merge_partition_search(plan, level, idx), less);
  if (threadIdx.x % 32 == 0) partitions[idx] = at;
}

}  // namespace bankcheck::cf::detail
