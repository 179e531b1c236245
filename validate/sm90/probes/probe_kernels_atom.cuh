#pragma once
// Shared atomics (ATOMS), one kernel per operation and form.
#include "probe_kernel_common.cuh"

// Written in PTX so that exactly the intended atom/red reaches ptxas. Which
// ones become one ATOMS and which a CAS loop (LDS + ATOMS.CAST.SPIN) is
// documented in README.md and checked by check_sass.py.
#define ATOM_KERNEL(NAME, BODY)                                         \
  __global__ void __launch_bounds__(kWarp) probe_atom_##NAME(PROBE_PARAMS) { \
    __shared__ __align__(16) uint8_t smem[kSharedBytes];                \
    const unsigned lane = threadIdx.x;                                  \
    const uint32_t a = shared_base(smem) + p.a[lane];                   \
    (void)a; (void)g;                                                   \
    if ((active >> lane) & 1u) { BODY }                                 \
  }

ATOM_KERNEL(add_u32, uint32_t r; asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(red_add_u32, asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(lane) : "memory");)
ATOM_KERNEL(add_f32, float r; asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(r) : "r"(a), "f"(1.0f) : "memory"); USE32(__float_as_uint(r)))
ATOM_KERNEL(red_add_f32, asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(a), "f"(1.0f) : "memory");)
ATOM_KERNEL(add_u64, u64 r; asm volatile("atom.shared.add.u64 %0, [%1], %2;" : "=l"(r) : "r"(a), "l"(u64(lane)) : "memory"); USE64(r))
ATOM_KERNEL(cas_b32, uint32_t r; asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(a), "r"(0u), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(cas_b64, u64 r; asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "r"(a), "l"(0ull), "l"(u64(lane)) : "memory"); USE64(r))
ATOM_KERNEL(exch_b32, uint32_t r; asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(exch_b64, u64 r; asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(r) : "r"(a), "l"(u64(lane)) : "memory"); USE64(r))
ATOM_KERNEL(min_s32, uint32_t r; asm volatile("atom.shared.min.s32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(min_u32, uint32_t r; asm volatile("atom.shared.min.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(max_s32, uint32_t r; asm volatile("atom.shared.max.s32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(max_u32, uint32_t r; asm volatile("atom.shared.max.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(and_b32, uint32_t r; asm volatile("atom.shared.and.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(or_b32, uint32_t r; asm volatile("atom.shared.or.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(xor_b32, uint32_t r; asm volatile("atom.shared.xor.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(lane) : "memory"); USE32(r))
ATOM_KERNEL(inc_u32, uint32_t r; asm volatile("atom.shared.inc.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(1000u) : "memory"); USE32(r))
ATOM_KERNEL(red_min_u32, asm volatile("red.shared.min.u32 [%0], %1;" ::"r"(a), "r"(lane) : "memory");)
ATOM_KERNEL(red_or_b32, asm volatile("red.shared.or.b32 [%0], %1;" ::"r"(a), "r"(lane) : "memory");)
// The CUDA builtins as programs write them (the compiler picks the form):
// atomicAdd(p, 1) with the result unused becomes a warp-aggregated
// ATOMS.POPC.INC; with a lane-dependent value and unused result, ATOMS.ADD RZ.
ATOM_KERNEL(builtin_inc1_unused, atomicAdd(reinterpret_cast<int*>(smem + p.a[lane]), 1);)
ATOM_KERNEL(builtin_add_unused, atomicAdd(reinterpret_cast<int*>(smem + p.a[lane]), int(lane));)
ATOM_KERNEL(builtin_add_used, int r = atomicAdd(reinterpret_cast<int*>(smem + p.a[lane]), int(lane)); USE32(uint32_t(r)))
