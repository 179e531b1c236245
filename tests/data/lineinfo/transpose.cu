// Two 32x32 transposes of one block (32x32 threads), compiled with line info
// for the source-line tests (tests/data/lineinfo/README.md): the naive one
// reads its tile down a column (32-way bank conflicts), the padded one reads
// a tile of row pitch 33 (none). Each MARK comment names the line of a
// shared-memory access; the tests find the lines by those comments.
__device__ __forceinline__ float column_of(const float (*tile)[32], unsigned x, unsigned y) {
  return tile[x][y];  // MARK: naive column load
}

__global__ void transpose_naive(float* out, const float* in) {
  __shared__ float tile[32][32];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];  // MARK: naive row store
  __syncthreads();
  out[y * 32 + x] = column_of(tile, x, y);  // MARK: naive call
}

__global__ void transpose_padded(float* out, const float* in) {
  __shared__ float tile[32][33];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];  // MARK: padded row store
  __syncthreads();
  out[y * 32 + x] = tile[x][y];  // MARK: padded column load
}
