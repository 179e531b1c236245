// Single-instruction probes for the access kinds the sm90 bank model does not
// cover yet: shared atomics (ATOMS), ldmatrix/stmatrix (LDSM/STSM), cp.async
// (LDGSTS), 12-byte structs in shared memory, 8-byte loads whose inactive
// lanes are predicated off or diverged rather than exited, and global
// loads/stores (sectors). Companion of validate/sm90/microbench.cu, which
// covers LDS/STS.
//
//   probes CASES.csv [--kind K[,K...]] [--first N] [--count N] [--log FILE]
//
// CASES.csv is the manifest written by make_probe_cases.py: one row per case
// with the addresses the hardware gets (a0..a31, byte offsets into the
// kernel's shared array, or into a 4096-byte-aligned global buffer for
// gld/gst), the active mask, the kind and its variant. For every selected
// row the program launches one kernel of one warp (one block) that executes
// exactly one warp instruction of the intended kind (checked on the SASS by
// validate/sm90/probes/check_sass.py), so Nsight Compute's per-kernel counters
// and its per-instruction SourceCounters describe that instruction alone.
// --log writes the name of every case it launches and its kernel function,
// one a line (tab-separated), in launch order: ncu numbers the profiled
// kernels in the same order.
//
// How the kernels are kept clean:
//  * lane addresses come from a __grid_constant__ kernel parameter (one
//    indexed constant-bank load, LDC c[0x0][R+...]), not from global memory, so the kernel issues no other memory
//    instruction (global probes would otherwise count the address load);
//  * results are "used" by a store to global memory that only happens when
//    the value equals `magic` (never, at run time), so nothing but the probed
//    instruction touches memory while the compiler must keep the result;
//  * the shared array is not initialised (initialising it would add
//    shared stores to the kernel): atomics and loads read whatever is there,
//    which changes no count.
//
// Kept independent of the bankcheck library: it is a measuring instrument.
#include <cuda_runtime.h>
#include <vector_types.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

constexpr size_t kGlobalBytes = 1 << 20;

#include "../../cuda_check.cuh"  // CHECK(call)

// The kernels, one header per access kind (included by file name: the GPU
// script compiles this file with nvcc alone, without include paths).
#include "probe_kernels_atom.cuh"
#include "probe_kernels_matrix.cuh"
#include "probe_kernels_cpasync.cuh"
#include "probe_kernels_s12.cuh"
#include "probe_kernels_ld8.cuh"
#include "probe_kernels_global.cuh"

// ------------------------------------------------------------- host side
struct Kernel {
  const char* kind;
  const char* variant;
  ProbeFn fn;
  const char* fn_name;  // written to the launch log, to check ncu's kernel names against
};

