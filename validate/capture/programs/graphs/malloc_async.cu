// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync from the
// default pool around stream launches (3 rounds), then a captured graph
// holding a memory allocation node, a kernel and a free node, launched
// twice. 3 + 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  const size_t bytes = n * sizeof(float);
  float* in = device_input(n, 13.0f);
  float* out = device_buffer(n);
  cudaStream_t s = new_stream();
  for (int round = 0; round < 3; ++round) {
    float* tmp = nullptr;
    CHECK(cudaMallocAsync(&tmp, bytes, s));
    strided_mix<<<blocks_for(n), kThreads, 0, s>>>(tmp, in, n, 32, 1.0f + round);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(out, tmp, bytes, cudaMemcpyDeviceToDevice, s));
    CHECK(cudaFreeAsync(tmp, s));
    CHECK(cudaMemcpyAsync(in, out, bytes, cudaMemcpyDeviceToDevice, s));
  }
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  float* tmp = nullptr;
  CHECK(cudaMallocAsync(&tmp, bytes, s));
  strided_mix<<<blocks_for(n), kThreads, 0, s>>>(tmp, in, n, 33, 0.5f);
  CHECK(cudaMemcpyAsync(in, tmp, bytes, cudaMemcpyDeviceToDevice, s));
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t exec = instantiate(g);
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{out, n}, {in, n}});
  expect_launches(3 + 2);
  return 0;
}
