// Paired 8-byte shared loads in the forms and launch shapes the
// single-instruction probes (validate/sm90/microbench.cu: one warp, one
// LDS.64 [R+UR] per kernel, inactive lanes exited) kept fixed. Each kernel
// holds kSites LDS.64 sites back to back; site s of every warp reads the
// byte offsets of pattern first + s (validate/fidelity/make_lds64_cases.py),
// so Nsight Compute's per-instruction counters give one pattern per SASS
// instruction, summed over the warps and iterations that ran it.
//
//   lds64 CASES PLAN       (one launch per plan line, in order)
//
// Forms: rur  ld.volatile.shared.v2.u32 [base + o]       (LDS.64 [R+UR])
//        imm  the same with a +256 immediate              (LDS.64 [R+UR+0x100])
//        reg  the address passed through a shuffle         (LDS.64 [R])
//        pred a PTX predicate from o >= 0 guards the load (@P LDS.64): per-site masks
//        loop the sites in a loop of `iterations` passes
//        dep  each site's offset waits on the previous load's value (sites one at a time)
//        u64  ld.volatile.shared.u64 instead of .v2.u32
//        mix  each site follows a 4-byte LDS of a conflict-free word (other LDS between the sites)
//        gen  ld.volatile.v2.u32 through a generic pointer into shared memory (LD.E.64.STRONG.SYS)
//        genw the same, weak: ld.v2.u32 (LD.E.64)
// warp_rows: warp w of a block reads patterns first + w * warp_rows + s (0:
// every warp the same; the generator's shifted copies: the warps' requests
// differ, with the same degrees in other banks).
// The volatile loads keep their order (validate/fidelity/lds64_sites.py
// checks in the SASS which pattern each LDS.64 reads).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_check.cuh"

constexpr int kSites = 256;
constexpr int kLanes = 32;
constexpr int kMargin = 512;  // room for the imm form's +256
constexpr int kSharedBytes = 16384 + kMargin;
constexpr int kMaxBlocks = 264;  // two per SM of an H200

enum Form { rur, imm, reg, pred, loop, dep, u64, mix, gen, genw };

