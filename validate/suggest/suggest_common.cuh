// Shared pieces of the suggestion kernels (suggest_kernels.cu): the layouts as
// element-offset functions, the map a capture's `bankcheck suggest` printed,
// error checks and the median kernel time.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// CuTe's Swizzle<B,M,S> on element offsets of a row-major tile: the B bits at
// [M+S, M+S+B) are XORed into [M, M+B). B = 0 is the plain row-major tile.
template <int B, int M, int S>
struct Sw {
  static constexpr const char* kind = "swizzle";
  __device__ __forceinline__ static int at(int x) {
    if constexpr (B == 0) return x;
    else return x ^ ((x >> S) & (((1 << B) - 1) << M));
  }
};
using Plain = Sw<0, 0, 0>;

// The map `bankcheck suggest` printed for a captured naive kernel, a C++
// expression of the byte offset b from the buffer's start: the run script
// writes capmaps.h with capmap(CASE, b) and kHasCap[CASE]. The map never moves
// the bits below the widest access, so whole elements map to whole elements.
#ifdef HAVE_CAPMAPS
#include "capmaps.h"
#else
__device__ __forceinline__ unsigned capmap(int, unsigned b) { return b; }
constexpr bool kHasCap[16] = {};
#endif
template <int C, int E>
struct Cap {
  __device__ __forceinline__ static int at(int x) {
    return static_cast<int>(capmap(C, static_cast<unsigned>(x) * E) / E);
  }
};

// The capture's map acts on the byte offsets the captured (naive) kernel
// used: its own layout first, then the map.
template <class Map, class InUse>
struct Then {
  __device__ __forceinline__ static int at(int x) { return Map::at(InUse::at(x)); }
};

// The median of `reps` cudaEvent-timed launches of f().
template <class F>
float median_ms(F f, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();  // warm-up
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Elements of `got` that differ bitwise from `want`, and a checksum of got.
template <class T>
std::size_t count_wrong(const std::vector<T>& got, const std::vector<T>& want, double* checksum) {
  std::size_t wrong = 0;
  double sum = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    wrong += std::memcmp(&got[i], &want[i], sizeof(T)) != 0;
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &got[i], sizeof(T));
    for (std::size_t k = 0; k < sizeof(T); ++k) sum += bytes[k] * static_cast<double>((i + k) % 7 + 1);
  }
  *checksum = sum;
  return wrong;
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> h(count);
  CHECK(cudaMemcpy(h.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
