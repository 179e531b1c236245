// Single-instruction shared-memory microbenchmark for the sm90 bank preset.
//
// Reads a bankcheck text trace (docs/trace-format.md; one warp instruction
// per line, warp size 32) and launches, for every instruction, a kernel of
// one warp that executes exactly that one shared-memory instruction: the
// lane addresses come from global memory and inactive lanes skip it through
// a predicate, so Nsight Compute's per-kernel counters
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum
// describe that single instruction. The instruction is written in inline PTX
// so the compiler can neither split, merge, widen nor drop it. With a second
// argument `generic` every instruction goes through a generic pointer into
// shared memory instead (validate/sm90/generic_on_gpu.sh).
//
// Kept deliberately independent of the bankcheck library: it is the
// measuring instrument, and must not share code with the model it checks.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

constexpr int kWarp = 32;
constexpr int kSharedBytes = 48 * 1024;

#include "../cuda_check.cuh"  // CHECK(call)

// Each instruction in one of two forms: through a shared-window address
// (LDS/STS), or with GENERIC through a generic pointer into shared memory
// (LD.E/ST.E in the SASS), the form capture records as "ld"/"st" when a
// generic access lands in shared memory.
template <int Width, bool Generic>
__device__ void shared_load(uint32_t a, uint32_t* out) {
  const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
  if constexpr (Width == 1) {
    uint16_t v;
    if constexpr (Generic) asm volatile("ld.u8 %0, [%1];" : "=h"(v) : "l"(g) : "memory");
    else asm volatile("ld.shared.u8 %0, [%1];" : "=h"(v) : "r"(a) : "memory");
    out[0] = v;
  } else if constexpr (Width == 2) {
    uint16_t v;
    if constexpr (Generic) asm volatile("ld.u16 %0, [%1];" : "=h"(v) : "l"(g) : "memory");
    else asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(a) : "memory");
    out[0] = v;
  } else if constexpr (Width == 4) {
    uint32_t v;
    if constexpr (Generic) asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(g) : "memory");
    else asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    out[0] = v;
  } else if constexpr (Width == 8) {
    uint32_t x, y;
    if constexpr (Generic) asm volatile("ld.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(g) : "memory");
    else asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
    out[0] = x ^ y;
  } else {
    uint32_t x, y, z, t;
    if constexpr (Generic)
      asm volatile("ld.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(t) : "l"(g) : "memory");
    else
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(t) : "r"(a) : "memory");
    out[0] = x ^ y ^ z ^ t;
  }
}

template <int Width, bool Generic>
__device__ void shared_store(uint32_t a, uint32_t v) {
  const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
  if constexpr (Width == 1) {
    if constexpr (Generic) asm volatile("st.u8 [%0], %1;" ::"l"(g), "h"(uint16_t(v)) : "memory");
    else asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "h"(uint16_t(v)) : "memory");
  } else if constexpr (Width == 2) {
    if constexpr (Generic) asm volatile("st.u16 [%0], %1;" ::"l"(g), "h"(uint16_t(v)) : "memory");
    else asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(uint16_t(v)) : "memory");
  } else if constexpr (Width == 4) {
    if constexpr (Generic) asm volatile("st.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    else asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  } else if constexpr (Width == 8) {
    if constexpr (Generic) asm volatile("st.v2.u32 [%0], {%1, %2};" ::"l"(g), "r"(v), "r"(v + 1) : "memory");
    else asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
  } else {
    if constexpr (Generic)
      asm volatile("st.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)
                   : "memory");
    else
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1), "r"(v + 2),
                   "r"(v + 3)
                   : "memory");
  }
}

template <int Width, bool Store, bool Generic>
__global__ void one_instruction(const uint32_t* addr, uint32_t active, uint32_t* out) {
  __shared__ __align__(16) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t a = base + addr[lane];
  if ((active >> lane) & 1u) {
    if constexpr (Store) {
      shared_store<Width, Generic>(a, lane * 0x01010101u);
    } else {
      shared_load<Width, Generic>(a, out + lane);
    }
  }
}

