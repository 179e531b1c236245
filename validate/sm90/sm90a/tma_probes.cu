// TMA probes on the H100: a 2-D tile of 16-bit elements copied
// global -> shared by cp.async.bulk.tensor (UTMALDG) with each swizzle mode
// of its tensor map (none, 32B, 64B, 128B), completed on an mbarrier; then
// every warp reads the tile back with 16-byte loads, column by column (eight
// lanes, one chunk of eight rows), at the addresses the swizzle put the
// chunks (right: conflict-free) and at the unswizzled addresses (the classic
// bug, a reader that ignores the swizzle: 8-way for 128-byte rows); and the tile
// goes back shared -> global by cp.async.bulk.tensor (UTMASTG). Nsight
// Compute then shows what it counts for the TMA instructions themselves
// and for the reads. Every copy is checked on the host.
//
//   nvcc -arch=sm_90 -O2 -std=c++17 -o tma_probes tma_probes.cu -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../../cuda_check.cuh"

constexpr int kRows = 64;

/// Where TMA puts the 16-byte chunk j of row r (rows `row_bytes` long) under a swizzle of `span` bytes
/// (32, 64, 128; 0: none): the chunk bits [4, 4 + log2(span/16)) of the address XOR the bits above
/// 128 bytes ([7, ...)), as CUTLASS's Swizzle<log2(span/16), 4, 3>.
__device__ __host__ inline int swizzled_chunk(int r, int j, int span, int row_bytes) {
  return span == 0 ? j : j ^ ((r * row_bytes >> 7) % (span / 16));
}

template <int kRowBytes, int kSpan, bool kRespectSwizzle>
__global__ void tma_kernel(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out,
                           std::uint32_t* sums) {
  __shared__ alignas(1024) unsigned char tile[kRows * kRowBytes];
  __shared__ alignas(8) std::uint64_t bar;
  const auto tile_s = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  const auto bar_s = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(kRows * kRowBytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            tile_s),
        "l"(&in), "r"(0), "r"(0), "r"(bar_s)
        : "memory");
  }
  asm volatile(
      "{\n.reg .pred done;\nwait:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n@!done bra wait;\n}\n" ::"r"(
          bar_s)
      : "memory");
  // Eight consecutive lanes read one logical 16-byte chunk j of eight consecutive rows (a column of the
  // tile, as a transposing reader does): where the swizzle put it, or where it would be without one.
  constexpr int chunks = kRowBytes / 16;
  std::uint32_t sum = 0;
  for (int idx = threadIdx.x; idx < kRows * chunks; idx += blockDim.x) {
    const int quarter = idx / 8, j = quarter % chunks, r = (quarter / chunks) * 8 + idx % 8;
    const int at = kRespectSwizzle ? swizzled_chunk(r, j, kSpan, kRowBytes) : j;
    const uint4 v = *reinterpret_cast<const uint4*>(tile + r * kRowBytes + 16 * at);
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  sums[threadIdx.x] = sum;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&out), "r"(0), "r"(0),
                 "r"(tile_s)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

CUtensorMap make_map(void* base, int row_bytes, CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(row_bytes / 2), kRows};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(row_bytes / 2), kRows};
  const cuuint32_t elem[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, base, dims, strides, box, elem,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

template <int kRowBytes, int kSpan, bool kRespectSwizzle>
int run(const char* name, CUtensorMapSwizzle swizzle) {
  const int bytes = kRows * kRowBytes;
  std::vector<std::uint16_t> host(bytes / 2);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint16_t>(i * 2654435761u >> 7);
  void *in = nullptr, *out = nullptr;
  std::uint32_t* sums = nullptr;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMalloc(&sums, 128 * sizeof(std::uint32_t)));
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0xFF, bytes));
  const CUtensorMap a = make_map(in, kRowBytes, swizzle), b = make_map(out, kRowBytes, swizzle);
  tma_kernel<kRowBytes, kSpan, kRespectSwizzle><<<1, 128>>>(a, b, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<std::uint16_t> back(bytes / 2);
  CHECK(cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost));
  const bool ok = back == host;  // the round trip through the swizzled tile restores the tensor
  std::printf("%s row_bytes=%d swizzle_span=%d reader=%s: %s\n", name, kRowBytes, kSpan,
              kRespectSwizzle ? "swizzled" : "unswizzled", ok ? "ok" : "WRONG");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(sums));
  return ok ? 0 : 1;
}

int main() {
  CHECK(cudaFree(nullptr));  // a context for the driver API
  int failed = 0;
  failed += run<128, 0, true>("tma-none-128", CU_TENSOR_MAP_SWIZZLE_NONE);
  failed += run<32, 32, true>("tma-32B-right", CU_TENSOR_MAP_SWIZZLE_32B);
  failed += run<32, 32, false>("tma-32B-wrong", CU_TENSOR_MAP_SWIZZLE_32B);
  failed += run<64, 64, true>("tma-64B-right", CU_TENSOR_MAP_SWIZZLE_64B);
  failed += run<64, 64, false>("tma-64B-wrong", CU_TENSOR_MAP_SWIZZLE_64B);
  failed += run<128, 128, true>("tma-128B-right", CU_TENSOR_MAP_SWIZZLE_128B);
  failed += run<128, 128, false>("tma-128B-wrong", CU_TENSOR_MAP_SWIZZLE_128B);
  return failed ? 1 : 0;
}
