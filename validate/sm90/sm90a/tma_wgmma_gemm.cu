// A hand-written Hopper GEMM: TMA (cp.async.bulk.tensor) copies
// 64x64 fp16 tiles of A and B into shared memory with the 128-byte swizzle,
// one warpgroup multiplies them with wgmma.mma_async m64n64k16 (SASS HGMMA)
// through matrix descriptors, and the 64x64 fp16 result goes back through
// shared memory and a TMA store. Many blocks run at once (a 1024x1024 C,
// 256 blocks), as a real kernel's do. The variants are the Hopper layout
// bugs a user meets:
//   right              descriptors swizzle 128B like the tensor maps; the epilogue
//                      writes C where the 128B-swizzled store map reads it;
//   epilogue_unswizzled the epilogue writes C row-major for a store map without a
//                      swizzle: right products, 8-way bank conflicts on every STS;
//   desc_64B, desc_none descriptors that do not match the maps' 128B swizzle: wgmma
//                      reads the tiles in another layout, the products are wrong.
// Every C is checked against the CPU; the program says which variants are wrong
// and exits 0 only when exactly the two descriptor variants are. `--time` also
// times each variant (median of 21 launches).
//
//   nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o tma_wgmma_gemm tma_wgmma_gemm.cu -lcuda
#include <cuda.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../cuda_check.cuh"

constexpr int kM = 1024, kN = 1024, kK = 1024, kTile = 64;
constexpr int kTileBytes = kTile * kTile * 2;  // 64 rows of 128 bytes

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address, leading and stride
/// byte offsets (each >> 4), swizzle mode in bits 62-63 (0 none, 1 128B, 2 64B, 3 32B).
__device__ std::uint64_t descriptor(std::uint32_t shared_address, std::uint32_t lbo, std::uint32_t sbo,
                                    std::uint32_t swizzle) {
  return (std::uint64_t{(shared_address & 0x3FFFF) >> 4}) | (std::uint64_t{(lbo & 0x3FFFF) >> 4} << 16) |
         (std::uint64_t{(sbo & 0x3FFFF) >> 4} << 32) | (std::uint64_t{swizzle} << 62);
}

__device__ void wait_parity(std::uint32_t bar, std::uint32_t parity) {
  asm volatile(
      "{\n.reg .pred done;\nwait:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra wait;\n}\n" ::"r"(
          bar),
      "r"(parity)
      : "memory");
}

__device__ void wgmma_64x64x16(float (&d)[32], std::uint64_t da, std::uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "r"(1));
}

/// Step 1 of a k-step, thread 0 only: both tiles at column k (A's rows from m0, B's from n0) by TMA,
/// completing 2 * kTileBytes bytes on the barrier. Inlined, so the kernel's SASS is the one measured.
__device__ __forceinline__ void load_tiles(const CUtensorMap* a_map, const CUtensorMap* b_map, std::uint32_t a_s,
                                           std::uint32_t b_s, std::uint32_t bar_s, int k, int m0, int n0) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(2 * kTileBytes) : "memory");
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          a_s),
      "l"(a_map), "r"(k), "r"(m0), "r"(bar_s)
      : "memory");
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          b_s),
      "l"(b_map), "r"(k), "r"(n0), "r"(bar_s)
      : "memory");
}

/// The epilogue's shared-memory write: the accumulator fragment of m64nNk16 (PTX ISA, "wgmma register
/// fragment D") as fp16 rows of 128 bytes. Warp w holds rows 16w + lane/4 and 16w + lane/4 + 8;
/// d[4j..4j+3] are columns 8j + 2*(lane%4) and the one after.
template <bool kEpilogueSwizzled>
__device__ __forceinline__ void store_fragment(const float (&d)[32], unsigned char* tile) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int j = 0; j < kTile / 8; ++j)
#pragma unroll
    for (int half_row = 0; half_row < 2; ++half_row) {
      const int r = 16 * warp + lane / 4 + 8 * half_row;
      const int chunk = kEpilogueSwizzled ? j ^ (r % 8) : j;  // 16-byte chunk of the 128-byte row
      const __half2 v = __floats2half2_rn(d[4 * j + 2 * half_row], d[4 * j + 2 * half_row + 1]);
      *reinterpret_cast<__half2*>(tile + r * 128 + 16 * chunk + 4 * (lane % 4)) = v;
    }
}

