// A graph with a child graph node: P -> child { X -> Y }, launched twice.
// 3 x 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 4096;
  float* in = device_input(n, 7.0f);
  float* a = device_buffer(n);
  float* b = device_buffer(n);
  int s32 = 32, s2 = 2;
  float k1 = 0.5f, k2 = 1.25f, add = 2.0f;
  unsigned long long ns = 5000000ull;
  void* args_p[] = {&a, &in, &n, &s32, &k1};
  void* args_x[] = {&a, &n, &add, &ns};
  void* args_y[] = {&b, &a, &n, &s2, &k2};

  cudaGraph_t child = new_graph(), parent = new_graph();
  cudaGraphNode_t x = add_kernel(child, {}, kernel_node((void*)slow_add, args_x, n));
  add_kernel(child, {x}, kernel_node((void*)strided_mix, args_y, n));
  cudaGraphNode_t pn = add_kernel(parent, {}, kernel_node((void*)strided_mix, args_p, n));
  cudaGraphNode_t cn;
  CHECK(cudaGraphAddChildGraphNode(&cn, parent, &pn, 1, child));
  cudaGraphExec_t exec = instantiate(parent);
  cudaStream_t s = new_stream(cudaStreamDefault);
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{a, n}, {b, n}});
  expect_launches(3 * 2);
  return 0;
}
