// cp.async tile copies as GEMM main loops issue them: 8 warps a
// block, a block per 64-row tile, a 3-stage ring of shared buffers, every
// copy of the stage issued back to back, then consumed, for capture and
// per-instruction comparison with Nsight Compute (validate/programs/
// run_compare.sh, group ldgsts). Each kernel's sums are checked on the host.
//
// The forms are those cuBLAS, cuDNN, CUTLASS and FlashAttention-2 compile to:
//   f32_*   4-byte .ca with the L2::128B hint (LDGSTS.E.LTC128B), cuBLAS's
//           float32 A tile: 8 lanes read 32 bytes of one row, the warp 4
//           rows `ld` floats apart, stored transposed into rows of 68 words;
//           `ld` 512 puts the 4 rows in the same banks, 1000 does not.
//           At the last K tile lanes past K fill zeros: `null` with a null
//           source and the ignore-src predicate (cuDNN), `size0` with their
//           real source and a source size of 0 (CUTLASS's zfill).
//   h16_*   16-byte copies of 128-byte rows into a 128-byte-row tile whose
//           16-byte chunks are XOR-swizzled by the row: .cg with the hint
//           (LDGSTS.E.BYPASS.LTC128B.128, FlashAttention-2), the same with a
//           source size (CUTLASS's zfill), .ca with the hint
//           (LDGSTS.E.LTC128B.128) and plain .cg (LDGSTS.E.BYPASS.128). `ld`
//           a multiple of 64 halves keeps every row in one 128-byte line; an
//           odd multiple of 32 halves splits each row over two lines.
//
//   ldgsts_tiles [BLOCKS]     (default 264: two blocks per SM of an H100)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_check.cuh"

constexpr int kThreads = 256, kStages = 3, kRows = 64;

enum Form { kCaLtc, kCaLtcNull, kCaLtcSize0, kCgLtc, kCgLtcSize, kCaLtc16, kCg16 };

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// One copy of `Bytes` bytes in form F; `in` false: the lane fills zeros.
template <Form F, int Bytes>
__device__ __forceinline__ void copy(void* dst, const void* src, bool in) {
  const uint32_t d = smem_addr(dst);
  if constexpr (F == kCaLtc) {
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2;" ::"r"(d), "l"(src), "n"(Bytes) : "memory");
  } else if constexpr (F == kCaLtcNull) {
    const void* s = in ? src : nullptr;
    asm volatile("{ .reg .pred q; setp.eq.u32 q, %2, 0; cp.async.ca.shared.global.L2::128B [%0], [%1], %3, q; }"
                 ::"r"(d), "l"(s), "r"(in ? 1u : 0u), "n"(Bytes) : "memory");
  } else if constexpr (F == kCaLtcSize0) {
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2, %3;"
                 ::"r"(d), "l"(src), "n"(Bytes), "r"(in ? Bytes : 0) : "memory");
  } else if constexpr (F == kCgLtc) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
  } else if constexpr (F == kCgLtcSize) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(in ? 16 : 0)
                 : "memory");
  } else if constexpr (F == kCaLtc16) {
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
  }
}

__device__ __forceinline__ void commit_and_wait_one() {
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 1;" ::: "memory");
}