/// kDescSwizzle: the descriptors' swizzle mode (1: 128B, what the tensor maps write; 2: 64B; 0: none).
/// kEpilogueSwizzled: C is written where a 128B-swizzled store map reads it, else row-major.
template <int kDescSwizzle, bool kEpilogueSwizzled>
__global__ void __launch_bounds__(128) gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                                                   const __grid_constant__ CUtensorMap b_map,
                                                   const __grid_constant__ CUtensorMap c_map) {
  __shared__ alignas(1024) unsigned char a_tile[kTileBytes];
  __shared__ alignas(1024) unsigned char b_tile[kTileBytes];
  __shared__ alignas(8) std::uint64_t bar;
  const auto a_s = static_cast<std::uint32_t>(__cvta_generic_to_shared(a_tile));
  const auto b_s = static_cast<std::uint32_t>(__cvta_generic_to_shared(b_tile));
  const auto bar_s = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float d[32];
  for (float& x : d) x = 0.f;
  // 128B swizzle, K-major: 8-row groups 1024 bytes apart; each k16 step starts 32 bytes further in the atom
  constexpr std::uint32_t sbo = kDescSwizzle == 2 ? 512 : 1024, lbo = kDescSwizzle == 0 ? 128 : 16;
  for (int kt = 0; kt < kK / kTile; ++kt) {
    if (threadIdx.x == 0) load_tiles(&a_map, &b_map, a_s, b_s, bar_s, kt * kTile, m0, n0);
    wait_parity(bar_s, kt & 1);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int kk = 0; kk < kTile / 16; ++kk)
      wgmma_64x64x16(d, descriptor(a_s + 32 * kk, lbo, sbo, kDescSwizzle), descriptor(b_s + 32 * kk, lbo, sbo, kDescSwizzle));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();  // every warp has read the tiles before the next copy overwrites them
  }
  store_fragment<kEpilogueSwizzled>(d, a_tile);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&c_map), "r"(n0),
                 "r"(m0), "r"(a_s)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

CUtensorMap make_map(void* base, int rows, int cols, CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * 2};
  const cuuint32_t box[2] = {kTile, kTile};
  const cuuint32_t elem[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, strides, box, elem,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

struct Problem {
  std::vector<__half> a, b;  // A is M x K, B is N x K (both K-major), C = A B^T
  std::vector<float> c;
  void *a_d = nullptr, *b_d = nullptr, *c_d = nullptr;
};

template <int kDescSwizzle, bool kEpilogueSwizzled>
bool run(const char* name, Problem& p, bool time) {
  const CUtensorMap a = make_map(p.a_d, kM, kK, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap b = make_map(p.b_d, kN, kK, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap c =
      make_map(p.c_d, kM, kN, kEpilogueSwizzled ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE);
  CHECK(cudaMemset(p.c_d, 0, std::size_t{kM} * kN * 2));
  const dim3 grid(kN / kTile, kM / kTile);
  gemm_kernel<kDescSwizzle, kEpilogueSwizzled><<<grid, 128>>>(a, b, c);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<__half> got(std::size_t{kM} * kN);
  CHECK(cudaMemcpy(got.data(), p.c_d, got.size() * 2, cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += __half2float(got[i]) != p.c[i];
  std::printf("%s: %s (%zu of %zu elements differ from the CPU's)", name, wrong ? "WRONG" : "ok", wrong, got.size());
  if (time) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int rep = 0; rep < 22; ++rep) {
      CHECK(cudaEventRecord(start));
      gemm_kernel<kDescSwizzle, kEpilogueSwizzled><<<grid, 128>>>(a, b, c);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (rep > 0) ms.push_back(t);  // the first launch warms up
    }
    std::sort(ms.begin(), ms.end());
    std::printf(" median %.4f ms of %zu launches", ms[ms.size() / 2], ms.size());
  }
  std::printf("\n");
  return wrong != 0;
}

int main(int argc, char** argv) {
  const bool time = argc > 1 && std::strcmp(argv[1], "--time") == 0;
  CHECK(cudaFree(nullptr));  // a context for the driver API
  Problem p;
  p.a.resize(std::size_t{kM} * kK);
  p.b.resize(std::size_t{kN} * kK);
  std::uint32_t s = 12345;
  auto next = [&] {  // entries -1, 0, 1: every product and sum of 1024 of them is exact in fp16 and fp32
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<int>(s >> 30) % 3 - 1);
  };
  for (auto& x : p.a) x = __float2half(next());
  for (auto& x : p.b) x = __float2half(next());
  std::vector<float> af(p.a.size()), bf(p.b.size());
  for (std::size_t i = 0; i < af.size(); ++i) af[i] = __half2float(p.a[i]);
  for (std::size_t i = 0; i < bf.size(); ++i) bf[i] = __half2float(p.b[i]);
  p.c.assign(std::size_t{kM} * kN, 0.f);
  for (std::size_t m = 0; m < kM; ++m)
    for (std::size_t n = 0; n < kN; ++n) {
      float acc = 0;
      for (std::size_t k = 0; k < kK; ++k) acc += af[m * kK + k] * bf[n * kK + k];
      p.c[m * kN + n] = acc;
    }
  CHECK(cudaMalloc(&p.a_d, p.a.size() * 2));
  CHECK(cudaMalloc(&p.b_d, p.b.size() * 2));
  CHECK(cudaMalloc(&p.c_d, std::size_t{kM} * kN * 2));
  CHECK(cudaMemcpy(p.a_d, p.a.data(), p.a.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p.b_d, p.b.data(), p.b.size() * 2, cudaMemcpyHostToDevice));
  const bool right = run<1, true>("right", p, time);
  const bool epilogue = run<1, false>("epilogue_unswizzled", p, time);
  const bool desc64 = run<2, true>("desc_64B", p, time);
  const bool desc_none = run<0, true>("desc_none", p, time);
  const bool as_expected = !right && !epilogue && desc64 && desc_none;
  std::printf("%s\n", as_expected ? "as expected: the two variants whose descriptors differ from the maps are wrong"
                                  : "NOT as expected");
  return as_expected ? 0 : 1;
}
