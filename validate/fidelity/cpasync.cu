// cp.async (LDGSTS) probes for the randomized campaign of docs/bank-model.md,
// rule 6: one kernel launch per case, every warp of the launch issuing the
// case's copy `stages` times (one SASS instruction in a loop, one commit
// group each), so Nsight Compute's per-instruction "L1 Wavefronts Shared"
// divided by its "Instructions Executed" is the wavefronts per execution.
//
//   cpasync CASES LAUNCH_LOG      (CASES: validate/fidelity/make_cpasync_cases.py)
//
// A case line: name form zmode blocks warps stages warp_stride stage_stride
// stagger wait_each zero_null, then 32 destinations (shared byte offsets in
// the warp's 4 KiB, - for an idle lane), then 32 sources (byte offsets into
// the global buffer, z for a lane that fills zeros), then 32 source sizes
// (bytes read; used by zmode partial only).
//   form: ca4, ca8, ca16 (cp.async.ca of 4, 8, 16 bytes) or cg16 (.cg)
//   zmode: plain (no source size), srcsize (a run-time size that is 0 or
//     the copy's: SASS with a predicate operand), ignore (the ignore-src
//     predicate), partial (any run-time size: SASS .ZFILL)
// Idle lanes skip the copy through a guard predicate on the instruction
// (`@p cp.async`). Warp w of block b reads at g + (b * warps + w) *
// warp_stride + stage * stage_stride + source and writes its 4 KiB at
// (w * stages + stage) * 4096 + destination of the dynamic shared array, so
// every warp and every stage issues the same bank and line pattern. stagger
// delays warp w by (global warp % 8) * stagger cycles before its first copy
// (changes only timing); wait_each waits for each group before the next
// (one stage in flight instead of all). zero_null: a zero-filling lane
// passes a null source, else the address it would have read.
//
// Kept independent of the bankcheck library: it is the instrument.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call); compiled with -I validate

constexpr int kWarp = 32;
constexpr unsigned kWarpShared = 4096;
constexpr size_t kGlobalBytes = size_t(96) << 20;

struct Params {
  uint32_t dst[kWarp], src[kWarp], size[kWarp];
  uint32_t active, stages, warp_stride, stage_stride, stagger, wait_each, zero_null;
  uint32_t keep, fillkey;  // reg_probe only: 0, and the copy's width
};

enum Z { kPlain = 0, kSrcSize = 1, kIgnore = 2, kPartial = 3 };

template <int Size, bool CG, int Mode>
__device__ __forceinline__ void copy(uint32_t dst, const void* src, uint32_t n, uint32_t on) {
  if constexpr (Mode == kPlain) {
    if constexpr (CG)
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p cp.async.cg.shared.global [%0], [%1], 16; }"
                   ::"r"(dst), "l"(src), "r"(on) : "memory");
    else
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p cp.async.ca.shared.global [%0], [%1], %3; }"
                   ::"r"(dst), "l"(src), "r"(on), "n"(Size) : "memory");
  } else if constexpr (Mode == kSrcSize || Mode == kPartial) {
    // srcsize: the compiler sees a size of 0 or the copy's and emits the predicate-operand form
    const uint32_t k = Mode == kSrcSize ? (n == 0 ? 0u : uint32_t(Size)) : n;
    if constexpr (CG)
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %3, 0; @p cp.async.cg.shared.global [%0], [%1], 16, %2; }"
                   ::"r"(dst), "l"(src), "r"(k), "r"(on) : "memory");
    else
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %3, 0; @p cp.async.ca.shared.global [%0], [%1], %4, %2; }"
                   ::"r"(dst), "l"(src), "r"(k), "r"(on), "n"(Size) : "memory");
  } else {
    if constexpr (CG)
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.eq.b32 q, %2, 0; "
                   "@p cp.async.cg.shared.global [%0], [%1], 16, q; }"
                   ::"r"(dst), "l"(src), "r"(n), "r"(on) : "memory");
    else
      asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %3, 0; setp.eq.b32 q, %2, 0; "
                   "@p cp.async.ca.shared.global [%0], [%1], %4, q; }"
                   ::"r"(dst), "l"(src), "r"(n), "r"(on), "n"(Size) : "memory");
  }
}

