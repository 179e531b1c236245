// Shared-memory accesses with known bank conflicts on known source lines,
// built with -lineinfo, for checking the source lines bankcheck gives each
// captured instruction against Nsight Compute's source page
// (validate/lines/README.md). Each MARK comment names the line of one
// access; the checker (check_lines.py) finds the lines by those comments.
// The header's accesses are inlined, one of them two levels deep, so their
// inlined-at chain ends in this file.
//
//   nvcc -arch=sm_90 -O2 -lineinfo -o lines_kernels validate/lines/lines_kernels.cu
//   lines_kernels         (prints "lines_kernels: ok" when every result equals the host's)
#include <cstdio>
#include <vector>

#include "../cuda_check.cuh"
#include "lines_helpers.cuh"

namespace {

constexpr unsigned kWarp = 32;

// 32 x 32 threads: the row store is conflict-free, the column load puts the
// 32 lanes of a warp in one bank at 32 distinct words (32-way).
__global__ void column_load(float* out, const float* in) {
  __shared__ float tile[kWarp][kWarp];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * kWarp + x];  // MARK: kernel row store
  __syncthreads();
  out[y * kWarp + x] = tile[x][y];  // MARK: kernel column load
}

// 4 warps of 32: the loads and the store are written in lines_helpers.cuh.
__global__ void header_chain(float* out, const float* in) {
  __shared__ float rows[4][4 * kWarp];
  __shared__ float spread[4][2 * kWarp];
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  for (unsigned k = 0; k < 4; ++k) rows[warp][k * kWarp + lane] = in[threadIdx.x * 4 + k];
  __syncwarp();
  const float v = gather_row(rows[warp], lane);  // MARK: kernel gather call
  spread_store(spread[warp], lane, v);  // MARK: kernel spread call
  __syncwarp();
  // Only the even words were written: lane i reads words 2 i and 2 i + 2 (mod 64), 2-way each.
  out[threadIdx.x] = spread[warp][2 * lane] + spread[warp][(2 * lane + 2) % (2 * kWarp)];  // MARK: kernel spread reads
}

// One line, four loads after unrolling: lane i reads word 32 i + 8 k, all
// lanes in bank 8 k (32-way each).
__global__ void unrolled_rows(float* out, const float* in) {
  __shared__ float tile[kWarp][kWarp];
  const unsigned lane = threadIdx.x;
  for (unsigned r = 0; r < kWarp; ++r) tile[r][lane] = in[r * kWarp + lane];
  __syncwarp();
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < 4; ++k) acc += tile[lane][k * 8];  // MARK: kernel unrolled loads
  out[lane] = acc;
}

// 8-byte loads, lane i at byte 16 i: words 4 i and 4 i + 1.
__global__ void wide_load(double* out, const double* in) {
  __shared__ double buf[2 * kWarp];
  const unsigned lane = threadIdx.x;
  buf[lane] = in[lane];
  buf[lane + kWarp] = in[lane + kWarp];
  __syncwarp();
  out[lane] = buf[2 * lane];  // MARK: kernel wide load
}

bool check(const char* name, const std::vector<float>& got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", name, i, got[i], want[i]);
      return false;
    }
  return true;
}

template <typename T>
std::vector<T> run(void (*kernel)(T*, const T*), dim3 block, const std::vector<T>& in, size_t out_size) {
  T *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(T)));
  CHECK(cudaMalloc(&d_out, out_size * sizeof(T)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(T), cudaMemcpyHostToDevice));
  kernel<<<1, block>>>(d_out, d_in);
  CHECK(cudaGetLastError());
  std::vector<T> out(out_size);
  CHECK(cudaMemcpy(out.data(), d_out, out_size * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return out;
}

}  // namespace

int main() {
  bool ok = true;
  std::vector<float> in(kWarp * kWarp);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 997);

  std::vector<float> want(kWarp * kWarp);
  for (unsigned y = 0; y < kWarp; ++y)
    for (unsigned x = 0; x < kWarp; ++x) want[y * kWarp + x] = in[x * kWarp + y];
  ok &= check("column_load", run(column_load, dim3(kWarp, kWarp), in, want.size()), want);

  // header_chain: warp w's row holds in[(w*32 + j/4)*4 + j%4] at j; lane i reads j = 4 i.
  want.assign(4 * kWarp, 0);
  for (unsigned w = 0; w < 4; ++w) {
    std::vector<float> spread(2 * kWarp, 0);
    for (unsigned i = 0; i < kWarp; ++i) {
      const unsigned j = 4 * i, t = w * kWarp + (j % kWarp);
      spread[2 * i] = in[t * 4 + j / kWarp] * 2.0f;
    }
    for (unsigned i = 0; i < kWarp; ++i) want[w * kWarp + i] = spread[2 * i] + spread[(2 * i + 2) % (2 * kWarp)];
  }
  ok &= check("header_chain", run(header_chain, dim3(4 * kWarp), in, want.size()), want);

  want.assign(kWarp, 0);
  for (unsigned i = 0; i < kWarp; ++i)
    for (unsigned k = 0; k < 4; ++k) want[i] += in[i * kWarp + k * 8];
  ok &= check("unrolled_rows", run(unrolled_rows, dim3(kWarp), in, want.size()), want);

  std::vector<double> din(2 * kWarp);
  for (size_t i = 0; i < din.size(); ++i) din[i] = 0.5 * static_cast<double>(i);
  const auto dout = run(wide_load, dim3(kWarp), din, kWarp);
  for (unsigned i = 0; i < kWarp; ++i)
    if (dout[i] != din[2 * i]) {
      std::fprintf(stderr, "wide_load: element %u is %g, expected %g\n", i, dout[i], din[2 * i]);
      ok = false;
    }
  CHECK(cudaDeviceSynchronize());
  std::printf("lines_kernels: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
