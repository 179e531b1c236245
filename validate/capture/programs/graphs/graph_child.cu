// A graph with a child graph node: P -> child { X -> Y }, launched twice.
// 3 x 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 4096;
  float* in = device_input(n, 7.0f);
  float *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  int s32 = 32, s2 = 2;
  float k1 = 0.5f, k2 = 1.25f, add = 2.0f;
  unsigned long long ns = 5000000ull;
  void* args_p[] = {&a, &in, &n, &s32, &k1};
  void* args_x[] = {&a, &n, &add, &ns};
  void* args_y[] = {&b, &a, &n, &s2, &k2};
  cudaKernelNodeParams p{};
  p.gridDim = dim3(blocks_for(n));
  p.blockDim = dim3(kThreads);

  cudaGraph_t child, parent;
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t x, y, pn, cn;
  p.func = (void*)slow_add;
  p.kernelParams = args_x;
  CHECK(cudaGraphAddKernelNode(&x, child, nullptr, 0, &p));
  p.func = (void*)strided_mix;
  p.kernelParams = args_y;
  CHECK(cudaGraphAddKernelNode(&y, child, &x, 1, &p));
  CHECK(cudaGraphCreate(&parent, 0));
  p.kernelParams = args_p;
  CHECK(cudaGraphAddKernelNode(&pn, parent, nullptr, 0, &p));
  CHECK(cudaGraphAddChildGraphNode(&cn, parent, &pn, 1, child));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, parent, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, a, n, true);
  append_result(result, b, n, false);
  std::printf("expected_launches %d\n", 3 * 2);
  return 0;
}
