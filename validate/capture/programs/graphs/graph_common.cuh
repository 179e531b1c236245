// Shared pieces of the suite's programs (validate/capture/graph_suite.sh):
// error checks, buffers, streams, graph nodes, kernels whose shared-memory
// accesses conflict on purpose, and the result file each program writes.
// Every program takes RESULT as its last argument: it writes its output
// buffers' bytes there (the suite compares them byte for byte between a
// plain run and runs under `bankcheck capture`) and prints what the suite
// checks (graph_suite_check.py):
//   expected_launches N           kernel executions it caused on the GPU (each
//                                 kernel node of each graph launch counts once)
//   expected_launches_at_least N  launches that finished before it ended on purpose
//   expected_status S             complete (default), partial, or any
//   expected_reason TEXT          words a partial capture's reasons must hold
//   skipped: WHY                  it cannot run here (the suite says so; not a pass)
// Standard output is unbuffered, so lines printed before a crash are kept.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <utility>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    const cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

/// After a <<<...>>> launch: its configuration error, if any, ends the program.
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

constexpr int kThreads = 128;

/// Each thread stores its value at `t * stride` (stride 32: a 32-way conflict
/// per warp store) and reads its neighbour's back; out = neighbour * scale + own.
__global__ void strided_mix(float* out, const float* in, int n, int stride, float scale) {
  __shared__ float s[kThreads * 33];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  const float v = i < n ? in[i] : 0.0f;
  s[t * stride] = v;
  __syncthreads();
  const float w = s[(t ^ 1) * stride];
  if (i < n) out[i] = w * scale + v;
}

/// Spins `ns` on the global timer: a kernel that is still running when the host moves on.
__device__ inline void spin_ns(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

/// Sleeps `ns`, then adds `add` to every element through shared memory.
__global__ void slow_add(float* data, int n, float add, unsigned long long ns) {
  spin_ns(ns);
  __shared__ float s[kThreads];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = s[(t + 1) % kThreads] + add;
}

inline int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

inline float* device_buffer(int n) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  return d;
}

inline float* device_input(int n, float base) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = base + static_cast<float>((i * 37) % 101) / 8.0f;
  float* d = device_buffer(n);
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

inline cudaStream_t new_stream(unsigned flags = cudaStreamNonBlocking) {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, flags));
  return s;
}

inline cudaEvent_t new_event() {
  cudaEvent_t e;
  CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return e;
}

/// A kernel node's parameters: `fn` over blocks_for(n) blocks of kThreads unless `grid` is given.
inline cudaKernelNodeParams kernel_node(void* fn, void** args, int n, unsigned grid = 0) {
  cudaKernelNodeParams p{};
  p.func = fn;
  p.gridDim = dim3(grid != 0 ? grid : blocks_for(n));
  p.blockDim = dim3(kThreads);
  p.kernelParams = args;
  return p;
}

inline cudaGraphNode_t add_kernel(cudaGraph_t g, std::initializer_list<cudaGraphNode_t> deps,
                                  const cudaKernelNodeParams& p) {
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, deps.size() ? deps.begin() : nullptr, deps.size(), &p));
  return node;
}

inline cudaGraph_t new_graph() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  return g;
}

inline cudaGraphExec_t instantiate(cudaGraph_t g, unsigned long long flags = 0) {
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, flags));
  return exec;
}

/// Writes the device buffers' bytes (pointer, element count), in order, to the result file.
template <typename T = float>
inline void write_results(const char* path, std::initializer_list<std::pair<const T*, int>> buffers) {
  FILE* f = std::fopen(path, "wb");
  bool ok = f != nullptr;
  for (const auto& [d, n] : buffers) {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    ok = ok && std::fwrite(h.data(), sizeof(T), n, f) == static_cast<std::size_t>(n);
  }
  if (f == nullptr || std::fclose(f) != 0 || !ok) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
}

/// The result path (the last argument); standard output unbuffered from here on.
inline const char* result_path(int argc, char** argv, int args = 1) {
  if (argc != args + 1) {
    std::fprintf(stderr, "usage: %s %sRESULT\n", argv[0], args > 1 ? "ARGS... " : "");
    std::exit(2);
  }
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  return argv[argc - 1];
}

inline void expect_launches(int n) { std::printf("expected_launches %d\n", n); }
