// An explicit graph of kernel nodes, a diamond A -> (B, C) -> D, uploaded
// with cudaGraphUpload and launched three times. 4 x 3 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 8192;
  float* in = device_input(n, 3.0f);
  float* a = device_buffer(n);
  float* b = device_buffer(n);
  float* c = device_buffer(n);
  int s32 = 32, s33 = 33, s1 = 1;
  float half = 0.5f, two = 2.0f, one = 1.0f, quarter = 0.25f;
  unsigned long long ns = 10000000ull;
  void* args_a[] = {&a, &in, &n, &s32, &half};
  void* args_b[] = {&b, &a, &n, &s33, &two};
  void* args_c[] = {&a, &n, &one, &ns};
  void* args_d[] = {&c, &b, &n, &s1, &quarter};
  cudaGraph_t g = new_graph();
  cudaGraphNode_t na = add_kernel(g, {}, kernel_node((void*)strided_mix, args_a, n));
  cudaGraphNode_t nb = add_kernel(g, {na}, kernel_node((void*)strided_mix, args_b, n));
  cudaGraphNode_t nc = add_kernel(g, {na}, kernel_node((void*)slow_add, args_c, n));
  add_kernel(g, {nb, nc}, kernel_node((void*)strided_mix, args_d, n));
  cudaGraphExec_t exec = instantiate(g);
  cudaStream_t s = new_stream(cudaStreamDefault);
  CHECK(cudaGraphUpload(exec, s));
  for (int k = 0; k < 3; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{a, n}, {b, n}, {c, n}});
  expect_launches(4 * 3);
  return 0;
}
