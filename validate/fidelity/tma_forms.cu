// TMA forms no probe had measured (docs/bank-model.md, rule 8): what Nsight
// Compute counts in shared wavefronts for UTMACCTL.PF (prefetch.tensormap),
// UTMACCTL.IV (fence.proxy.tensormap::generic.acquire, the invalidation of a
// tensor map the program rewrote), UTMAPF (cp.async.bulk.prefetch.tensor)
// and UTMALDG.4D.MULTICAST (cp.async.bulk.tensor.4d with
// .multicast::cluster in a cluster of two blocks). Each kernel also loads
// a tile with a plain UTMALDG and reads it back, and the host checks every
// tile, so the instructions are known to have done their work.
//
//   nvcc -arch=sm_90a -O2 -std=c++20 -I validate -o tma_forms tma_forms.cu -lcuda
//   tma_forms
//
// Kept independent of the bankcheck library: it is the instrument.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.cuh"

constexpr int kInner = 64, kRows = 4, kDim2 = 2, kDim3 = 2;  // u16 elements; 4-D box = whole tensor
constexpr int kTensorBytes = kInner * kRows * kDim2 * kDim3 * 2;
constexpr int kSliceBytes = kTensorBytes / kDim3;  // one coordinate of the outermost dimension

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void wait_parity0(uint32_t bar) {
  asm volatile("{\n.reg .pred done;\nwait:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n@!done bra wait;\n}\n"
               ::"r"(bar) : "memory");
}

/// The sum of the tile's 16-bit elements, read back with 16-byte loads by the block.
__device__ uint32_t tile_sum(const unsigned char* tile, int bytes) {
  uint32_t sum = 0;
  for (int i = threadIdx.x * 16; i < bytes; i += blockDim.x * 16) {
    const uint4 v = *reinterpret_cast<const uint4*>(tile + i);
    for (uint32_t w : {v.x, v.y, v.z, v.w}) sum += (w & 0xffffu) + (w >> 16);
  }
  return sum;
}

/// UTMACCTL.PF on the parameter map and on a copy in global memory,
/// UTMACCTL.IV on the global copy, UTMAPF.L2.2D, then a 2-D load of the
/// tensor's first slice (viewed as 2-D) and its read-back.
__global__ void tma_control(const __grid_constant__ CUtensorMap map2d, const CUtensorMap* global_map,
                            uint32_t* sums) {
  __shared__ alignas(1024) unsigned char tile[kSliceBytes];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t bar_s = smem_addr(&bar);
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&map2d) : "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(global_map) : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(global_map) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(&map2d), "r"(0), "r"(0)
                 : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(kSliceBytes) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(smem_addr(tile)), "l"(global_map), "r"(0), "r"(0), "r"(bar_s) : "memory");
  }
  wait_parity0(bar_s);
  const uint32_t s = tile_sum(tile, kSliceBytes);
  atomicAdd(&sums[0], s);
}

/// A cluster of two blocks: block r loads slice r of the 4-D tensor and
/// multicasts it to both blocks (mask 0b11), so each block's tile receives
/// the whole tensor, both slices, on its own mbarrier.
__global__ void __cluster_dims__(2, 1, 1) tma_multicast(const __grid_constant__ CUtensorMap map4d, uint32_t* sums) {
  __shared__ alignas(1024) unsigned char tile[kTensorBytes];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t bar_s = smem_addr(&bar);
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(kTensorBytes) : "memory");
  }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    const uint16_t mask = 0x3;
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6], %7;"
                 ::"r"(smem_addr(tile + rank * kSliceBytes)), "l"(&map4d), "r"(0), "r"(0), "r"(0), "r"(rank),
                 "r"(bar_s), "h"(mask) : "memory");
  }
  wait_parity0(bar_s);
  const uint32_t s = tile_sum(tile, kTensorBytes);
  atomicAdd(&sums[1 + rank], s);
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

static CUtensorMap encode(void* base, int rank, const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box) {
  CUtensorMap map;
  const cuuint32_t elem[5] = {1, 1, 1, 1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, rank, base, dims, strides, box, elem,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

int main() {
  CHECK(cudaFree(nullptr));  // a context for the driver API
  std::vector<uint16_t> host(kTensorBytes / 2);
  uint32_t slice_sum[2] = {0, 0};
  for (size_t i = 0; i < host.size(); ++i) {
    host[i] = static_cast<uint16_t>(i * 2654435761u >> 9);
    slice_sum[i / (host.size() / 2)] += host[i];
  }
  void* in = nullptr;
  uint32_t* sums = nullptr;
  CUtensorMap* gmap = nullptr;
  CHECK(cudaMalloc(&in, kTensorBytes));
  CHECK(cudaMalloc(&sums, 4 * sizeof(uint32_t)));
  CHECK(cudaMalloc(&gmap, sizeof(CUtensorMap)));
  CHECK(cudaMemcpy(in, host.data(), kTensorBytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(sums, 0, 4 * sizeof(uint32_t)));
  const cuuint64_t dims2[2] = {kInner, kRows * kDim2}, strides2[1] = {kInner * 2};
  const cuuint32_t box2[2] = {kInner, kRows * kDim2};
  const CUtensorMap map2d = encode(in, 2, dims2, strides2, box2);
  const cuuint64_t dims4[4] = {kInner, kRows, kDim2, kDim3};
  const cuuint64_t strides4[3] = {kInner * 2, kInner * 2 * kRows, kInner * 2 * kRows * kDim2};
  const cuuint32_t box4[4] = {kInner, kRows, kDim2, 1};
  const CUtensorMap map4d = encode(in, 4, dims4, strides4, box4);
  CHECK(cudaMemcpy(gmap, &map2d, sizeof(CUtensorMap), cudaMemcpyHostToDevice));
  tma_control<<<1, 128>>>(map2d, gmap, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  tma_multicast<<<2, 128>>>(map4d, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  uint32_t got[4];
  CHECK(cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost));
  const uint32_t whole = slice_sum[0] + slice_sum[1];
  const bool ok = got[0] == slice_sum[0] && got[1] == whole && got[2] == whole;
  std::printf("tma_control: slice sum %u (expected %u); tma_multicast: block sums %u %u (expected %u each): %s\n",
              got[0], slice_sum[0], got[1], got[2], whole, ok ? "ok" : "WRONG");
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(gmap));
  return ok ? 0 : 1;
}
