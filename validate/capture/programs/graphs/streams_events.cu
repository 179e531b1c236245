// Two streams at once, ordered only by events and stream waits: each round,
// stream 1 makes x, stream 2 waits for it and makes y while stream 1 goes on
// with a slow kernel, and stream 1 waits for y. 3 rounds x 4 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 8192;
  float* in = device_input(n, 11.0f);
  float* x = device_buffer(n);
  float* y = device_buffer(n);
  float* z = device_buffer(n);
  cudaStream_t s1 = new_stream(), s2 = new_stream();
  cudaEvent_t x_ready = new_event(), y_ready = new_event();
  for (int round = 0; round < 3; ++round) {
    strided_mix<<<blocks_for(n), kThreads, 0, s1>>>(x, in, n, 32, 0.5f + round);
    CHECK(cudaEventRecord(x_ready, s1));
    CHECK(cudaStreamWaitEvent(s2, x_ready, 0));
    strided_mix<<<blocks_for(n), kThreads, 0, s2>>>(y, x, n, 16, 1.5f);
    slow_add<<<blocks_for(n), kThreads, 0, s1>>>(x, n, 1.0f, 2000000ull);
    CHECK(cudaEventRecord(y_ready, s2));
    CHECK(cudaStreamWaitEvent(s1, y_ready, 0));
    strided_mix<<<blocks_for(n), kThreads, 0, s1>>>(z, y, n, 8, 0.125f);
    CHECK_LAUNCH();
  }
  CHECK(cudaDeviceSynchronize());
  write_results(result, {{x, n}, {y, n}, {z, n}});
  expect_launches(3 * 4);
  return 0;
}
