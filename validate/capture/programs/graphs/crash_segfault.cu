// A program that crashes on the host after three launches have finished and
// its result is written: a store through a null pointer (SIGSEGV). The exit
// status is the program's (killed by signal 11, 139 to a shell); the capture
// keeps the three launches and says partial, naming the signal.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 43.0f);
  float* a = device_buffer(n);
  for (int k = 0; k < 3; ++k) {
    strided_mix<<<blocks_for(n), kThreads>>>(a, in, n, 32 >> k, 0.5f + k);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(in, a, n * sizeof(float), cudaMemcpyDeviceToDevice));
  }
  write_results(result, {{a, n}, {in, n}});
  expect_launches(3);
  std::printf("expected_status partial\nexpected_reason killed by signal 11\n");
  volatile int* nowhere = nullptr;
  *nowhere = 1;
  return 0;
}