struct Instruction {
  bool store = false;
  int width = 4;
  uint32_t active = 0;
  uint32_t addr[kWarp] = {};
  std::string site;
};

static std::vector<Instruction> read_trace(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<Instruction> out;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ss(line);
    std::string tok;
    if (!(ss >> tok)) continue;
    if (tok == "warp") {
      int w = 0;
      ss >> w;
      if (w != kWarp) {
        std::fprintf(stderr, "%s:%d: the microbenchmark needs warp 32\n", path, lineno);
        std::exit(2);
      }
      continue;
    }
    Instruction ins;
    if (tok[0] == '@') {
      ins.site = tok.substr(1);
      ss >> tok;
    }
    if (tok != "ld" && tok != "st") {
      std::fprintf(stderr, "%s:%d: expected ld or st\n", path, lineno);
      std::exit(2);
    }
    ins.store = tok == "st";
    ss >> ins.width;
    for (int l = 0; l < kWarp; ++l) {
      if (!(ss >> tok)) {
        std::fprintf(stderr, "%s:%d: expected 32 lane addresses\n", path, lineno);
        std::exit(2);
      }
      if (tok == "-") continue;
      unsigned long v = std::stoul(tok, nullptr, 0);
      if (v + ins.width > kSharedBytes || v % ins.width) {
        std::fprintf(stderr, "%s:%d: address %lu out of range or misaligned\n", path, lineno, v);
        std::exit(2);
      }
      ins.addr[l] = uint32_t(v);
      ins.active |= 1u << l;
    }
    out.push_back(ins);
  }
  return out;
}

template <int Width, bool Generic>
static void launch_in(const Instruction& ins, const uint32_t* d_addr, uint32_t* d_out) {
  if (ins.store)
    one_instruction<Width, true, Generic><<<1, kWarp>>>(d_addr, ins.active, d_out);
  else
    one_instruction<Width, false, Generic><<<1, kWarp>>>(d_addr, ins.active, d_out);
}

static bool generic_form = false;  // set by the optional second argument "generic"

template <int Width>
static void launch(const Instruction& ins, const uint32_t* d_addr, uint32_t* d_out) {
  if (generic_form)
    launch_in<Width, true>(ins, d_addr, d_out);
  else
    launch_in<Width, false>(ins, d_addr, d_out);
}

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 3 && std::string(argv[2]) == "generic")) {
    std::fprintf(stderr, "usage: %s TRACE [generic]\n", argv[0]);
    return 2;
  }
  generic_form = argc == 3;
  const auto trace = read_trace(argv[1]);
  uint32_t *d_addr = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_addr, sizeof(uint32_t) * kWarp * trace.size()));
  CHECK(cudaMalloc(&d_out, sizeof(uint32_t) * kWarp));
  std::vector<uint32_t> all(kWarp * trace.size());
  for (size_t i = 0; i < trace.size(); ++i)
    for (int l = 0; l < kWarp; ++l) all[i * kWarp + l] = trace[i].addr[l];
  CHECK(cudaMemcpy(d_addr, all.data(), sizeof(uint32_t) * all.size(), cudaMemcpyHostToDevice));
  for (size_t i = 0; i < trace.size(); ++i) {
    const auto& ins = trace[i];
    const uint32_t* a = d_addr + i * kWarp;
    switch (ins.width) {
      case 1: launch<1>(ins, a, d_out); break;
      case 2: launch<2>(ins, a, d_out); break;
      case 4: launch<4>(ins, a, d_out); break;
      case 8: launch<8>(ins, a, d_out); break;
      case 16: launch<16>(ins, a, d_out); break;
      default: std::fprintf(stderr, "instruction %zu: bad width %d\n", i, ins.width); return 2;
    }
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("launched %zu single-instruction kernels\n", trace.size());
  return 0;
}
