// A graph made by stream capture with two branches (fork and join through
// events), launched twice; one plain stream launch before it. 1 + 3 x 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 1.0f);
  float *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  cudaStream_t s, side;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  strided_mix<<<blocks_for(n), kThreads, 0, s>>>(a, in, n, 32, 0.5f);  // a plain stream launch
  CHECK(cudaGetLastError());

  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s));
  CHECK(cudaStreamWaitEvent(side, fork, 0));
  slow_add<<<blocks_for(n), kThreads, 0, s>>>(a, n, 1.0f, 20000000ull);  // 20 ms: still running when b starts
  strided_mix<<<blocks_for(n), kThreads, 0, side>>>(b, in, n, 33, 2.0f);
  CHECK(cudaEventRecord(join, side));
  CHECK(cudaStreamWaitEvent(s, join, 0));
  strided_mix<<<blocks_for(n), kThreads, 0, s>>>(in, b, n, 32, 0.25f);
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  append_result(result, a, n, true);
  append_result(result, b, n, false);
  append_result(result, in, n, false);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  std::printf("expected_launches %d\n", 1 + 3 * 2);
  return 0;
}
