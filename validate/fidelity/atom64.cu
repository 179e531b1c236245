// 64-bit shared atomicAdd probes (docs/bank-model.md, rule 4): one warp,
// one kernel per case, each active lane adding 1 to its 8-byte slot once.
// nvcc 13.0 compiles atomicAdd(unsigned long long*) on shared memory for
// sm_90 to a loop of LDS.64 and ATOMS.CAST.SPIN.64 that runs until every
// lane's compare-and-store has succeeded. The slots are zeroed first, so
// the value a lane gets back is its rank among the lanes of its address:
// the loop iteration in which it succeeded, if each execution lets one lane
// per address through (the number of executions Nsight Compute counts
// checks that). The ranks give the active lanes of every execution, which
// the bank model costs (validate/fidelity/compare.py).
//
//   atom64 CASES RANKS_OUT     (CASES: validate/fidelity/make_cases.py)
//
// Kept independent of the bankcheck library: it is the instrument.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call); compiled with -I validate

constexpr int kWarp = 32;
constexpr int kSlots = 1024;

__global__ void atom64_probe(const int* slot, unsigned long long* rank) {
  __shared__ unsigned long long s[kSlots];
  const int lane = threadIdx.x, k = slot[lane];
  if (k >= 0) s[k] = 0;
  __syncwarp();
  if (k >= 0) rank[lane] = atomicAdd(&s[k], 1ull);
}

struct Case {
  std::string name;
  std::vector<int> slot;
};

static std::vector<Case> read_cases(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<Case> out;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Case c;
    ss >> c.name;
    for (int l = 0, v = 0; l < kWarp; ++l) {
      if (!(ss >> v) || v < -1 || v >= kSlots) {
        std::fprintf(stderr, "%s:%d: expected 32 slots in -1..%d\n", path, lineno, kSlots - 1);
        std::exit(2);
      }
      c.slot.push_back(v);
    }
    out.push_back(c);
  }
  return out;
}

// Every address's lanes must have got the ranks 0..k-1 (the sum is right).
static bool ranks_ok(const Case& c, const std::vector<unsigned long long>& r) {
  for (int l = 0; l < kWarp; ++l) {
    if (c.slot[l] < 0) continue;
    int k = 0, seen = 0;
    for (int m = 0; m < kWarp; ++m)
      if (c.slot[m] == c.slot[l]) ++k, seen += r[m] == r[l];
    if (r[l] >= unsigned(k) || seen != 1) return false;
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s CASES RANKS_OUT\n", argv[0]);
    return 2;
  }
  const auto cases = read_cases(argv[1]);
  std::FILE* out = std::fopen(argv[2], "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 2;
  }
  int* d_slot = nullptr;
  unsigned long long* d_rank = nullptr;
  CHECK(cudaMalloc(&d_slot, sizeof(int) * kWarp));
  CHECK(cudaMalloc(&d_rank, sizeof(unsigned long long) * kWarp));
  int bad = 0;
  for (const auto& c : cases) {
    CHECK(cudaMemcpy(d_slot, c.slot.data(), sizeof(int) * kWarp, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_rank, 0xff, sizeof(unsigned long long) * kWarp));
    atom64_probe<<<1, kWarp>>>(d_slot, d_rank);
    CHECK(cudaGetLastError());
    std::vector<unsigned long long> r(kWarp);
    CHECK(cudaMemcpy(r.data(), d_rank, sizeof(unsigned long long) * kWarp, cudaMemcpyDeviceToHost));
    const bool ok = ranks_ok(c, r);
    bad += !ok;
    std::fprintf(out, "%s %s", c.name.c_str(), ok ? "ok" : "WRONG");
    for (int l = 0; l < kWarp; ++l) std::fprintf(out, " %lld", c.slot[l] < 0 ? -1LL : (long long)r[l]);
    std::fprintf(out, "\n");
  }
  std::fclose(out);
  std::printf("%zu cases, %d with wrong ranks\n", cases.size(), bad);
  return bad ? 1 : 0;
}
