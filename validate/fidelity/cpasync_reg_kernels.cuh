// The zero-fill form of cp.async with its predicate operand in a chosen
// register, negated or not (docs/bank-model.md, rule 6c): which register
// ptxas gives the operand, and whether it negates it, is its choice, so
// these kernels steer it. Keep predicates computed before the copy and used
// after it (stores that never happen: p.keep is 0 at run time) occupy P0 ..
// P(Keep-1) across the copy, pushing its operand to a higher register. The
// ignore-src predicate of the negated kernels is `value != 0` on a value
// ptxas cannot see through (the source size XOR p.fillkey, the copy's width:
// non-zero exactly for a lane that fills zeros), which ptxas keeps as it is
// and passes as `!Pn` (the operand reads when true); the others test `size
// == 0`, which ptxas flips into a plain `Pn`. validate/fidelity/
// cpasync_on_gpu.sh records the SASS each kernel got; the case generator
// (make_cpasync_cases.py, REG_FORMS) names the kernels by form, `neg` or
// `pos` and Keep. Same launch shape and addressing as cpasync_probe.
template <int Size, bool CG, bool LTC, bool Neg>
__device__ __forceinline__ void reg_copy(uint32_t dst, const void* src, uint32_t n, uint32_t fillkey, uint32_t on) {
  if constexpr (Neg) {
    if constexpr (CG && LTC)
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.ne.b32 q, %2, 0; "
                   "@p cp.async.cg.shared.global.L2::128B [%0], [%1], 16, q; }"
                   ::"r"(dst), "l"(src), "r"(n ^ fillkey), "r"(on) : "memory");
    else if constexpr (CG)
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.ne.b32 q, %2, 0; "
                   "@p cp.async.cg.shared.global [%0], [%1], 16, q; }"
                   ::"r"(dst), "l"(src), "r"(n ^ fillkey), "r"(on) : "memory");
    else
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.ne.b32 q, %2, 0; "
                   "@p cp.async.ca.shared.global [%0], [%1], %4, q; }"
                   ::"r"(dst), "l"(src), "r"(n ^ fillkey), "r"(on), "n"(Size) : "memory");
  } else {
    if constexpr (CG && LTC)
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.eq.b32 q, %2, 0; "
                   "@p cp.async.cg.shared.global.L2::128B [%0], [%1], 16, q; }"
                   ::"r"(dst), "l"(src), "r"(n), "r"(on) : "memory");
    else if constexpr (CG)
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.eq.b32 q, %2, 0; "
                   "@p cp.async.cg.shared.global [%0], [%1], 16, q; }"
                   ::"r"(dst), "l"(src), "r"(n), "r"(on) : "memory");
    else
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.eq.b32 q, %2, 0; "
                   "@p cp.async.ca.shared.global [%0], [%1], %4, q; }"
                   ::"r"(dst), "l"(src), "r"(n), "r"(on), "n"(Size) : "memory");
  }
}

