#pragma once
// Where a patched instruction runs, as the capture patches need it: the
// lane, the block's linear index and whether the capture's block ranges
// select it, and the SM (the summary table's shard).
#include <cstdint>

#include "capture/host/ring/ring_layout.hpp"

namespace bankcheck::capture::device {

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ std::uint64_t linear_block() {
  return blockIdx.x + static_cast<std::uint64_t>(blockIdx.y) * gridDim.x +
         static_cast<std::uint64_t>(blockIdx.z) * gridDim.x * gridDim.y;
}

__device__ __forceinline__ bool block_selected(const CaptureDescriptor* d) {
  if (d->block_ranges == 0) return true;
  const std::uint64_t b = linear_block();
  for (std::uint32_t i = 0; i < d->block_ranges; ++i)
    if (b >= d->blocks[i].first && b <= d->blocks[i].last) return true;
  return false;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

}  // namespace bankcheck::capture::device
