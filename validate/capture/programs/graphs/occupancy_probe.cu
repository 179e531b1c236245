// What the program asks the driver, answered plainly and under a tool: the
// SM count (device properties, runtime and driver attributes), and for a
// light kernel, a register-heavy one and a cluster kernel with 200 KB of
// dynamic shared memory their attributes (cudaFuncGetAttributes, cuFuncGetAttribute)
// and occupancy (blocks per SM, potential block size, dynamic shared memory
// available, active clusters, potential cluster size), once before any
// launch and once after each kernel ran. It writes the answers, one per line
// `query = answer`, to RESULT; the suite diffs them between a plain run and
// a capture. A persistent grid chosen from them is printed, as CUTLASS's
// tile schedulers choose it. 3 kernel executions.
#include <cuda.h>

#include <algorithm>
#include <cstdarg>
#include <string>

#include "graph_common.cuh"

constexpr int kHeavyThreads = 384;
constexpr int kClusterSmem = 200 * 1024;

__global__ void light(float* out, const float* in, int n) {
  __shared__ float s[kThreads * 33];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t * 32] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = s[(t ^ 1) * 32];
}

/// Many values live at once (an unrolled 96-register accumulator), one block of 384 per SM.
__global__ void __launch_bounds__(kHeavyThreads, 1) heavy(float* out, const float* in, int n) {
  __shared__ float s[kHeavyThreads * 2];
  const int t = threadIdx.x;
  float acc[96];
#pragma unroll
  for (int k = 0; k < 96; ++k) acc[k] = in[(t * 7 + k * 13) % n];
  s[t * 2] = acc[t % 96];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int k = 0; k < 96; ++k) acc[k] = acc[k] * acc[(k + r + 1) % 96] + s[(t * 2 + k) % (kHeavyThreads * 2)];
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < 96; ++k) sum += acc[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

__global__ void __cluster_dims__(2, 1, 1) clustered(float* out, const float* in, int n) {
  extern __shared__ float tile[];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  tile[t * 32] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[(t ^ 1) * 32];
}

FILE* answers = nullptr;
void put(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(answers, format, args);
  va_end(args);
  std::fputc('\n', answers);
}

template <typename K>
void ask_function(const char* name, K kernel, int block, int smem, const char* when) {
  cudaFuncAttributes a{};
  CHECK(cudaFuncGetAttributes(&a, (const void*)kernel));
  put("%s %s cudaFuncGetAttributes numRegs=%d localSizeBytes=%zu sharedSizeBytes=%zu constSizeBytes=%zu "
      "maxThreadsPerBlock=%d maxDynamicSharedSizeBytes=%d binaryVersion=%d", when, name, a.numRegs, a.localSizeBytes,
      a.sharedSizeBytes, a.constSizeBytes, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes, a.binaryVersion);
  cudaFunction_t f;
  CHECK(cudaGetFuncBySymbol(&f, (const void*)kernel));
  int regs = -1, threads = -1;
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, reinterpret_cast<CUfunction>(f));
  cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, reinterpret_cast<CUfunction>(f));
  put("%s %s cuFuncGetAttribute NUM_REGS=%d MAX_THREADS_PER_BLOCK=%d", when, name, regs, threads);
  for (int b : {block / 2, block}) {
    int blocks = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, b, smem));
    put("%s %s cudaOccupancyMaxActiveBlocksPerMultiprocessor(block %d, smem %d) = %d", when, name, b, smem, blocks);
    int driver_blocks = -1;
    cuOccupancyMaxActiveBlocksPerMultiprocessor(&driver_blocks, reinterpret_cast<CUfunction>(f), b, smem);
    put("%s %s cuOccupancyMaxActiveBlocksPerMultiprocessor(block %d, smem %d) = %d", when, name, b, smem, driver_blocks);
  }
  int min_grid = -1, best_block = -1;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, kernel, smem, 0));
  put("%s %s cudaOccupancyMaxPotentialBlockSize = grid %d block %d", when, name, min_grid, best_block);
  size_t dynamic = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dynamic, kernel, 1, block));
  put("%s %s cudaOccupancyAvailableDynamicSMemPerBlock(1 block of %d) = %zu", when, name, block, dynamic);
}

void ask_cluster(const char* when) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(64);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kClusterSmem;
  int clusters = -1, size = -1;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, (void*)clustered, &config));
  put("%s clustered cudaOccupancyMaxActiveClusters(2x1x1, smem %d) = %d", when, kClusterSmem, clusters);
  CHECK(cudaOccupancyMaxPotentialClusterSize(&size, (void*)clustered, &config));
  put("%s clustered cudaOccupancyMaxPotentialClusterSize = %d", when, size);
}

void ask_all(const char* when) {
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  put("%s cudaGetDeviceProperties multiProcessorCount=%d sharedMemPerMultiprocessor=%zu regsPerMultiprocessor=%d "
      "maxThreadsPerMultiProcessor=%d maxBlocksPerMultiProcessor=%d sharedMemPerBlockOptin=%zu", when,
      p.multiProcessorCount, p.sharedMemPerMultiprocessor, p.regsPerMultiprocessor, p.maxThreadsPerMultiProcessor,
      p.maxBlocksPerMultiProcessor, p.sharedMemPerBlockOptin);
  int sms = -1, driver_sms = -1;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUdevice device;
  cuDeviceGet(&device, 0);
  cuDeviceGetAttribute(&driver_sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  put("%s cudaDeviceGetAttribute(MultiProcessorCount) = %d, cuDeviceGetAttribute = %d", when, sms, driver_sms);
  ask_function("light", light, 2 * kThreads, 0, when);
  ask_function("heavy", heavy, kHeavyThreads, 0, when);
  ask_function("clustered", clustered, kThreads, kClusterSmem, when);
  ask_cluster(when);
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  answers = std::fopen(result, "w");
  if (answers == nullptr) return 1;
  const int n = 1 << 16;
  float* in = device_input(n, 59.0f);
  float* out = device_buffer(n);
  CHECK(cudaFuncSetAttribute(clustered, cudaFuncAttributeMaxDynamicSharedMemorySize, kClusterSmem));
  ask_all("before");
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, heavy, kHeavyThreads, 0));
  const int grid = std::max(1, std::min(n / kHeavyThreads, sms * per_sm));
  std::printf("persistent grid for heavy: %d (%d SMs x %d blocks per SM)\n", grid, sms, per_sm);
  light<<<n / kThreads, kThreads>>>(out, in, n);
  heavy<<<grid, kHeavyThreads>>>(out, in, n);
  clustered<<<64, kThreads, kClusterSmem>>>(out, in, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  ask_all("after");
  if (std::fclose(answers) != 0) return 1;
  expect_launches(3);
  std::printf("expected_result may differ: the answers under the tool are the finding\n");
  return 0;
}
