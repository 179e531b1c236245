#pragma once
// cp.async (LDGSTS) into shared memory, .ca 4/8/16 bytes and .cg 16 bytes.
#include "probe_kernel_common.cuh"

// Destination p.a[lane] (shared offset), source p.s[lane] (offset into the
// 4096-byte-aligned global buffer), both from the manifest, so cases can vary
// one with the other fixed. The wait is outside the lane predicate (it moves
// no data).
template <int Size, bool CG>
__device__ __forceinline__ void cp_async(uint32_t dst, const void* src) {
  if constexpr (CG)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(Size) : "memory");
}

#define CPASYNC_KERNEL(NAME, SIZE, CG)                                            \
  __global__ void __launch_bounds__(kWarp) probe_cpasync_##NAME(PROBE_PARAMS) {   \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                         \
    const unsigned lane = threadIdx.x;                                            \
    (void)magic; (void)out;                                                       \
    if ((active >> lane) & 1u) cp_async<SIZE, CG>(shared_base(smem) + p.a[lane], g + p.s[lane]); \
    asm volatile("cp.async.wait_all;" ::: "memory");                              \
  }
CPASYNC_KERNEL(ca4, 4, false)
CPASYNC_KERNEL(ca8, 8, false)
CPASYNC_KERNEL(ca16, 16, false)
CPASYNC_KERNEL(cg16, 16, true)

// The .cg copy in the form Triton emits for masked loads when PRED: a
// run-time source size (16 here: nothing zero-filled). SASS:
// LDGSTS.E.BYPASS.128 with a predicate operand.
template <bool PRED>
__device__ __forceinline__ void cp_async_cg(uint32_t dst, const void* src, uint32_t src_size) {
  if constexpr (PRED)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(src_size) : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}

// The copy with its source already in L2 (WARM): each lane first reads its
// source through L2 only (ld.global.cg) and waits for the value, so the copy
// that follows hits where the plain probe (caches flushed by ncu) misses.
// PAIR: a second copy follows, of the other 64-byte half of each source line
// (s ^ 64) into another region (a ^ 4096), as Triton's pipeline stages issue
// them; both copies are measured.
template <bool PRED, bool WARM, bool PAIR>
__device__ __forceinline__ void cg_probe(const Lanes& p, uint32_t active, uint32_t magic, uint32_t* out,
                                         uint8_t* g, uint8_t* smem) {
  const unsigned lane = threadIdx.x;
  const bool on = (active >> lane) & 1u;
  const uint32_t src_size = active != 0 ? 16u : 0u;  // known only at run time
  if (WARM && on) {
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(g + p.s[lane]) : "memory");
    if (v == magic) out[lane] = v;
  }
  if (WARM) __syncwarp();
  if (on) {
    cp_async_cg<PRED>(shared_base(smem) + p.a[lane], g + p.s[lane], src_size);
    if (PAIR) cp_async_cg<PRED>(shared_base(smem) + (p.a[lane] ^ 4096u), g + (p.s[lane] ^ 64u), src_size);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
}

#define CG_PROBE_KERNEL(NAME, PRED, WARM, PAIR)                                   \
  __global__ void __launch_bounds__(kWarp) probe_cpasync_##NAME(PROBE_PARAMS) {  \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                        \
    cg_probe<PRED, WARM, PAIR>(p, active, magic, out, g, smem);                  \
  }
CG_PROBE_KERNEL(cg16warm, false, true, false)
CG_PROBE_KERNEL(cg16srcsize, true, false, false)
CG_PROBE_KERNEL(cg16pair, true, false, true)
CG_PROBE_KERNEL(cg16pairplain, false, false, true)
CG_PROBE_KERNEL(cg16warmsrcsize, true, true, false)

// The ignore-src form: the predicate false at run time, unknown to the compiler.
__global__ void __launch_bounds__(kWarp) probe_cpasync_cg16ignore(PROBE_PARAMS) {
  __shared__ __align__(128) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  (void)out;
  const int ignore = magic == 0xFFFFFFFFu;
  if ((active >> lane) & 1u)
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, q; }"
                 ::"r"(shared_base(smem) + p.a[lane]), "l"(g + p.s[lane]), "r"(ignore) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// .ca copies (4, 8, 16 bytes) in the source-size form (a run-time size equal