// float32 A tile: 64 rows x 8 floats a stage, two copies a thread, stored
// as [8][68] (transposed, rows padded to 68 words, as cuBLAS's).
template <Form F>
__global__ void __launch_bounds__(kThreads) f32_tile(const float* a, int ld, int k_total, float* out) {
  __shared__ __align__(128) float s[kStages][8][68];
  const int tid = threadIdx.x, row0 = blockIdx.x * kRows, tiles = (k_total + 7) / 8;
  float sum = 0.f;
  auto issue = [&](int t) {
    if (t < tiles) {
      for (int i = 0; i < 2; ++i) {
        const int e = i * kThreads + tid, row = e / 8, kk = e % 8, k = t * 8 + kk;
        const bool in = k < k_total;
        copy<F, 4>(&s[t % kStages][kk][row], a + size_t(row0 + row) * ld + k, in);  // k < ld: in bounds
      }
    }
  };
  issue(0);
  asm volatile("cp.async.commit_group;" ::: "memory");
  issue(1);
  for (int t = 0; t < tiles; ++t) {
    commit_and_wait_one();
    __syncthreads();
    sum += s[t % kStages][tid / 32][tid % 32] + s[t % kStages][tid / 32][32 + tid % 32];
    __syncthreads();
    issue(t + 2);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[blockIdx.x * kThreads + tid] = sum;
}

// 16-bit tile: 64 rows x 64 halves (128 bytes) a stage, two 16-byte copies
// a thread; chunk c of row r lands at chunk c ^ (r % 8).
template <Form F>
__global__ void __launch_bounds__(kThreads) h16_tile(const uint16_t* b, int ld, int k_total, float* out) {
  __shared__ __align__(128) uint16_t s[kStages][kRows][64];
  const int tid = threadIdx.x, row0 = blockIdx.x * kRows, tiles = k_total / 64;
  float sum = 0.f;
  auto issue = [&](int t) {
    if (t < tiles) {
      for (int i = 0; i < 2; ++i) {
        const int e = i * kThreads + tid, row = e / 8, chunk = e % 8;
        copy<F, 16>(&s[t % kStages][row][8 * (chunk ^ (row % 8))], b + size_t(row0 + row) * ld + t * 64 + 8 * chunk,
                    true);
      }
    }
  };
  issue(0);
  asm volatile("cp.async.commit_group;" ::: "memory");
  issue(1);
  for (int t = 0; t < tiles; ++t) {
    commit_and_wait_one();
    __syncthreads();
    for (int j = 0; j < 16; ++j) sum += float(s[t % kStages][j * 4 + tid / 64][tid % 64]);
    __syncthreads();
    issue(t + 2);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[blockIdx.x * kThreads + tid] = sum;
}

// Fills a matrix of blocks * 64 rows of `ld` elements with small integers
// (value(i)), runs `kernel` on it and checks the blocks' sums against the
// host's sum of every row's first k_total elements: the integers keep every
// float sum exact, so the two must be equal.
template <class T, class Kernel, class Value>
static int run(const char* name, Kernel kernel, int blocks, int ld, int k_total, Value value) {
  const size_t rows = size_t(blocks) * kRows;
  std::vector<T> h(rows * ld);
  for (size_t i = 0; i < h.size(); ++i) h[i] = value(i);
  double want = 0;
  for (size_t r = 0; r < rows; ++r)
    for (int k = 0; k < k_total; ++k) want += double(h[r * ld + k]);
  T* in = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&in, sizeof(T) * h.size()));
  CHECK(cudaMalloc(&out, sizeof(float) * blocks * kThreads));
  CHECK(cudaMemcpy(in, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
  kernel<<<blocks, kThreads>>>(in, ld, k_total, out);
  CHECK(cudaGetLastError());
  std::vector<float> got(blocks * kThreads);
  CHECK(cudaMemcpy(got.data(), out, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  double total = 0;
  for (float g : got) total += g;
  const bool ok = total == want;
  std::printf("%-16s sum %.0f expected %.0f %s\n", name, total, want, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

template <Form F>
static int run_f32(const char* name, int blocks, int ld, int k_total) {
  return run<float>(name, f32_tile<F>, blocks, ld, k_total, [](size_t i) { return float(int(i % 7) - 3); });
}

template <Form F>
static int run_h16(const char* name, int blocks, int ld, int k_total) {
  // read back as integers, not as halves
  return run<uint16_t>(name, h16_tile<F>, blocks, ld, k_total, [](size_t i) { return uint16_t(i % 5); });
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 264;
  if (blocks < 1 || blocks > 4096) {
    std::fprintf(stderr, "BLOCKS must be 1..4096\n");
    return 2;
  }
  int bad = 0;
  bad += run_f32<kCaLtc>("f32_ld512", blocks, 512, 256);
  bad += run_f32<kCaLtc>("f32_ld1000", blocks, 1000, 256);
  bad += run_f32<kCaLtcNull>("f32_null_edge", blocks, 1000, 252);
  bad += run_f32<kCaLtcSize0>("f32_size0_edge", blocks, 1000, 252);
  bad += run_f32<kCaLtcNull>("f32_null_ld512", blocks, 512, 252);
  bad += run_f32<kCaLtcSize0>("f32_size0_ld512", blocks, 512, 252);
  bad += run_h16<kCgLtc>("h16_cg_ltc", blocks, 512, 512);
  bad += run_h16<kCgLtcSize>("h16_cg_size", blocks, 512, 512);
  bad += run_h16<kCaLtc16>("h16_ca_ltc", blocks, 512, 512);
  bad += run_h16<kCg16>("h16_cg", blocks, 512, 512);
  bad += run_h16<kCgLtc>("h16_cg_ltc_split", blocks, 544, 512);
  bad += run_h16<kCgLtcSize>("h16_cg_size_split", blocks, 544, 512);
  return bad == 0 ? 0 : 1;
}
