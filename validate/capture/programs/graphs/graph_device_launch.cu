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
  float* out;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
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
  CHECK(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagDeviceLaunch));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphUpload(exec, s));
  cudaKernelNodeParams lp{};
  lp.func = (void*)launcher;
  lp.gridDim = dim3(1);
  lp.blockDim = dim3(32);
  void* largs[] = {&exec};
  lp.kernelParams = largs;
  cudaGraph_t host_graph;
  CHECK(cudaGraphCreate(&host_graph, 0));
  cudaGraphNode_t lnode;
  CHECK(cudaGraphAddKernelNode(&lnode, host_graph, nullptr, 0, &lp));
  cudaGraphExec_t host_exec;
  CHECK(cudaGraphInstantiate(&host_exec, host_graph, 0));
  CHECK(cudaGraphLaunch(host_exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, out, n, true);
  std::printf("expected_launches %d\n", 1);
  // The device-launched node is not seen: the capture must say partial, naming device graph launches.
  std::printf("expected_status partial\n");
  return 0;
}
