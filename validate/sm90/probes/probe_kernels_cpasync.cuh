#pragma once
// cp.async (LDGSTS) into shared memory, .ca 4/8/16 bytes and .cg 16 bytes.
#include "probe_kernel_common.cuh"

// Destination p.a[lane] (shared offset), source p.s[lane] (offset into the
// 4096-byte-aligned global buffer), both from the manifest, so cases can vary
// one with the other fixed. The wait is outside the lane predicate (it moves
// no data).
template <int Size, bool CG>
__device__ __forceinline__ void cp_async(uint32_t dst, const void* src) {
  if constexpr (CG)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(Size) : "memory");
}

#define CPASYNC_KERNEL(NAME, SIZE, CG)                                            \
  __global__ void __launch_bounds__(kWarp) probe_cpasync_##NAME(PROBE_PARAMS) {   \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                         \
    const unsigned lane = threadIdx.x;                                            \
    (void)magic; (void)out;                                                       \
    if ((active >> lane) & 1u) cp_async<SIZE, CG>(shared_base(smem) + p.a[lane], g + p.s[lane]); \
    asm volatile("cp.async.wait_all;" ::: "memory");                              \
  }
CPASYNC_KERNEL(ca4, 4, false)
CPASYNC_KERNEL(ca8, 8, false)
CPASYNC_KERNEL(ca16, 16, false)
CPASYNC_KERNEL(cg16, 16, true)
