// An explicit graph of kernel nodes, a diamond A -> (B, C) -> D, uploaded
// with cudaGraphUpload and launched three times. 4 x 3 kernel executions.
#include "graph_common.cuh"

namespace {
cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, int ndeps, void* fn, void** args, int n) {
  cudaKernelNodeParams p{};
  p.func = fn;
  p.gridDim = dim3(blocks_for(n));
  p.blockDim = dim3(kThreads);
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, deps, ndeps, &p));
  return node;
}
}  // namespace

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 8192;
  float* in = device_input(n, 3.0f);
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  int s32 = 32, s33 = 33, s1 = 1;
  float half = 0.5f, two = 2.0f, one = 1.0f, quarter = 0.25f;
  unsigned long long ns = 10000000ull;
  void* args_a[] = {&a, &in, &n, &s32, &half};
  void* args_b[] = {&b, &a, &n, &s33, &two};
  void* args_c[] = {&a, &n, &one, &ns};
  void* args_d[] = {&c, &b, &n, &s1, &quarter};
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t na = add_kernel(g, nullptr, 0, (void*)strided_mix, args_a, n);
  cudaGraphNode_t nb = add_kernel(g, &na, 1, (void*)strided_mix, args_b, n);
  cudaGraphNode_t nc = add_kernel(g, &na, 1, (void*)slow_add, args_c, n);
  cudaGraphNode_t bc[] = {nb, nc};
  add_kernel(g, bc, 2, (void*)strided_mix, args_d, n);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphUpload(exec, s));
  for (int k = 0; k < 3; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, a, n, true);
  append_result(result, b, n, false);
  append_result(result, c, n, false);
  std::printf("expected_launches %d\n", 4 * 3);
  return 0;
}
