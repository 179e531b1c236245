// Dynamic shared memory above the 48 KB default (cudaFuncSetAttribute to
// 100 KB): one stream launch and one launch of a captured graph holding it.
// 2 kernel executions.
#include "graph_common.cuh"

constexpr int kDynamicFloats = 25600;  // 100 KB

__global__ void big_tile(float* out, const float* in, int n) {
  extern __shared__ float tile[];
  const int t = threadIdx.x;
  for (int k = t; k < kDynamicFloats; k += blockDim.x) tile[k] = in[(blockIdx.x * 97 + k) % n] * 0.5f;
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < kDynamicFloats / blockDim.x; ++k) sum += tile[(k * blockDim.x + t * 33) % kDynamicFloats];
  out[blockIdx.x * blockDim.x + t] = sum;
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 16384, blocks = 16;
  const size_t bytes = kDynamicFloats * sizeof(float);
  float* in = device_input(n, 17.0f);
  float* a = device_buffer(blocks * kThreads);
  float* b = device_buffer(blocks * kThreads);
  CHECK(cudaFuncSetAttribute(big_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  cudaStream_t s = new_stream();
  big_tile<<<blocks, kThreads, bytes, s>>>(a, in, n);
  CHECK_LAUNCH();
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  big_tile<<<blocks, kThreads, bytes, s>>>(b, a, blocks * kThreads);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphLaunch(instantiate(g), s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{a, blocks * kThreads}, {b, blocks * kThreads}});
  expect_launches(2);
  return 0;
}
