// The kernels of suggest_kernels.cu, each templated on its tile's layout L
// (L::at: element offset of the row-major index x = row * COLS + col). Every
// shared access is written so that its warp instructions are exactly the
// lane maps `bankcheck layout` plans for the access kind named beside it
// (docs/layout.md, "Access kinds and their lane maps"); the instruction
// numbers i below are that plan's.
#pragma once
#include "suggest_common.cuh"

// 64x64 fp16 tile: st.128 rows in, ldmatrix.x4[.trans] out (kTrans), or
// cp.async.16 rows in (kAsync). Each lane's four registers go to out.
template <class L, bool kTrans, bool kAsync>
__global__ void ldsm_tile(const uint4* in, uint4* out) {
  __shared__ __align__(1024) __half tile[64 * 64];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const uint4* src = in + static_cast<size_t>(blockIdx.x) * 512;
#pragma unroll
  for (int j = 0; j < 4; ++j) {  // st.128 / cp.async.16 instruction i = 4 j + w: vector 32 i + l
    const int idx = 128 * j + t, row = idx / 8, cv = idx % 8 * 8;
    __half* dst = &tile[L::at(row * 64 + cv)];
    if constexpr (kAsync)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(dst)), "l"(src + idx));
    else
      *reinterpret_cast<uint4*>(dst) = src[idx];
  }
  if constexpr (kAsync) asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 4; ++k) {  // ldmatrix.x4 instruction i: matrices 4 i .. 4 i + 3, lane 8 j + r row r of the j-th
    const int i = 4 * w + k, m = 4 * i + l / 8, row = m / 8 * 8 + l % 8, col = m % 8 * 8;
    const unsigned a = smem_u32(&tile[L::at(row * 64 + col)]);
    uint4 r;
    if constexpr (kTrans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "r"(a));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "r"(a));
    out[static_cast<size_t>(blockIdx.x) * 512 + i * 32 + l] = r;
  }
}

// SGEMM block tile 128 x 32, k-step 8: As (8 x 128 fp32, k-major) written
// transposed (st.32 along the rows), read as float4 rows (ld.128, all 4 warps).
template <class L>
__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[8 * 128];
  __shared__ __align__(16) float Bs[8 * 32];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 32;
  float acc[4][8] = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {  // st.32,along=0 instruction 4 j + w: row idx % 8, column idx / 8
      const int idx = 128 * j + t;
      As[L::at(idx % 8 * 128 + idx / 8)] = A[static_cast<size_t>(m0 + idx / 8) * K + k0 + idx % 8];
    }
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const int idx = 128 * j + t;
      Bs[idx] = B[static_cast<size_t>(k0 + idx / 32) * N + n0 + idx % 32];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 8; ++k) {  // ld.128 instruction k: row k, lane l columns 4 l .. 4 l + 3
      const float4 a = *reinterpret_cast<const float4*>(&As[L::at(k * 128 + 4 * l)]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k * 32 + w * 8]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k * 32 + w * 8 + 4]);
      const float av[4] = {a.x, a.y, a.z, a.w}, bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) acc[r][c] = fmaf(av[r], bv[c], acc[r][c]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) C[static_cast<size_t>(m0 + 4 * l + r) * N + n0 + w * 8 + c] = acc[r][c];
}

// Row-wise inclusive scan of a 32 x 64 fp32 tile by one warp (a summed-area
// table's first pass): rows in (st.32), lane l scans row l (ld.32 and st.32
// along the columns), rows out (ld.32).
template <class L>
__global__ void row_scan(const float* in, float* out) {
  __shared__ float tile[32 * 64];
  const int l = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * 2048;
#pragma unroll 4
  for (int i = 0; i < 64; ++i) tile[L::at(i / 2 * 64 + i % 2 * 32 + l)] = in[base + i * 32 + l];
  __syncwarp();
  float s = 0;
#pragma unroll 4
  for (int c = 0; c < 64; ++c) {  // instruction c of ld.32,along=0 and st.32,along=0: column c, lane l row l
    s += tile[L::at(l * 64 + c)];
    tile[L::at(l * 64 + c)] = s;
  }
  __syncwarp();
#pragma unroll 4
  for (int i = 0; i < 64; ++i) out[base + i * 32 + l] = tile[L::at(i / 2 * 64 + i % 2 * 32 + l)];
}

