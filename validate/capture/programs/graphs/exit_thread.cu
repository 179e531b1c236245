// A program that ends with exit(0) from a host thread while a kernel runs:
// two launches finish (and the result is written), then a 1 s kernel starts
// and a second thread calls exit(0) 200 ms later; the main thread never
// returns. The exit status is the program's (0); the launches that finished
// before are captured; the one that was running may or may not be.
#include <chrono>
#include <thread>

#include "graph_common.cuh"

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 41.0f);
  float* a = device_buffer(n);
  strided_mix<<<blocks_for(n), kThreads>>>(a, in, n, 32, 0.5f);
  strided_mix<<<blocks_for(n), kThreads>>>(in, a, n, 8, 2.0f);
  CHECK_LAUNCH();
  write_results(result, {{a, n}, {in, n}});  // synchronous: both launches have finished
  std::printf("expected_launches_at_least 2\nexpected_captured 2\nexpected_status any\n");
  std::thread quitter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::exit(0);
  });
  slow_add<<<blocks_for(n), kThreads>>>(a, n, 1.0f, 1000000000ull);
  CHECK_LAUNCH();
  cudaDeviceSynchronize();  // exit() may tear the runtime down meanwhile: its answer does not matter
  quitter.join();           // never returns: the thread ends the process
  return 3;
}
