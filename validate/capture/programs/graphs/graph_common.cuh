// Shared pieces of the graph suite's programs (validate/capture/graph_suite.sh):
// kernels whose shared-memory accesses conflict on purpose, and the result
// file each program writes. Every program takes one argument, RESULT: it
// writes its output buffers' bytes there (the suite compares them byte for
// byte between a plain run and runs under `bankcheck capture`) and prints
// `expected_launches N`, the kernel executions it caused on the GPU (each
// kernel node of each graph launch counts once).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

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

/// Sleeps `ns` on the global timer, then adds `add` to every element: a node
/// that is still running when the host moves on.
__global__ void slow_add(float* data, int n, float add, unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
  __shared__ float s[kThreads];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = s[(t + 1) % kThreads] + add;
}

inline int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

inline float* device_input(int n, float base) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = base + static_cast<float>((i * 37) % 101) / 8.0f;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

/// Appends the device buffer's bytes to the result file.
inline void append_result(const char* path, const float* d, int n, bool first) {
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  FILE* f = std::fopen(path, first ? "wb" : "ab");
  if (f == nullptr || std::fwrite(h.data(), sizeof(float), n, f) != static_cast<std::size_t>(n)) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  std::fclose(f);
}

inline const char* result_path(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RESULT\n", argv[0]);
    std::exit(2);
  }
  return argv[1];
}
