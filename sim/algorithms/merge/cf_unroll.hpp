#pragma once
// BANKCHECK_CF_UNROLL: `#pragma unroll` on the GPU, nothing on the host. The
// kernel forms of CF-Merge unroll their loops over a thread's E items, so
// that a register array indexed by the loop variable stays in registers.
#if defined(__CUDA_ARCH__)
#define BANKCHECK_CF_UNROLL _Pragma("unroll")
#else
#define BANKCHECK_CF_UNROLL
#endif
