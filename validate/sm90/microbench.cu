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
// argument `generic`, `volatile` or `relaxed` every instruction goes through a
// generic pointer into shared memory instead (validate/sm90/generic_on_gpu.sh).
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

// Each instruction in one of four forms (Space): through a shared-window
// address (LDS/STS), or through a generic pointer into shared memory, weak
// (LD.E/ST.E), volatile (.STRONG.SYS) or relaxed.gpu (.STRONG.GPU): the forms
// capture records as "ld"/"st" when a generic access lands in shared memory.
enum Space { kShared, kGeneric, kVolatile, kRelaxed };

// One load and one store function per PTX space and qualifier (asm needs
// the instruction text as a literal): SPACE is ".shared" or "", QUAL the
// qualifier, ADDR the address operand's constraint and argument.
#define BC_ACCESS(NAME, SPACE_QUAL, CONSTRAINT)                                                                \
  template <int Width, typename A>                                                                         \
  __device__ void NAME##_load(A a, uint32_t* out) {                                                        \
    if constexpr (Width == 1) {                                                                            \
      uint16_t v;                                                                                          \
      asm volatile("ld" SPACE_QUAL ".u8 %0, [%1];" : "=h"(v) : CONSTRAINT(a) : "memory");                  \
      out[0] = v;                                                                                          \
    } else if constexpr (Width == 2) {                                                                     \
      uint16_t v;                                                                                          \
      asm volatile("ld" SPACE_QUAL ".u16 %0, [%1];" : "=h"(v) : CONSTRAINT(a) : "memory");                 \
      out[0] = v;                                                                                          \
    } else if constexpr (Width == 4) {                                                                     \
      uint32_t v;                                                                                          \
      asm volatile("ld" SPACE_QUAL ".u32 %0, [%1];" : "=r"(v) : CONSTRAINT(a) : "memory");                 \
      out[0] = v;                                                                                          \
    } else if constexpr (Width == 8) {                                                                     \
      uint32_t x, y;                                                                                       \
      asm volatile("ld" SPACE_QUAL ".v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : CONSTRAINT(a) : "memory"); \
      out[0] = x ^ y;                                                                                      \
    } else {                                                                                               \
      uint32_t x, y, z, t;                                                                                 \
      asm volatile("ld" SPACE_QUAL ".v4.u32 {%0, %1, %2, %3}, [%4];"                                       \
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(t) : CONSTRAINT(a) : "memory");                       \
      out[0] = x ^ y ^ z ^ t;                                                                              \
    }                                                                                                      \
  }                                                                                                        \
  template <int Width, typename A>                                                                         \
  __device__ void NAME##_store(A a, uint32_t v) {                                                          \
    if constexpr (Width == 1) {                                                                            \
      asm volatile("st" SPACE_QUAL ".u8 [%0], %1;" ::CONSTRAINT(a), "h"(uint16_t(v)) : "memory");          \
    } else if constexpr (Width == 2) {                                                                     \
      asm volatile("st" SPACE_QUAL ".u16 [%0], %1;" ::CONSTRAINT(a), "h"(uint16_t(v)) : "memory");         \
    } else if constexpr (Width == 4) {                                                                     \
      asm volatile("st" SPACE_QUAL ".u32 [%0], %1;" ::CONSTRAINT(a), "r"(v) : "memory");                   \
    } else if constexpr (Width == 8) {                                                                     \
      asm volatile("st" SPACE_QUAL ".v2.u32 [%0], {%1, %2};" ::CONSTRAINT(a), "r"(v), "r"(v + 1) : "memory"); \
    } else {                                                                                               \
      asm volatile("st" SPACE_QUAL ".v4.u32 [%0], {%1, %2, %3, %4};" ::CONSTRAINT(a), "r"(v), "r"(v + 1),   \
                   "r"(v + 2), "r"(v + 3)                                                                  \
                   : "memory");                                                                            \
    }                                                                                                      \
  }
#define BC_R(a) "r"(a)
#define BC_L(a) "l"(a)
BC_ACCESS(shared, ".shared", BC_R)
BC_ACCESS(generic, "", BC_L)
BC_ACCESS(volatile_generic, ".volatile", BC_L)
BC_ACCESS(relaxed_generic, ".relaxed.gpu", BC_L)
#undef BC_ACCESS
#undef BC_R
#undef BC_L

template <int Width, int S>
__device__ void space_load(uint32_t a, uint32_t* out) {
  const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
  if constexpr (S == kShared) shared_load<Width>(a, out);
  else if constexpr (S == kGeneric) generic_load<Width>(g, out);
  else if constexpr (S == kVolatile) volatile_generic_load<Width>(g, out);
  else relaxed_generic_load<Width>(g, out);
}

template <int Width, int S>
__device__ void space_store(uint32_t a, uint32_t v) {
  const uint64_t g = reinterpret_cast<uint64_t>(__cvta_shared_to_generic(a));
  if constexpr (S == kShared) shared_store<Width>(a, v);
  else if constexpr (S == kGeneric) generic_store<Width>(g, v);
  else if constexpr (S == kVolatile) volatile_generic_store<Width>(g, v);
  else relaxed_generic_store<Width>(g, v);
}

template <int Width, bool Store, int S>
__global__ void one_instruction(const uint32_t* addr, uint32_t active, uint32_t* out) {
  __shared__ __align__(16) uint8_t smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t a = base + addr[lane];
  if ((active >> lane) & 1u) {
    if constexpr (Store) {
      space_store<Width, S>(a, lane * 0x01010101u);
    } else {
      space_load<Width, S>(a, out + lane);
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

template <int Width, int S>
static void launch_in(const Instruction& ins, const uint32_t* d_addr, uint32_t* d_out) {
  if (ins.store)
    one_instruction<Width, true, S><<<1, kWarp>>>(d_addr, ins.active, d_out);
  else
    one_instruction<Width, false, S><<<1, kWarp>>>(d_addr, ins.active, d_out);
}

static int space = kShared;  // the optional second argument: shared, generic, volatile or relaxed

template <int Width>
static void launch(const Instruction& ins, const uint32_t* d_addr, uint32_t* d_out) {
  switch (space) {
    case kShared: launch_in<Width, kShared>(ins, d_addr, d_out); break;
    case kGeneric: launch_in<Width, kGeneric>(ins, d_addr, d_out); break;
    case kVolatile: launch_in<Width, kVolatile>(ins, d_addr, d_out); break;
    default: launch_in<Width, kRelaxed>(ins, d_addr, d_out); break;
  }
}

int main(int argc, char** argv) {
  const std::string form = argc == 3 ? argv[2] : "shared";
  const char* forms[] = {"shared", "generic", "volatile", "relaxed"};
  space = -1;
  for (int f = 0; f < 4; ++f)
    if (form == forms[f]) space = f;
  if (argc < 2 || argc > 3 || space < 0) {
    std::fprintf(stderr, "usage: %s TRACE [shared|generic|volatile|relaxed]\n", argv[0]);
    return 2;
  }
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
