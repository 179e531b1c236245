// A program whose kernel fails a device-side assert after two launches have
// finished and its result is written: the synchronisation after it returns
// cudaErrorAssert and the program exits 1. The capture keeps the two
// launches, lists the failing one (not complete) and says partial, naming
// the exit code.
#include <cassert>

#include "graph_common.cuh"

__global__ void checked_mix(float* out, const float* in, int n) {
  __shared__ float s[kThreads * 32];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t * 32] = i < n ? in[i] : 0.0f;
  __syncthreads();
  assert(i != n / 2);  // fails in one thread of one block
  if (i < n) out[i] = s[(t ^ 1) * 32];
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 47.0f);
  float* a = device_buffer(n);
  strided_mix<<<blocks_for(n), kThreads>>>(a, in, n, 32, 0.5f);
  strided_mix<<<blocks_for(n), kThreads>>>(in, a, n, 4, 3.0f);
  CHECK_LAUNCH();
  write_results(result, {{a, n}, {in, n}});
  std::printf("expected_launches 3\nexpected_captured 2\nexpected_status partial\nexpected_reason exited with code 1\n");
  checked_mix<<<blocks_for(n), kThreads>>>(a, in, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());  // cudaErrorAssert: exit 1
  return 0;
}