// Softmax of 32 rows x 128 fp32: rows in as float4 (st.128), warp 0's lane l
// takes row l's max and sum (ld.32 along the columns, two passes), rows out as
// float4 (ld.128).
template <class L>
__global__ void softmax_rows(const float4* in, float4* out) {
  __shared__ __align__(16) float tile[32 * 128];
  __shared__ float mx[32], inv[32];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const size_t base = static_cast<size_t>(blockIdx.x) * 1024;
#pragma unroll
  for (int j = 0; j < 8; ++j) {  // st.128 instruction = row w + 4 j
    const int row = w + 4 * j;
    *reinterpret_cast<float4*>(&tile[L::at(row * 128 + 4 * l)]) = in[base + row * 32 + l];
  }
  __syncthreads();
  if (w == 0) {  // volatile: one 4-byte load per column, as planned (else nvcc merges a row's loads)
    const volatile float* vt = tile;
    float m = -INFINITY, s = 0;
    for (int c = 0; c < 128; ++c) m = fmaxf(m, vt[L::at(l * 128 + c)]);
    for (int c = 0; c < 128; ++c) s += __expf(vt[L::at(l * 128 + c)] - m);
    mx[l] = m;
    inv[l] = 1.0f / s;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j) {  // ld.128 instruction = row w + 4 j
    const int row = w + 4 * j;
    float4 v = *reinterpret_cast<const float4*>(&tile[L::at(row * 128 + 4 * l)]);
    const float m = mx[row], q = inv[row];
    v = make_float4(__expf(v.x - m) * q, __expf(v.y - m) * q, __expf(v.z - m) * q, __expf(v.w - m) * q);
    out[base + row * 32 + l] = v;
  }
}

// Transpose of an n x n matrix of T (2-byte fp16 or 1-byte int8) through a 64 x
// 64 tile, 8 warps: st.16/st.8 instruction i = 8 j + w holds row i / 2,
// columns 32 (i % 2) + l; ld.16/ld.8 along the rows, instruction i column i / 2,
// rows 32 (i % 2) + l.
template <class L, class T>
__global__ void transpose64(const T* in, T* out, int n) {
  __shared__ T tile[64 * 64];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const int bx = blockIdx.x * 64, by = blockIdx.y * 64;
#pragma unroll 4
  for (int j = 0; j < 16; ++j) {
    const int i = 8 * j + w, row = i / 2, col = i % 2 * 32 + l;
    tile[L::at(row * 64 + col)] = in[static_cast<size_t>(by + row) * n + bx + col];
  }
  __syncthreads();
#pragma unroll 4
  for (int j = 0; j < 16; ++j) {
    const int i = 8 * j + w, col = i / 2, row = i % 2 * 32 + l;
    out[static_cast<size_t>(bx + col) * n + by + row] = tile[L::at(row * 64 + col)];
  }
}

// y = A x over 32-row blocks and 64-column tiles: the tile comes in as
// float2 (st.64, instruction = row w + 4 j), each warp sums 16 of its columns
// for the 32 rows (ld.32 along the columns: instruction c, lane l row l).
template <class L>
__global__ void matvec(const float2* A, const float* x, float* y, int N) {
  __shared__ __align__(16) float tile[32 * 64];
  __shared__ float part[4][32];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const int r0 = blockIdx.x * 32;
  float acc = 0;
  for (int c0 = 0; c0 < N; c0 += 64) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int row = w + 4 * j;
      *reinterpret_cast<float2*>(&tile[L::at(row * 64 + 2 * l)]) = A[(static_cast<size_t>(r0 + row) * N + c0) / 2 + l];
    }
    __syncthreads();
    const volatile float* vt = tile;  // one 4-byte load per column, as planned (else nvcc merges a row's loads)
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      const int c = 16 * w + k;
      acc = fmaf(vt[L::at(l * 64 + c)], __ldg(&x[c0 + c]), acc);
    }
    __syncthreads();
  }
  part[w][l] = acc;
  __syncthreads();
  if (w == 0) y[r0 + l] = (part[0][l] + part[1][l]) + (part[2][l] + part[3][l]);
}

// Epilogue: an mma-fragment-shaped 64 x 64 fp16 tile stored with
// stmatrix.x4 (instruction i = 4 w + k: matrices 4 i .. 4 i + 3), read back
// as 16-byte rows (ld.128, instruction 4 j + w) and written out coalesced.
__device__ __forceinline__ __half epilogue_value(size_t tile, int row, int col) {
  return __float2half(static_cast<float>((row * 131 + col * 7 + static_cast<int>(tile % 4096) * 3) % 1024));
}

template <class L>
__global__ void stmatrix_epilogue(uint4* out) {
  __shared__ __align__(1024) __half tile[64 * 64];
  const int t = threadIdx.x, w = t / 32, l = t % 32;
  const size_t tid = blockIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int i = 4 * w + k;
    unsigned reg[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {  // register q: matrix 4 i + q, row l / 4, columns 2 (l % 4), +1
      const int m = 4 * i + q, row = m / 8 * 8 + l / 4, col = m % 8 * 8 + 2 * (l % 4);
      const __half2 v = __halves2half2(epilogue_value(tid, row, col), epilogue_value(tid, row, col + 1));
      reg[q] = *reinterpret_cast<const unsigned*>(&v);
    }
    const int m = 4 * i + l / 8, row = m / 8 * 8 + l % 8, col = m % 8 * 8;
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(
                     smem_u32(&tile[L::at(row * 64 + col)])),
                 "r"(reg[0]), "r"(reg[1]), "r"(reg[2]), "r"(reg[3]));
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int idx = 128 * j + t, row = idx / 8, cv = idx % 8 * 8;
    out[tid * 512 + idx] = *reinterpret_cast<const uint4*>(&tile[L::at(row * 64 + cv)]);
  }
}
