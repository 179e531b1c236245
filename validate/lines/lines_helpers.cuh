// Shared-memory helpers of lines_kernels.cu, in a header so that an access
// written here and inlined into a kernel has a line in this file and an
// inlined-at chain into lines_kernels.cu (validate/lines/README.md). Each
// MARK comment names the line of one access; the checker finds the lines by
// those comments, never by what bankcheck printed.
#pragma once

// Lane i reads word i * STRIDE: with STRIDE 4, lanes i, i + 8, i + 16 and
// i + 24 share a bank at 4 distinct words (4 wavefronts, ideal 1).
template <unsigned STRIDE>
__device__ __forceinline__ float strided_read(const float* s, unsigned i) {
  return s[i * STRIDE];  // MARK: header strided read
}

// One level further out: the read above is inlined here, and this into the
// kernel, so the read's chain is this line, then the kernel's call.
__device__ __forceinline__ float gather_row(const float* s, unsigned lane) {
  return strided_read<4>(s, lane) * 2.0f;  // MARK: header gather call
}

// Lane i writes word 2 i: lanes i and i + 16 share a bank at 2 distinct words.
__device__ __forceinline__ void spread_store(float* s, unsigned lane, float v) {
  s[lane * 2] = v;  // MARK: header spread store
}