template <int F>
__device__ __forceinline__ uint32_t load_site(uint32_t base, int o) {
  const uint32_t a = base + static_cast<uint32_t>(o);
  uint32_t x = 0, y = 0;
  if constexpr (F == imm) {
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2+256];" : "=r"(x), "=r"(y) : "r"(a));
  } else if constexpr (F == pred) {
    asm volatile("{ .reg .pred p; setp.ge.s32 p, %3, 0; @p ld.volatile.shared.v2.u32 {%0, %1}, [%2]; }"
                 : "+r"(x), "+r"(y) : "r"(a), "r"(o));
  } else if constexpr (F == u64) {
    uint64_t v = 0;
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(v) : "r"(a));
    x = static_cast<uint32_t>(v);
    y = static_cast<uint32_t>(v >> 32);
  } else if constexpr (F == gen) {  // the shared window's generic address of byte a
    const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
    asm volatile("ld.volatile.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(g));
  } else if constexpr (F == genw) {
    const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
    asm volatile("ld.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(g));
  } else {
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
  }
  return x ^ y;
}

template <int F>
__global__ void lds64_sites(const int* __restrict__ tab, uint32_t exit_mask, int iterations, int pass_stride,
                            int warp_rows, uint32_t* out) {
  __shared__ __align__(128) uint8_t smem[kSharedBytes];
  for (int i = threadIdx.x; i < kSharedBytes / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(smem)[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % kLanes;
  if (!((exit_mask >> lane) & 1u)) return;
  uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const int* t = tab + lane + (threadIdx.x / kLanes) * warp_rows * kLanes;
  uint32_t acc = 0;
  for (int it = 0; it < (F == loop ? iterations : 1); ++it) {
#pragma unroll
    for (int s = 0; s < kSites; ++s) {
      int o = t[it * pass_stride + s * kLanes];  // pass_stride is 0: keeps the table loads in the loop
      if constexpr (F == dep) o += acc == 0xFFFFFFFFu ? 8 : 0;  // shared memory is zero: never taken
      if constexpr (F == mix) {
        uint32_t w = 0;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(w) : "r"(base + 4 * lane));
        acc ^= w;
      }
      if constexpr (F == reg)  // the address through a shuffle: ptxas keeps no uniform base register
        acc ^= load_site<F>(__shfl_sync(__activemask(), base + static_cast<uint32_t>(o), static_cast<int>(lane)), 0);
      else
        acc ^= load_site<F>(base, o);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

struct Launch {
  std::string form;
  int blocks = 0, threads = 0, first = 0, iterations = 1, warp_rows = 0;
  uint32_t exit_mask = 0;
};

static std::vector<std::string> data_lines(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

template <int F>
static void launch(const Launch& l, const int* tab, uint32_t* out) {
  lds64_sites<F><<<l.blocks, l.threads>>>(tab + l.first * kLanes, l.exit_mask, l.iterations, 0, l.warp_rows, out);
}

static bool run(const Launch& l, const int* tab, uint32_t* out) {
  static const char* names[] = {"rur", "imm", "reg", "pred", "loop", "dep", "u64", "mix", "gen", "genw"};
  void (*fns[])(const Launch&, const int*, uint32_t*) = {launch<rur>,  launch<imm>, launch<reg>,
                                                         launch<pred>, launch<loop>, launch<dep>,
                                                         launch<u64>,  launch<mix>, launch<gen>,
                                                         launch<genw>};
  for (int f = 0; f < 10; ++f)
    if (l.form == names[f]) {
      fns[f](l, tab, out);
      return true;
    }
  return false;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s CASES PLAN\n", argv[0]);
    return 2;
  }
  const auto cases = data_lines(argv[1]);
  std::vector<int> all;
  for (const auto& c : cases) {
    std::istringstream ss(c);
    std::string name;
    ss >> name;
    for (int l = 0, o = 0; l < kLanes; ++l) {
      if (!(ss >> o) || o >= kSharedBytes - kMargin || o < -1 || (o >= 0 && o % 8)) {
        std::fprintf(stderr, "%s: lane %d: an offset in -1 or 0..%d, a multiple of 8\n", name.c_str(), l,
                     kSharedBytes - kMargin - 8);
        return 2;
      }
      all.push_back(o);
    }
  }
  std::vector<Launch> plan;
  for (const auto& p : data_lines(argv[2])) {
    Launch l;
    std::istringstream ss(p);
    ss >> l.form >> l.blocks >> l.threads >> std::hex >> l.exit_mask >> std::dec >> l.first >> l.iterations >>
        l.warp_rows;
    const int warps = (l.threads + kLanes - 1) / kLanes;
    if (!ss || l.first < 0 || l.warp_rows < 0 || l.threads > 1024 || l.threads < 1 || l.blocks < 1 ||
        l.blocks > kMaxBlocks || static_cast<size_t>(l.first + (warps - 1) * l.warp_rows + kSites) > cases.size()) {
      std::fprintf(stderr, "plan line '%s': form blocks(1..%d) threads(1..1024) exit_mask first iterations warp_rows,"
                   " within the %zu patterns\n", p.c_str(), kMaxBlocks, cases.size());
      return 2;
    }
    plan.push_back(l);
  }
  int* d_tab = nullptr;
  uint32_t* d_out = nullptr;
  CHECK(cudaMalloc(&d_tab, sizeof(int) * all.size()));
  CHECK(cudaMalloc(&d_out, sizeof(uint32_t) * kMaxBlocks * 1024));
  CHECK(cudaMemcpy(d_tab, all.data(), sizeof(int) * all.size(), cudaMemcpyHostToDevice));
  for (const auto& l : plan) {
    if (!run(l, d_tab, d_out)) {
      std::fprintf(stderr, "unknown form %s\n", l.form.c_str());
      return 2;
    }
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("launched %zu kernels of %d LDS.64 sites\n", plan.size(), kSites);
  return 0;
}
