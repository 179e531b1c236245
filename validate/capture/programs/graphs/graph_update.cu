// One executable graph changed in place: launched, its kernel node's
// parameters (grid and arguments) changed with cudaGraphExecKernelNodeSetParams
// and launched again, then updated from another graph with cudaGraphExecUpdate
// and launched a third time. 3 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 4096, half_n = 2048;
  float* in = device_input(n, 5.0f);
  float* out = device_buffer(n);
  float* out2 = device_buffer(n);
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  CHECK(cudaMemset(out2, 0, n * sizeof(float)));
  int s32 = 32, s7 = 7, s33 = 33;
  float scale = 1.5f, scale2 = -0.75f, scale3 = 3.0f;
  void* args[] = {&out, &in, &n, &s32, &scale};
  const cudaKernelNodeParams p = kernel_node((void*)strided_mix, args, n);
  cudaGraph_t g = new_graph();
  cudaGraphNode_t node = add_kernel(g, {}, p);
  cudaGraphExec_t exec = instantiate(g);
  cudaStream_t s = new_stream(cudaStreamDefault);
  CHECK(cudaGraphLaunch(exec, s));

  void* args2[] = {&out2, &in, &half_n, &s7, &scale2};  // other arguments, half the grid
  const cudaKernelNodeParams p2 = kernel_node((void*)strided_mix, args2, half_n);
  CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &p2));
  CHECK(cudaGraphLaunch(exec, s));

  void* args3[] = {&in, &out2, &n, &s33, &scale3};
  cudaGraph_t g3 = new_graph();
  add_kernel(g3, {}, kernel_node((void*)strided_mix, args3, n));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, g3, &info));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{out, n}, {out2, n}, {in, n}});
  expect_launches(3);
  return 0;
}
