// A cooperative launch (cudaLaunchCooperativeKernel): every block of the
// grid is resident at once and meets the others at grid.sync(). The grid is
// what the occupancy query allows (blocks per SM x SMs), as cooperative
// programs size it; the result does not depend on the grid (grid-stride
// loops). Launched twice. 2 kernel executions.
#include <cooperative_groups.h>

#include <algorithm>

#include "graph_common.cuh"

namespace cg = cooperative_groups;

/// Phase 1: tmp = strided mix of in, tile by tile; grid.sync(); phase 2:
/// out[i] = tmp[i] + tmp[(i + 1) % n], which needs the neighbour's tile done.
__global__ void coop_mix(float* out, float* tmp, const float* in, int n) {
  __shared__ float s[kThreads * 32];
  const int t = threadIdx.x;
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    s[t * 32] = in[base + t];  // 32-way conflicts
    __syncthreads();
    tmp[base + t] = s[(t ^ 1) * 32] * 0.5f + s[t * 32];
    __syncthreads();
  }
  cg::this_grid().sync();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) out[i] = tmp[i] + tmp[(i + 1) % n];
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 1 << 16;
  float* in = device_input(n, 23.0f);
  float* tmp = device_buffer(n);
  float* out = device_buffer(n);
  float* out2 = device_buffer(n);
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop_mix, kThreads, 0));
  const int grid = std::min(n / kThreads, sms * per_sm);
  std::printf("grid %d (%d SMs x %d blocks per SM)\n", grid, sms, per_sm);
  void* args[] = {&out, &tmp, &in, &n};
  CHECK(cudaLaunchCooperativeKernel((void*)coop_mix, dim3(grid), dim3(kThreads), args, 0, nullptr));
  void* args2[] = {&out2, &tmp, &out, &n};
  CHECK(cudaLaunchCooperativeKernel((void*)coop_mix, dim3(grid), dim3(kThreads), args2, 0, nullptr));
  CHECK(cudaDeviceSynchronize());
  write_results(result, {{out, n}, {out2, n}});
  expect_launches(2);
  return 0;
}