template <int Size, bool CG, int Mode>
__global__ void __launch_bounds__(256) cpasync_probe(const __grid_constant__ Params p, const uint8_t* g) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const unsigned gwarp = blockIdx.x * (blockDim.x / kWarp) + warp;
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
    copy<Size, CG, Mode>(dst + s * kWarpShared, null_src ? nullptr : src + size_t(s) * p.stage_stride, n, on);
    asm volatile("cp.async.commit_group;" ::: "memory");
    if (p.wait_each) asm volatile("cp.async.wait_all;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// Which predicate register the zero-fill form's operand gets is ptxas's
// choice; these three code shapes (one warp, one stage, no guard: every
// lane active) give the source-size form P1, the ignore-src form P0 and the
// ignore-src form P2 (checked on the SASS by the GPU script), so the
// campaign can tell the register from the PTX form. `keep` predicates stay
// live across the copy and are used after it through a store that never
// happens (p.stagger, p.wait_each and p.zero_null are 0 in these cases).
__global__ void __launch_bounds__(32) cg_srcsize_p1(const __grid_constant__ Params p, const uint8_t* g) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const unsigned lane = threadIdx.x;
  const bool x = p.stagger > lane, y = p.wait_each > lane;
  const uint32_t k = p.size[lane] == 0 ? 0u : 16u;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + p.dst[lane]),
               "l"(g + p.src[lane]), "r"(k) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  uint32_t* out = reinterpret_cast<uint32_t*>(const_cast<uint8_t*>(g));
  if (x) out[0] = 1;
  if (y) out[1] = 2;
}
__global__ void __launch_bounds__(32) cg_ignore_p0(const __grid_constant__ Params p, const uint8_t* g) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const unsigned lane = threadIdx.x;
  asm volatile("{ .reg .pred q, r; setp.ne.b32 r, %2, 0; not.pred q, r; cp.async.cg.shared.global [%0], [%1], 16, q; }"
               ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + p.dst[lane]), "l"(g + p.src[lane]),
               "r"(p.size[lane]) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}
__global__ void __launch_bounds__(32) cg_ignore_p2(const __grid_constant__ Params p, const uint8_t* g) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const unsigned lane = threadIdx.x;
  const bool x = p.stagger > lane, y = p.wait_each > lane, z = p.zero_null > lane;
  asm volatile("{ .reg .pred q; setp.eq.b32 q, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, q; }"
               ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + p.dst[lane]), "l"(g + p.src[lane]),
               "r"(p.size[lane]) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  uint32_t* out = reinterpret_cast<uint32_t*>(const_cast<uint8_t*>(g));
  if (x) out[0] = 1;
  if (y) out[1] = 2;
  if (z) out[2] = 3;
}

#include "cpasync_reg_kernels.cuh"

using Fn = void (*)(Params, const uint8_t*);
struct Kernel {
  const char* form;
  const char* zmode;
  Fn fn;
  const char* name;
};
#define K(form, zmode, S, CG, M) {form, zmode, cpasync_probe<S, CG, M>, "cpasync_probe<" #S ", " #CG ", " #M ">"}
static const Kernel kKernels[] = {
    K("ca4", "plain", 4, false, kPlain),      K("ca8", "plain", 8, false, kPlain),
    K("ca16", "plain", 16, false, kPlain),    K("cg16", "plain", 16, true, kPlain),
    K("ca4", "srcsize", 4, false, kSrcSize),  K("ca8", "srcsize", 8, false, kSrcSize),
    K("ca16", "srcsize", 16, false, kSrcSize), K("cg16", "srcsize", 16, true, kSrcSize),
    K("ca4", "ignore", 4, false, kIgnore),    K("ca8", "ignore", 8, false, kIgnore),
    K("ca16", "ignore", 16, false, kIgnore),  K("cg16", "ignore", 16, true, kIgnore),
    K("ca4", "partial", 4, false, kPartial),  K("ca8", "partial", 8, false, kPartial),
    K("ca16", "partial", 16, false, kPartial), K("cg16", "partial", 16, true, kPartial),
    {"cg16", "srcsizeP1", cg_srcsize_p1, "cg_srcsize_p1"},
    {"cg16", "ignoreP0", cg_ignore_p0, "cg_ignore_p0"},
    {"cg16", "ignoreP2", cg_ignore_p2, "cg_ignore_p2"},
    REG_KERNELS,
};
#undef K

