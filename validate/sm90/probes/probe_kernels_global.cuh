#pragma once
// Global loads and stores (sectors), 4, 8 and 16 bytes a lane.
#include "probe_kernel_common.cuh"

// a_l is a byte offset into a 4096-byte-aligned buffer.
template <int W>
__device__ __forceinline__ uint32_t global_load(const uint8_t* p) {
  if constexpr (W == 4) {
    uint32_t x;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
    return x;
  } else if constexpr (W == 8) {
    uint32_t x, y;
    asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(p) : "memory");
    return x ^ y;
  } else {
    uint32_t x, y, z, t;
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(t) : "l"(p) : "memory");
    return x ^ y ^ z ^ t;
  }
}

template <int W>
__device__ __forceinline__ void global_store(uint8_t* p, uint32_t v) {
  if constexpr (W == 4)
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (W == 8)
    asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v), "r"(v + 1) : "memory");
  else
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)
                 : "memory");
}

#define GLOBAL_KERNELS(W)                                                          \
  __global__ void __launch_bounds__(kWarp) probe_gld_##W(PROBE_PARAMS) {           \
    const unsigned lane = threadIdx.x;                                             \
    if ((active >> lane) & 1u) {                                                   \
      const uint32_t r = global_load<W>(g + p.a[lane]);                            \
      USE32(r)                                                                     \
    }                                                                              \
  }                                                                                \
  __global__ void __launch_bounds__(kWarp) probe_gst_##W(PROBE_PARAMS) {           \
    const unsigned lane = threadIdx.x;                                             \
    (void)magic; (void)out;                                                        \
    if ((active >> lane) & 1u) global_store<W>(g + p.a[lane], lane);               \
  }
GLOBAL_KERNELS(4)
GLOBAL_KERNELS(8)
GLOBAL_KERNELS(16)
