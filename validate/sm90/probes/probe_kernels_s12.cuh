#pragma once
// 12-byte elements in shared memory: what the compiler emits for them.
#include <vector_types.h>

#include "probe_kernel_common.cuh"

// Plain C++ element accesses, so the compiler chooses the instructions (the
// question is what it chooses): the lane's "address" a_l is an element
// index here. S12 has 4-byte alignment (sizeof 12); S12A16 is the same
// members with alignas(16) (sizeof 16); float3 is CUDA's 12-byte vector.
// "even" indexes element 2*i, a 24-byte stride, so every element is 8-byte
// aligned and the compiler may use a 64-bit access for two members.
struct S12 {
  int x, y, z;
};
struct alignas(16) S12A16 {
  int x, y, z;
};

#define S12_KERNELS(NAME, T, INDEX)                                               \
  __global__ void __launch_bounds__(kWarp) probe_s12_ld_##NAME(PROBE_PARAMS) {    \
    __shared__ __align__(16) uint8_t smem[kSharedBytes];                          \
    const unsigned lane = threadIdx.x;                                            \
    (void)g;                                                                      \
    if ((active >> lane) & 1u) {                                                  \
      const T v = reinterpret_cast<const T*>(smem)[INDEX];                        \
      const uint32_t r = uint32_t(v.x) ^ (uint32_t(v.y) * 3u) ^ (uint32_t(v.z) * 5u); \
      USE32(r)                                                                    \
    }                                                                             \
  }
S12_KERNELS(a4, S12, p.a[lane])
S12_KERNELS(a16, S12A16, p.a[lane])
S12_KERNELS(a4even, S12, 2 * p.a[lane])

// Whole-struct stores (what `arr[i] = v;` compiles to). Nothing reads the
// array, so the compiler would drop the store; an empty asm that takes the
// array's address and clobbers memory (it might read it) keeps it.
#define S12_WHOLE_STORE(NAME, T, INDEX)                                           \
  __global__ void __launch_bounds__(kWarp) probe_s12_st_##NAME(PROBE_PARAMS) {   \
    __shared__ __align__(16) uint8_t smem[kSharedBytes];                          \
    const unsigned lane = threadIdx.x;                                            \
    (void)g; (void)magic; (void)out;                                              \
    if ((active >> lane) & 1u) {                                                  \
      T v;                                                                        \
      v.x = int(lane); v.y = int(lane + 1); v.z = int(lane + 2);                  \
      reinterpret_cast<T*>(smem)[INDEX] = v;                                      \
      asm volatile("" ::"l"(smem) : "memory");                                    \
    }                                                                             \
  }
S12_WHOLE_STORE(a4, S12, p.a[lane])
S12_WHOLE_STORE(a16, S12A16, p.a[lane])
S12_WHOLE_STORE(a4even, S12, 2 * p.a[lane])

__global__ void __launch_bounds__(kWarp) probe_s12_ld_float3(PROBE_PARAMS) {
  __shared__ __align__(16) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  (void)g;
  if ((active >> lane) & 1u) {
    const float3 v = reinterpret_cast<const float3*>(smem)[p.a[lane]];
    const uint32_t r = __float_as_uint(v.x) ^ (__float_as_uint(v.y) * 3u) ^ (__float_as_uint(v.z) * 5u);
    USE32(r)
  }
}
