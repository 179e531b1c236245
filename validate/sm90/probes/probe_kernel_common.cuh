#pragma once
// What every probe kernel of probes.cu shares: the warp, the shared array's
// size, the lane addresses (a __grid_constant__ parameter), the kernel
// signature, and USE32/USE64, which "use" a result by a store to global
// memory that only happens when it equals `magic` (never, at run time).
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kWarp = 32;
constexpr int kSharedBytes = 48 * 1024;

struct Lanes {
  uint32_t a[kWarp];  ///< the probed address of each lane (shared offset, or global offset for gld/gst)
  uint32_t s[kWarp];  ///< cp.async only: each lane's global source offset
};

using u64 = unsigned long long;

#define PROBE_PARAMS const __grid_constant__ Lanes p, uint32_t active, uint32_t magic, uint32_t *out, uint8_t *g
using ProbeFn = void (*)(const Lanes, uint32_t, uint32_t, uint32_t*, uint8_t*);

__device__ __forceinline__ uint32_t shared_base(const void* s) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(s));
}

#define USE32(r) if ((r) == magic) out[lane] = (r);
#define USE64(r) if (uint32_t(r) == magic) out[lane] = uint32_t(r);