struct Case {
  std::string name, form, zmode;
  unsigned blocks = 1, warps = 1;
  Params p{};
};

[[noreturn]] static void bad(const char* path, int lineno, const char* what) {
  std::fprintf(stderr, "%s:%d: %s\n", path, lineno, what);
  std::exit(2);
}

static std::vector<Case> read_cases(const char* path) {
  std::ifstream in(path);
  if (!in) bad(path, 0, "cannot open");
  std::vector<Case> out;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Case c;
    Params& p = c.p;
    if (!(ss >> c.name >> c.form >> c.zmode >> c.blocks >> c.warps >> p.stages >> p.warp_stride >> p.stage_stride >>
          p.stagger >> p.wait_each >> p.zero_null))
      bad(path, lineno, "expected name form zmode blocks warps stages warp_stride stage_stride stagger wait_each zero_null");
    if (c.warps < 1 || c.warps > 8 || p.stages < 1 || p.stages > 4) bad(path, lineno, "warps 1..8, stages 1..4");
    std::string t;
    for (int l = 0; l < kWarp; ++l) {
      if (!(ss >> t)) bad(path, lineno, "expected 32 destinations");
      if (t == "-") continue;
      p.dst[l] = uint32_t(std::stoul(t));
      if (p.dst[l] >= kWarpShared) bad(path, lineno, "destination past the warp's 4 KiB");
      p.active |= 1u << l;
    }
    for (int l = 0; l < kWarp; ++l) {
      if (!(ss >> t)) bad(path, lineno, "expected 32 sources");
      p.src[l] = t == "z" || t == "-" ? 0u : uint32_t(std::stoul(t));
    }
    for (int l = 0; l < kWarp; ++l)
      if (!(ss >> p.size[l])) bad(path, lineno, "expected 32 source sizes");
    p.fillkey = c.form == "ca4" ? 4u : c.form == "ca8" ? 8u : 16u;  // reg_probe's negated ignore-src test
    const size_t reach = size_t(c.blocks) * c.warps * p.warp_stride + size_t(p.stages) * p.stage_stride + 65536;
    if (reach > kGlobalBytes) bad(path, lineno, "sources past the global buffer");
    out.push_back(c);
  }
  return out;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s CASES LAUNCH_LOG\n", argv[0]);
    return 2;
  }
  const auto cases = read_cases(argv[1]);
  std::FILE* log = std::fopen(argv[2], "w");
  if (!log) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 2;
  }
  uint8_t* g = nullptr;
  CHECK(cudaMalloc(&g, kGlobalBytes));
  CHECK(cudaMemset(g, 0x5a, kGlobalBytes));
  for (const Kernel& k : kKernels)
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k.fn), cudaFuncAttributeMaxDynamicSharedMemorySize,
                               8 * 4 * kWarpShared));
  int launched = 0;
  for (const Case& c : cases) {
    const Kernel* k = nullptr;
    for (const Kernel& cand : kKernels)
      if (c.form == cand.form && c.zmode == cand.zmode) k = &cand;
    if (!k) {
      std::fprintf(stderr, "%s: no kernel for %s %s\n", c.name.c_str(), c.form.c_str(), c.zmode.c_str());
      return 2;
    }
    const size_t shared = size_t(c.warps) * c.p.stages * kWarpShared;
    k->fn<<<c.blocks, c.warps * kWarp, shared>>>(c.p, g);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::fprintf(log, "%s\t%s\n", c.name.c_str(), k->name);
    ++launched;
  }
  std::fclose(log);
  CHECK(cudaFree(g));
  std::printf("launched %d cp.async cases\n", launched);
  return 0;
}
