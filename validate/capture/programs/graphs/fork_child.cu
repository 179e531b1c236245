// A program that starts a child process which uses CUDA too: the parent
// launches a kernel, fork()s and exec()s itself as the child, which launches
// two kernels and writes its result; the parent waits, launches once more and
// writes its own result followed by the child's. Under capture only the
// first process is captured: the child's launches are reported, not traced,
// so the capture is partial by design, and every byte is the same.
// 2 kernel executions in the parent (2 in the child).
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "graph_common.cuh"

int child(const char* result) {
  const int n = 4096;
  float* in = device_input(n, 31.0f);
  float* a = device_buffer(n);
  strided_mix<<<blocks_for(n), kThreads>>>(a, in, n, 32, 0.125f);
  strided_mix<<<blocks_for(n), kThreads>>>(in, a, n, 16, 4.0f);
  CHECK_LAUNCH();
  write_results(result, {{a, n}, {in, n}});
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0) return child(argv[2]);
  const char* result = result_path(argc, argv);
  const int n = 4096;
  float* in = device_input(n, 37.0f);
  float* a = device_buffer(n);
  strided_mix<<<blocks_for(n), kThreads>>>(a, in, n, 32, 0.75f);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  const std::string child_result = std::string(result) + ".child";
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "--child", child_result.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "the child failed (status %d)\n", status);
    return 1;
  }
  strided_mix<<<blocks_for(n), kThreads>>>(in, a, n, 33, 1.5f);
  CHECK_LAUNCH();
  write_results(result, {{a, n}, {in, n}});
  FILE* from = std::fopen(child_result.c_str(), "rb");
  FILE* to = std::fopen(result, "ab");
  char buffer[4096];
  for (size_t got; from && to && (got = std::fread(buffer, 1, sizeof buffer, from)) > 0;) std::fwrite(buffer, 1, got, to);
  if (!from || !to || std::fclose(to) != 0) return 1;
  std::fclose(from);
  std::remove(child_result.c_str());
  expect_launches(2);
  std::printf("expected_status partial\nexpected_reason child process\n");
  return 0;
}
