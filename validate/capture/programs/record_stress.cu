// Many warps, records that repeat and records that do not: the device's
// record table (capture/host/ring/record_table.hpp) against the ring and against
// --summary (validate/capture/record_table_on_gpu.sh).
//
//   record_stress ITERATIONS DISTINCT RESULT
//
// 264 blocks of 8 warps; each iteration a 32-way column load (8 records that
// repeat in every warp), an 8-byte load with paired lanes, a partial-warp
// store, an ldmatrix.x4 and a cp.async whose sources repeat; with DISTINCT=1
// also a load whose addresses depend on the block, warp and iteration (more
// distinct records than the table holds: the ring takes the rest).
// RESULT gets the output buffer's bytes; stdout its checksum.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../cuda_check.cuh"

constexpr int kBlocks = 264, kThreads = 256, kWords = 4096;

__global__ void stress(float* out, const float4* source, int iterations, int distinct) {
  __shared__ __align__(16) float s[kWords];
  __shared__ __align__(16) float4 staged[kThreads];
  const unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  for (unsigned i = t; i < kWords; i += kThreads) s[i] = static_cast<float>(i % 97);
  __syncthreads();
  float acc = 0;
  for (int it = 0; it < iterations; ++it) {
    acc += s[(lane * 32 + it % 8) % kWords];  // 32 lanes in one bank
    const float2 pair = reinterpret_cast<const float2*>(s)[(lane >> 1) * 16 + warp];  // lanes l, l^1 on one word pair
    acc += pair.x + pair.y;
    if (distinct) acc += s[(lane + warp * 33 + blockIdx.x * 7 + it * 3) % kWords];
    const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(&s[(lane % 16) * 64 + (lane / 16) * 4]));
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(row));
    acc += __uint_as_float((r0 ^ r1 ^ r2 ^ r3) & 0x3F000000u);
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&staged[t]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(source + lane * 2 + (it % 2)));
    asm volatile("cp.async.wait_all;" ::: "memory");
    acc += staged[t].x;
    __syncthreads();
    if (lane < 16) s[lane * 64 + warp] = acc * 0.0f + static_cast<float>(lane % 97);  // 16 lanes in one bank
    __syncthreads();
  }
  out[blockIdx.x * kThreads + t] = acc;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: record_stress ITERATIONS DISTINCT RESULT\n");
    return 2;
  }
  const int iterations = std::atoi(argv[1]), distinct = std::atoi(argv[2]);
  std::vector<float4> host_source(64);
  for (int i = 0; i < 64; ++i) host_source[i] = make_float4(i, i + 1, i + 2, i + 3);
  float4* source = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&source, sizeof(float4) * host_source.size()));
  CHECK(cudaMalloc(&out, sizeof(float) * kBlocks * kThreads));
  CHECK(cudaMemcpy(source, host_source.data(), sizeof(float4) * host_source.size(), cudaMemcpyHostToDevice));
  stress<<<kBlocks, kThreads>>>(out, source, iterations, distinct);
  CHECK(cudaGetLastError());
  std::vector<float> result(kBlocks * kThreads);
  CHECK(cudaMemcpy(result.data(), out, sizeof(float) * result.size(), cudaMemcpyDeviceToHost));
  std::uint64_t sum = 0;
  for (float v : result) sum = sum * 1000003u + static_cast<std::uint64_t>(v * 16.0f);
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(sum));
  FILE* f = std::fopen(argv[3], "wb");
  if (f == nullptr || std::fwrite(result.data(), sizeof(float), result.size(), f) != result.size()) return 1;
  std::fclose(f);
  return 0;
}