template <int Size, bool CG, bool LTC, bool Neg, int Keep>
__global__ void __launch_bounds__(256) reg_probe(const __grid_constant__ Params p, const uint8_t* g) {
  if constexpr (Keep < 0) {  // flat: one stage, no guard (every lane copies): fewer live predicates
    extern __shared__ __align__(1024) uint8_t smem[];
    const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const unsigned gwarp = blockIdx.x * (blockDim.x / kWarp) + warp;
    bool keep[-Keep];
#pragma unroll
    for (int i = 0; i < -Keep - 1; ++i) keep[i] = (p.keep >> ((lane + i) % kWarp)) & 1u;
    if (p.stagger != 0) {  // before the copy: its predicates are dead there, the operand's register stays
      const long long t0 = clock64(), wait = (long long)p.stagger * (gwarp % 8);
      while (clock64() - t0 < wait) {
      }
    }
    const uint32_t n = p.size[lane];
    const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + warp * kWarpShared + p.dst[lane];
    reg_copy<Size, CG, LTC, Neg>(dst, g + size_t(gwarp) * p.warp_stride + p.src[lane], n, p.fillkey, 1u);
    asm volatile("cp.async.wait_all;" ::: "memory");
    uint32_t* out = reinterpret_cast<uint32_t*>(const_cast<uint8_t*>(g));
#pragma unroll
    for (int i = 0; i < -Keep - 1; ++i)
      if (keep[i]) out[i] = 1;
    return;
  } else {
  extern __shared__ __align__(1024) uint8_t smem[];
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const unsigned gwarp = blockIdx.x * (blockDim.x / kWarp) + warp;
  bool keep[Keep > 0 ? Keep : 1];
#pragma unroll
  for (int i = 0; i < Keep; ++i) keep[i] = (p.keep >> ((lane + i) % kWarp)) & 1u;
  if (p.stagger != 0) {
    const long long t0 = clock64(), wait = (long long)p.stagger * (gwarp % 8);
    while (clock64() - t0 < wait) {
    }
  }
  const uint32_t on = (p.active >> lane) & 1u, n = p.size[lane];
  const bool null_src = n == 0 && p.zero_null != 0;
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + warp * p.stages * kWarpShared + p.dst[lane];
  const uint8_t* src = g + size_t(gwarp) * p.warp_stride + p.src[lane];
#pragma unroll 1
  for (unsigned s = 0; s < p.stages; ++s) {
    reg_copy<Size, CG, LTC, Neg>(dst + s * kWarpShared, null_src ? nullptr : src + size_t(s) * p.stage_stride, n,
                                 p.fillkey, on);
    asm volatile("cp.async.commit_group;" ::: "memory");
    if (p.wait_each) asm volatile("cp.async.wait_all;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  uint32_t* out = reinterpret_cast<uint32_t*>(const_cast<uint8_t*>(g));
#pragma unroll
  for (int i = 0; i < Keep; ++i)
    if (keep[i]) out[i] = 1;
  }
}

// The table's zmode: negN / posN, the register Pn ptxas gives the operand
// (cuda 13.0, sm_90a: the script's SASS listing checks it, and the collector
// takes the form from the measured SASS). "f" kernels are flat (Keep < 0:
// -Keep - 1 kept predicates; every lane copies, one stage); the others take
// the full case (guard, stages, stagger) with the register ptxas gives it;
// the flat ones take the stagger too (timing twins).
#define REG_K(form, S, CG, LTC, NEG, KEEP, NAME) \
  {form, NAME, reg_probe<S, CG, LTC, NEG, KEEP>, "reg_probe<" #S ", " #CG ", " #LTC ", " #NEG ", " #KEEP ">"}
#define REG_FLAT(form, S, CG, LTC, NEG, PFX)                                                                   \
  REG_K(form, S, CG, LTC, NEG, -1, PFX "f0"), REG_K(form, S, CG, LTC, NEG, -3, PFX "f1"),                     \
      REG_K(form, S, CG, LTC, NEG, -4, PFX "f2"), REG_K(form, S, CG, LTC, NEG, -5, PFX "f3"),                 \
      REG_K(form, S, CG, LTC, NEG, -6, PFX "f4"), REG_K(form, S, CG, LTC, NEG, -7, PFX "f5"),                 \
      REG_K(form, S, CG, LTC, NEG, -8, PFX "f6")
#define REG_FORM(form, S, CG, LTC)                                                                          \
  REG_FLAT(form, S, CG, LTC, true, "neg"), REG_FLAT(form, S, CG, LTC, false, "pos"),                        \
      REG_K(form, S, CG, LTC, true, 0, "neg3"), REG_K(form, S, CG, LTC, true, 1, "neg2"),                  \
      REG_K(form, S, CG, LTC, false, 0, "pos3"), REG_K(form, S, CG, LTC, false, 2, "pos2")
#define REG_KERNELS                                                                                    \
  REG_FORM("ca4", 4, false, false), REG_FORM("ca8", 8, false, false), REG_FORM("ca16", 16, false, false), \
      REG_FORM("cg16", 16, true, false), REG_FORM("cg16l", 16, true, true)