// to the copy's: nothing zero-filled): does the zero-fill form change the
// staged read and write of rule 6 as it changes .cg (rule 6c)?
#define CA_SRCSIZE_KERNEL(NAME, SIZE)                                                              \
  __global__ void __launch_bounds__(kWarp) probe_cpasync_##NAME(PROBE_PARAMS) {                   \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                                         \
    const unsigned lane = threadIdx.x;                                                            \
    (void)magic; (void)out;                                                                       \
    const uint32_t src_size = active != 0 ? SIZE : 0u;                                            \
    if ((active >> lane) & 1u)                                                                    \
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(shared_base(smem) + p.a[lane]), \
                   "l"(g + p.s[lane]), "n"(SIZE), "r"(src_size) : "memory");                     \
    asm volatile("cp.async.wait_all;" ::: "memory");                                              \
  }
CA_SRCSIZE_KERNEL(ca4srcsize, 4)
CA_SRCSIZE_KERNEL(ca8srcsize, 8)
CA_SRCSIZE_KERNEL(ca16srcsize, 16)

// The L2::128B prefetch hint (SASS .LTC128B), as cuBLAS's, cuDNN's and
// CUTLASS's copies carry it, and the ignore-src form with lanes that do
// ignore their source: a lane whose manifest source is kIgnoreSource passes
// a null pointer and a true predicate, so it reads nothing and writes zeros
// (what cuDNN's copies at a tile's edge do). LTC: the hint; IGN: the
// ignore-src form (a run-time predicate operand, true or false per lane).
constexpr uint32_t kIgnoreSource = 0xFFFFFFFFu;

template <int Size, bool CG, bool LTC, bool IGN>
__device__ __forceinline__ void cp_async_form(uint32_t dst, uint8_t* g, uint32_t s) {
  const bool ignore = s == kIgnoreSource;
  const void* src = ignore ? nullptr : static_cast<const void*>(g + s);
  const int q = ignore ? 1 : 0;
  if constexpr (!IGN) {
    if constexpr (CG && LTC)
      asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else if constexpr (LTC)
      asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(Size) : "memory");
    else
      cp_async<Size, CG>(dst, src);
  } else if constexpr (CG && LTC) {
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %2, 0; cp.async.cg.shared.global.L2::128B [%0], [%1], 16, q; }"
                 ::"r"(dst), "l"(src), "r"(q) : "memory");
  } else if constexpr (CG) {
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, q; }"
                 ::"r"(dst), "l"(src), "r"(q) : "memory");
  } else if constexpr (LTC) {
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %2, 0; cp.async.ca.shared.global.L2::128B [%0], [%1], %3, q; }"
                 ::"r"(dst), "l"(src), "r"(q), "n"(Size) : "memory");
  } else {
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %2, 0; cp.async.ca.shared.global [%0], [%1], %3, q; }"
                 ::"r"(dst), "l"(src), "r"(q), "n"(Size) : "memory");
  }
}

#define CP_FORM_KERNEL(NAME, SIZE, CG, LTC, IGN)                                                    \
  __global__ void __launch_bounds__(kWarp) probe_cpasync_##NAME(PROBE_PARAMS) {                     \
    __shared__ __align__(128) uint8_t smem[kSharedBytes];                                           \
    const unsigned lane = threadIdx.x;                                                              \
    (void)magic; (void)out;                                                                         \
    if ((active >> lane) & 1u) cp_async_form<SIZE, CG, LTC, IGN>(shared_base(smem) + p.a[lane], g, p.s[lane]); \
    asm volatile("cp.async.wait_all;" ::: "memory");                                                \
  }
CP_FORM_KERNEL(ca4ltc, 4, false, true, false)
CP_FORM_KERNEL(ca8ltc, 8, false, true, false)
CP_FORM_KERNEL(ca16ltc, 16, false, true, false)
CP_FORM_KERNEL(cg16ltc, 16, true, true, false)
CP_FORM_KERNEL(ca4ltcign, 4, false, true, true)
CP_FORM_KERNEL(ca16ltcign, 16, false, true, true)
CP_FORM_KERNEL(cg16ltcign, 16, true, true, true)
CP_FORM_KERNEL(ca4ign, 4, false, false, true)
CP_FORM_KERNEL(ca16ign, 16, false, false, true)
CP_FORM_KERNEL(cg16ign, 16, true, false, true)
