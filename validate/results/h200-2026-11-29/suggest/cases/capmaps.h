// Written by validate/suggest/capmaps.py from bankcheck suggest --json.
// ldsm_trans (case 0): buffer at 1024, 8192 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 1) & 0x40)
// cpasync_ldsm (case 1): buffer at 1024, 8192 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 3) & 0x70)
// sgemm (case 2): buffer at 1024, 4096 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 5) & 0x70)
// row_scan (case 3): buffer at 1024, 8192 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 6) & 0x7c)
// softmax (case 4): buffer at 1024, 16384 bytes: best found: 3072 wavefronts above the ideal remain: b ^ ((b >> 5) & 0x70)
// transpose_fp16 (case 5): buffer at 1024, 8192 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 5) & 0x7c)
// matvec (case 6): buffer at 1024, 8192 bytes: best found: 512 wavefronts above the ideal remain: b ^ ((b >> 5) & 0x78)
// stmatrix (case 7): buffer at 1024, 8192 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 3) & 0x70)
// transpose_int8 (case 8): buffer at 1024, 4096 bytes: conflict-free: the map meets every request's ideal: b ^ ((b >> 5) & 0x3c)
#pragma once
__device__ __forceinline__ unsigned capmap(int c, unsigned b) {
  switch (c) {
    case 0: return (b ^ ((b >> 1) & 0x40));
    case 1: return (b ^ ((b >> 3) & 0x70));
    case 2: return (b ^ ((b >> 5) & 0x70));
    case 3: return (b ^ ((b >> 6) & 0x7c));
    case 4: return (b ^ ((b >> 5) & 0x70));
    case 5: return (b ^ ((b >> 5) & 0x7c));
    case 6: return (b ^ ((b >> 5) & 0x78));
    case 7: return (b ^ ((b >> 3) & 0x70));
    case 8: return (b ^ ((b >> 5) & 0x3c));
    default: return b;
  }
}
constexpr bool kHasCap[16] = {true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false};