#define K(kind, variant, fn) {kind, variant, fn, #fn}
static const Kernel kKernels[] = {
    K("atom", "add.u32", probe_atom_add_u32),
    K("atom", "red.add.u32", probe_atom_red_add_u32),
    K("atom", "add.f32", probe_atom_add_f32),
    K("atom", "red.add.f32", probe_atom_red_add_f32),
    K("atom", "add.u64", probe_atom_add_u64),
    K("atom", "cas.b32", probe_atom_cas_b32),
    K("atom", "cas.b64", probe_atom_cas_b64),
    K("atom", "exch.b32", probe_atom_exch_b32),
    K("atom", "exch.b64", probe_atom_exch_b64),
    K("atom", "min.s32", probe_atom_min_s32),
    K("atom", "min.u32", probe_atom_min_u32),
    K("atom", "max.s32", probe_atom_max_s32),
    K("atom", "max.u32", probe_atom_max_u32),
    K("atom", "and.b32", probe_atom_and_b32),
    K("atom", "or.b32", probe_atom_or_b32),
    K("atom", "xor.b32", probe_atom_xor_b32),
    K("atom", "inc.u32", probe_atom_inc_u32),
    K("atom", "red.min.u32", probe_atom_red_min_u32),
    K("atom", "red.or.b32", probe_atom_red_or_b32),
    K("atom", "builtin.inc1.unused", probe_atom_builtin_inc1_unused),
    K("atom", "builtin.add.unused", probe_atom_builtin_add_unused),
    K("atom", "builtin.add.used", probe_atom_builtin_add_used),
    K("ldsm", "x1", probe_ldsm_x1),
    K("ldsm", "x2", probe_ldsm_x2),
    K("ldsm", "x4", probe_ldsm_x4),
    K("ldsm", "x1.trans", probe_ldsm_x1_trans),
    K("ldsm", "x2.trans", probe_ldsm_x2_trans),
    K("ldsm", "x4.trans", probe_ldsm_x4_trans),
    K("stsm", "x1", probe_stsm_x1),
    K("stsm", "x2", probe_stsm_x2),
    K("stsm", "x4", probe_stsm_x4),
    K("stsm", "x1.trans", probe_stsm_x1_trans),
    K("stsm", "x2.trans", probe_stsm_x2_trans),
    K("stsm", "x4.trans", probe_stsm_x4_trans),
    K("cpasync", "ca.4", probe_cpasync_ca4),
    K("cpasync", "ca.8", probe_cpasync_ca8),
    K("cpasync", "ca.16", probe_cpasync_ca16),
    K("cpasync", "cg.16", probe_cpasync_cg16),
    K("cgsrc", "cg.16", probe_cpasync_cg16),
    K("cgline", "cg.16", probe_cpasync_cg16),
    K("cgwarm", "cg.16", probe_cpasync_cg16warm),
    K("cgsrcsize", "cg.16", probe_cpasync_cg16srcsize),
    K("cgignore", "cg.16", probe_cpasync_cg16ignore),
    K("cgpair", "cg.16", probe_cpasync_cg16pair),
    K("cgpairplain", "cg.16", probe_cpasync_cg16pairplain),
    K("cgwarmsrcsize", "cg.16", probe_cpasync_cg16warmsrcsize),
    K("casrcsize", "ca.4", probe_cpasync_ca4srcsize),
    K("casrcsize", "ca.8", probe_cpasync_ca8srcsize),
    K("casrcsize", "ca.16", probe_cpasync_ca16srcsize),
    K("caltc", "ca.4", probe_cpasync_ca4ltc),
    K("caltc", "ca.8", probe_cpasync_ca8ltc),
    K("caltc", "ca.16", probe_cpasync_ca16ltc),
    K("cgltc", "cg.16", probe_cpasync_cg16ltc),
    K("zfill", "ca.4.ltc", probe_cpasync_ca4ltcign),
    K("zfill", "ca.16.ltc", probe_cpasync_ca16ltcign),
    K("zfill", "cg.16.ltc", probe_cpasync_cg16ltcign),
    K("zfill", "ca.4", probe_cpasync_ca4ign),
    K("zfill", "ca.16", probe_cpasync_ca16ign),
    K("zfill", "cg.16", probe_cpasync_cg16ign),
    K("s12", "ld.a4", probe_s12_ld_a4),
    K("s12", "st.a4", probe_s12_st_a4),
    K("s12", "ld.a16", probe_s12_ld_a16),
    K("s12", "st.a16", probe_s12_st_a16),
    K("s12", "ld.a4even", probe_s12_ld_a4even),
    K("s12", "st.a4even", probe_s12_st_a4even),
    K("s12", "ld.float3", probe_s12_ld_float3),
    K("ld8", "pred", probe_ld8_pred),
    K("ld8", "div", probe_ld8_div),
    K("gld", "4", probe_gld_4),
    K("gld", "8", probe_gld_8),
    K("gld", "16", probe_gld_16),
    K("gst", "4", probe_gst_4),
    K("gst", "8", probe_gst_8),
    K("gst", "16", probe_gst_16),
};
#undef K

struct Case {
  std::string name, kind, variant;
  uint32_t mask = 0;
  Lanes lanes{};
  const Kernel* kernel = nullptr;
};

