#pragma once
// 8-byte shared loads whose inactive lanes are predicated off or diverged.
#include "probe_kernel_common.cuh"

// The LDS microbench makes a lane inactive by letting it exit before the
// load. Compiled code more often predicates it off (CUB's merge step is
// `@!P0 LDS.64` / `@P0 LDS.64`) or leaves it waiting at a reconvergence
// point after a divergent branch. These two kernels execute one LDS.64 with
// the lanes of `active` only, the others present in the warp:
//  * pred: `@P LDS.64`; an inactive lane's address register still holds
//    the manifest's a_l, so the cases choose what the hardware could see;
//  * div:  the load sits in a loop that active lanes run once and inactive
//    lanes skip (BSSY/BRA, they wait at BSYNC); ptxas turns a plain `if`
//    into a predicate, a loop it keeps as a branch.
__global__ void __launch_bounds__(kWarp) probe_ld8_pred(PROBE_PARAMS) {
  __shared__ __align__(16) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  (void)g;
  const uint32_t a = shared_base(smem) + p.a[lane];
  const uint32_t on = (active >> lane) & 1u;
  uint32_t x = 0, y = 0;
  asm volatile(
      "{\n .reg .pred q;\n setp.ne.u32 q, %2, 0;\n @q ld.shared.v2.u32 {%0, %1}, [%3];\n}"
      : "+r"(x), "+r"(y)
      : "r"(on), "r"(a)
      : "memory");
  USE32(x ^ y)
}

__global__ void __launch_bounds__(kWarp) probe_ld8_div(PROBE_PARAMS) {
  __shared__ __align__(16) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  (void)g;
  const int trips = int((active >> lane) & 1u);
  uint32_t acc = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) {
    uint32_t x, y;
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y)
                 : "r"(shared_base(smem) + p.a[lane] + 8u * unsigned(i)) : "memory");
    acc += x ^ y;
  }
  __syncwarp();
  USE32(acc)
}
