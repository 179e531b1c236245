// Two GPUs: the same kernel on device 0 and device 1, each with its own
// stream and buffers, results from both. On a machine with one GPU it prints
// "skipped: one GPU" and does nothing else (the suite reports the skip).
// 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    std::printf("skipped: one GPU\n");
    return 0;
  }
  const int n = 8192;
  float* out[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    float* in = device_input(n, 53.0f + d);
    out[d] = device_buffer(n);
    strided_mix<<<blocks_for(n), kThreads, 0, new_stream()>>>(out[d], in, n, 32, 0.5f + d);
    CHECK_LAUNCH();
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
  }
  CHECK(cudaSetDevice(0));
  write_results(result, {{out[0], n}, {out[1], n}});  // unified addressing: each copy finds its device
  expect_launches(2);
  return 0;
}