static std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Manifest columns: name,kind,variant,width,used,mask,note,a0..a31[,s0..s31]
// (see make_probe_cases.py); only name, kind, variant, mask, the addresses
// a0..a31 and the cp.async sources s0..s31 (0 when absent) matter here.
static std::vector<Case> read_manifest(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<Case> out;
  std::string line;
  std::vector<std::string> header;
  size_t col_a = 0, col_s = 0;  // index of a0 and of s0 (0: no such column)
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    auto f = split_csv(line);
    if (header.empty()) {
      header = f;
      for (size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "a0") col_a = i;
        if (f[i] == "s0") col_s = i;
      }
      if (col_a < 6 || col_a + kWarp > f.size() || (col_s != 0 && col_s + kWarp > f.size())) {
        std::fprintf(stderr, "%s:%d: header needs name..note then a0..a31 (and s0..s31 if any)\n", path, lineno);
        std::exit(2);
      }
      continue;
    }
    if (f.size() != header.size()) {
      std::fprintf(stderr, "%s:%d: expected %zu fields, got %zu\n", path, lineno, header.size(), f.size());
      std::exit(2);
    }
    Case c;
    c.name = f[0];
    c.kind = f[1];
    c.variant = f[2];
    c.mask = uint32_t(std::stoul(f[5], nullptr, 0));
    for (int l = 0; l < kWarp; ++l) {
      c.lanes.a[l] = uint32_t(std::stoul(f[col_a + l], nullptr, 0));
      c.lanes.s[l] = col_s ? uint32_t(std::stoul(f[col_s + l], nullptr, 0)) : 0u;
    }
    for (const auto& k : kKernels)
      if (c.kind == k.kind && c.variant == k.variant) c.kernel = &k;
    if (!c.kernel) {
      std::fprintf(stderr, "%s:%d: no kernel for kind %s variant %s\n", path, lineno, c.kind.c_str(),
                   c.variant.c_str());
      std::exit(2);
    }
    out.push_back(c);
  }
  return out;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CASES.csv [--kind K[,K...]] [--first N] [--count N] [--log FILE]\n", argv[0]);
    return 2;
  }
  std::string kinds, log_path;
  long first = 0, count = -1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string opt = argv[i];
    if (opt == "--kind") kinds = "," + std::string(argv[i + 1]) + ",";
    else if (opt == "--first") first = std::stol(argv[i + 1]);
    else if (opt == "--count") count = std::stol(argv[i + 1]);
    else if (opt == "--log") log_path = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  auto cases = read_manifest(argv[1]);
  std::vector<const Case*> selected;
  for (const auto& c : cases)
    if (kinds.empty() || kinds.find("," + c.kind + ",") != std::string::npos) selected.push_back(&c);
  const long n = static_cast<long>(selected.size());
  const long last = count < 0 ? n : std::min(n, first + count);

  uint8_t* g = nullptr;
  uint32_t* d_out = nullptr;
  CHECK(cudaMalloc(&g, kGlobalBytes + 4096));
  CHECK(cudaMemset(g, 0, kGlobalBytes + 4096));
  CHECK(cudaMalloc(&d_out, sizeof(uint32_t) * kWarp));
  // Align the global buffer to 4096 bytes so offsets in the manifest say
  // which sectors (32 B) and lines (128 B) a lane touches.
  uint8_t* g_aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(g) + 4095) & ~uintptr_t(4095));

  FILE* log = log_path.empty() ? nullptr : std::fopen(log_path.c_str(), "w");
  // magic: any value the probed data never holds (memory is zero or
  // uninitialised shared memory; 0x9E3779B9 is as unlikely as any).
  const uint32_t magic = 0x9E3779B9u;
  long launched = 0;
  for (long i = first; i < last; ++i) {
    const Case& c = *selected[i];
    c.kernel->fn<<<1, kWarp>>>(c.lanes, c.mask, magic, d_out, g_aligned);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
      std::fprintf(stderr, "case %s: launch failed: %s\n", c.name.c_str(), cudaGetErrorString(err));
      return 1;
    }
    if (log) std::fprintf(log, "%s\t%s\n", c.name.c_str(), c.kernel->fn_name);
    ++launched;
  }
  if (log) std::fclose(log);
  CHECK(cudaDeviceSynchronize());
  std::printf("launched %ld single-instruction probe kernels (cases %ld..%ld of %ld selected)\n", launched, first,
              last - 1, n);
  return 0;
}
