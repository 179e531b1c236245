// Shared-memory atomics that nvcc compiles to compare-and-swap loops on the
// H100: atomicAdd on unsigned long long and on double
// (ATOMS.CAST.SPIN.64 in a loop), on float (ATOMS.CAST.SPIN), with k lanes
// per address for k = 1..32, lanes of one address adjacent or spread, the
// addresses in distinct banks or all in one bank (stride 32 words), for
// capture and per-instruction comparison with Nsight Compute
// (validate/programs/run_compare.sh, group atomics64). Each kernel checks
// its sums on the host.
//
//   atomics64 [BLOCKS]     (default 4 blocks of 128 threads)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_check.cuh"

constexpr int kThreads = 128;

// Lane l of every warp adds to slot (l / per) or (l % (32 / per)): `per` lanes share an address;
// slots are `stride` elements apart (stride 32 x 4 bytes: every slot in one bank).
constexpr int kStrides = 32;
template <class T>
__global__ void add_kernel(T* out, int per, int spread, int rounds, int stride) {
  __shared__ T s[32 * kStrides * (kThreads / 32)];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * kStrides * (kThreads / 32); i += blockDim.x) s[i] = T(0);
  __syncthreads();
  const int slot = spread ? lane % (32 / per) : lane / per;
  for (int r = 0; r < rounds; ++r) atomicAdd(&s[32 * kStrides * warp + stride * slot], T(1));
  __syncthreads();
  for (int i = threadIdx.x; i < 32 * (kThreads / 32); i += blockDim.x)
    out[blockIdx.x * 32 * (kThreads / 32) + i] = s[32 * kStrides * (i / 32) + stride * (i % 32)];
}

template <class T>
int run(const char* name, int blocks, int per, int spread, int stride) {
  const int words = 32 * (kThreads / 32), rounds = 2;
  T* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(T) * words * blocks));
  add_kernel<T><<<blocks, kThreads>>>(d, per, spread, rounds, stride);
  CHECK(cudaGetLastError());
  std::vector<T> h(words * blocks);
  CHECK(cudaMemcpy(h.data(), d, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int w = 0; w < kThreads / 32; ++w)
      for (int s = 0; s < 32; ++s) {
        const bool used = s < 32 / per;
        const double want = used ? double(per * rounds) : 0.0;
        bad += double(h[(b * (kThreads / 32) + w) * 32 + s]) != want;
      }
  std::printf("%s per=%d spread=%d stride=%d: %s\n", name, per, spread, stride, bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 4;
  int failed = 0;
  for (int stride : {1, 32})
    for (int per : {1, 2, 4, 8, 16, 32})
      for (int spread : {0, 1}) {
        if (per == 1 && spread) continue;
        if (stride == 32 && per > 4) continue;  // the conflicting slots: a few sharings suffice
        failed += run<unsigned long long>("u64", blocks, per, spread, stride);
        failed += run<double>("f64", blocks, per, spread, stride);
        failed += run<float>("f32", blocks, per, spread, stride);
      }
  return failed ? 1 : 0;
}
