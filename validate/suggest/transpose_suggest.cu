// A 32x32 fp32 tile transpose through shared memory, as written naively and
// with the layout `bankcheck layout --suggest --tile 32x32 --type f32
// --access st.32 --access ld.32,along=0` returns: element (row, col) at
// x ^ ((x >> 5) & 31), x = row * 32 + col (CuTe Swizzle<5,0,5>). Warp r stores
// row r of the tile; warp c loads column c. Prints each kernel's median time
// and a checksum of its output; run_on_gpu.sh measures the shared-memory
// wavefronts with Nsight Compute.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_check.cuh"  // CHECK(call)

template <bool kSwizzled>
__device__ __forceinline__ int slot(int row, int col) {
  const int x = row * 32 + col;
  return kSwizzled ? x ^ ((x >> 5) & 31) : x;
}

template <bool kSwizzled>
__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[32 * 32];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  tile[slot<kSwizzled>(warp, lane)] = in[(by + warp) * n + bx + lane];  // row `warp` of the tile
  __syncthreads();
  out[(bx + warp) * n + by + lane] = tile[slot<kSwizzled>(lane, warp)];  // column `warp`
}

template <bool kSwizzled>
float time_kernel(const float* in, float* out, int n, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  const dim3 grid(n / 32, n / 32), block(32, 32);
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    transpose<kSwizzled><<<grid, block>>>(in, out, n);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192, reps = argc > 2 ? std::atoi(argv[2]) : 21;
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<float> host(count);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>((i * 2654435761u) % 1000003u);
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, count * sizeof(float)));
  CHECK(cudaMalloc(&out, count * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> got(count);
  for (int variant = 0; variant < 2; ++variant) {
    CHECK(cudaMemset(out, 0, count * sizeof(float)));
    const float ms = variant ? time_kernel<true>(in, out, n, reps) : time_kernel<false>(in, out, n, reps);
    CHECK(cudaMemcpy(got.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost));
    size_t wrong = 0;
    double sum = 0;
    for (size_t r = 0; r < static_cast<size_t>(n); ++r)
      for (size_t c = 0; c < static_cast<size_t>(n); ++c) {
        wrong += got[c * n + r] != host[r * n + c];
        sum += got[c * n + r] * static_cast<double>((r + 1) % 7);
      }
    std::printf("%s n=%d median_ms=%.4f wrong=%zu checksum=%.1f\n", variant ? "swizzled" : "naive", n, ms, wrong, sum);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
