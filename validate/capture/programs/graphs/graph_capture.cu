// A graph made by stream capture with two branches (fork and join through
// events), launched twice; one plain stream launch before it. 1 + 3 x 2 kernel executions.
#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 1.0f);
  float* a = device_buffer(n);
  float* b = device_buffer(n);
  cudaStream_t s = new_stream(), side = new_stream();
  cudaEvent_t fork = new_event(), join = new_event();

  strided_mix<<<blocks_for(n), kThreads, 0, s>>>(a, in, n, 32, 0.5f);  // a plain stream launch
  CHECK_LAUNCH();

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
  cudaGraphExec_t exec = instantiate(graph);
  for (int k = 0; k < 2; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  write_results(result, {{a, n}, {b, n}, {in, n}});
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  expect_launches(1 + 3 * 2);
  return 0;
}
