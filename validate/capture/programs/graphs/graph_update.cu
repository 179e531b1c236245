// One executable graph changed in place: launched, its kernel node's
// parameters (grid and arguments) changed with cudaGraphExecKernelNodeSetParams
// and launched again, then updated from another graph with cudaGraphExecUpdate
// and launched a third time. 3 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 4096, half_n = 2048;
  float* in = device_input(n, 5.0f);
  float *out, *out2;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&out2, n * sizeof(float)));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  CHECK(cudaMemset(out2, 0, n * sizeof(float)));
  int s32 = 32, s7 = 7;
  float scale = 1.5f, scale2 = -0.75f;
  void* args[] = {&out, &in, &n, &s32, &scale};
  cudaKernelNodeParams p{};
  p.func = (void*)strided_mix;
  p.gridDim = dim3(blocks_for(n));
  p.blockDim = dim3(kThreads);
  p.kernelParams = args;
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &p));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphLaunch(exec, s));

  void* args2[] = {&out2, &in, &half_n, &s7, &scale2};  // other arguments, half the grid
  cudaKernelNodeParams p2 = p;
  p2.gridDim = dim3(blocks_for(half_n));
  p2.kernelParams = args2;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &p2));
  CHECK(cudaGraphLaunch(exec, s));

  cudaGraph_t g3;
  CHECK(cudaGraphCreate(&g3, 0));
  int s33 = 33;
  float scale3 = 3.0f;
  void* args3[] = {&in, &out2, &n, &s33, &scale3};
  cudaKernelNodeParams p3 = p;
  p3.kernelParams = args3;
  cudaGraphNode_t node3;
  CHECK(cudaGraphAddKernelNode(&node3, g3, nullptr, 0, &p3));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, g3, &info));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, out, n, true);
  append_result(result, out2, n, false);
  append_result(result, in, n, false);
  std::printf("expected_launches %d\n", 3);
  return 0;
}
