// Device-side graph launch: a graph instantiated for device launch, started
// by a kernel node of a host-launched graph (cudaGraphLaunch from the device,
// fire and forget; the device launches only from a kernel that a graph runs).
// The host launches one kernel, the launcher; the device graph's node runs
// from the device. Built with -rdc=true -lcudadevrt. 2 kernel executions,
// 1 of them seen by the host.
#include "graph_common.cuh"

__global__ void launcher(cudaGraphExec_t exec) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphLaunch(exec, cudaStreamGraphFireAndForget);
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  int n = 4096, s32 = 32;
  float scale = 0.75f;
  float* in = device_input(n, 19.0f);
  float* out = device_buffer(n);
  void* args[] = {&out, &in, &n, &s32, &scale};
  cudaGraph_t g = new_graph();
  add_kernel(g, {}, kernel_node((void*)strided_mix, args, n));
  cudaGraphExec_t exec = instantiate(g, cudaGraphInstantiateFlagDeviceLaunch);
  cudaStream_t s = new_stream(cudaStreamDefault);
  CHECK(cudaGraphUpload(exec, s));
  void* largs[] = {&exec};
  cudaKernelNodeParams lp = kernel_node((void*)launcher, largs, 0, 1);
  lp.blockDim = dim3(32);
  cudaGraph_t host_graph = new_graph();
  add_kernel(host_graph, {}, lp);
  CHECK(cudaGraphLaunch(instantiate(host_graph), s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{out, n}});
  expect_launches(1);
  // The device-launched node is not seen: the capture must say partial, naming device graph launches.
  std::printf("expected_status partial\nexpected_reason from the device\n");
  return 0;
}
