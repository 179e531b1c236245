// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync from the
// default pool around stream launches (3 rounds), then a captured graph
// holding a memory allocation node, a kernel and a free node, launched
// twice. 3 + 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 13.0f);
  float* out;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int round = 0; round < 3; ++round) {
    float* tmp = nullptr;
    CHECK(cudaMallocAsync(&tmp, n * sizeof(float), s));
    strided_mix<<<blocks_for(n), kThreads, 0, s>>>(tmp, in, n, 32, 1.0f + round);
    CHECK(cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
    CHECK(cudaFreeAsync(tmp, s));
    CHECK(cudaMemcpyAsync(in, out, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  }
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  float* tmp = nullptr;
  CHECK(cudaMallocAsync(&tmp, n * sizeof(float), s));
  strided_mix<<<blocks_for(n), kThreads, 0, s>>>(tmp, in, n, 33, 0.5f);
  CHECK(cudaMemcpyAsync(in, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, out, n, true);
  append_result(result, in, n, false);
  std::printf("expected_launches %d\n", 3 + 2);
  return 0;
}
