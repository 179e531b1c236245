#pragma once
// ldmatrix/stmatrix (LDSM/STSM), x1/x2/x4, plain and transposed.
#include "probe_kernel_common.cuh"

// .sync.aligned: every lane of the warp executes it, so there is no active
// mask; lanes 8i..8i+7 give the rows of matrix i, the other lanes' addresses
// are ignored (the garbage cases test that).
template <int N, bool Trans>
__device__ __forceinline__ uint32_t ldsm(uint32_t a) {
  uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if constexpr (N == 1 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  else if constexpr (N == 1 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  else if constexpr (N == 2 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  else if constexpr (N == 2 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  else if constexpr (N == 4 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
  return r0 ^ r1 ^ r2 ^ r3;
}

template <int N, bool Trans>
__device__ __forceinline__ void stsm(uint32_t a, uint32_t v) {
  if constexpr (N == 1 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(v) : "memory");
  else if constexpr (N == 1 && Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(v) : "memory");
  else if constexpr (N == 2 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
  else if constexpr (N == 2 && Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
  else if constexpr (N == 4 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1),
                 "r"(v + 2), "r"(v + 3) : "memory");
  else
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v),
                 "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
}

#define MATRIX_KERNELS(N, TRANS, SUFFIX)                                          \
  __global__ void __launch_bounds__(kWarp) probe_ldsm_##SUFFIX(PROBE_PARAMS) {    \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                         \
    const unsigned lane = threadIdx.x;                                            \
    (void)active; (void)g;                                                        \
    const uint32_t r = ldsm<N, TRANS>(shared_base(smem) + p.a[lane]);             \
    USE32(r)                                                                      \
  }                                                                               \
  __global__ void __launch_bounds__(kWarp) probe_stsm_##SUFFIX(PROBE_PARAMS) {    \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                         \
    const unsigned lane = threadIdx.x;                                            \
    (void)active; (void)g; (void)magic; (void)out;                                \
    stsm<N, TRANS>(shared_base(smem) + p.a[lane], lane * 0x00010001u);            \
  }
MATRIX_KERNELS(1, false, x1)
MATRIX_KERNELS(2, false, x2)
MATRIX_KERNELS(4, false, x4)
MATRIX_KERNELS(1, true, x1_trans)
MATRIX_KERNELS(2, true, x2_trans)
MATRIX_KERNELS(4, true, x4_trans)
