// Kernels with known shared-memory accesses, for validate/capture/gpu_smoke.sh.
// `smoke_kernels CASE EXPECTED.trace` runs one case and writes, computed on
// the host independently of any capture, the warp instructions the case
// must produce (text trace with `at` locations; sites are not compared).
// Cases: conflicts (4-byte LDS 32-way column read, STS row), wide (8-byte),
// atomic, ldmatrix, cpasync, fill (many records through a small ring),
// fault (a shared access, then an illegal global write).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kWarp = 32;
constexpr int kFillRounds = 2000;

__global__ void conflicts(int* out) {
  __shared__ int tile[32 * 32];
  const int t = threadIdx.x;
  tile[t] = t;                  // STS row: lane l at 4*l (+128 per warp)
  __syncthreads();
  out[t] = tile[(t % 32) * 32 + t / 32];  // LDS column: lane l at 128*l + 4*warp: 32-way
}

__global__ void wide(long long* out) {
  __shared__ long long v[64];
  const int t = threadIdx.x;
  v[t] = t;                     // STS.64: 8*l
  __syncthreads();
  out[t] = v[(t * 2) % 64];     // LDS.64: 16*l mod 512
}

__global__ void atomic(int* out) {
  __shared__ int counters[4];
  const int t = threadIdx.x;
  if (t < 4) counters[t] = 0;
  __syncthreads();
  atomicAdd(&counters[t % 4], 1);  // ATOMS: 4*(l%4)
  __syncthreads();
  if (t < 4) out[t] = counters[t];
}

__global__ void ldmatrix(unsigned* out) {
  __shared__ __align__(16) unsigned short m[8 * 8];
  const int t = threadIdx.x;
  for (int i = t; i < 64; i += kWarp) m[i] = static_cast<unsigned short>(i);
  __syncthreads();
  // ldmatrix .x1: lanes 0-7 give row r's address (16 bytes each).
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(&m[(t % 8) * 8]));
  unsigned r;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(row));
  out[t] = r;
}

__global__ void cpasync(const int4* in, int4* out) {
  __shared__ int4 buffer[32];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&buffer[t], &in[t], sizeof(int4));  // LDGSTS.128: 16*l
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = buffer[31 - t];
}

__global__ void fill(int* out, int rounds) {
  __shared__ int s[256];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < rounds; ++i) sum += s[(t + i) % 256];
  out[blockIdx.x * blockDim.x + t] = sum;
}

__global__ void fault(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x + (1 << 28)] = s[31 - threadIdx.x];  // far past the allocation: an illegal address
}

/// The expected trace, written as the text format.
struct Expected {
  std::ofstream out;
  explicit Expected(const char* path) : out(path) { out << "warp 32\n"; }
  void at(int block, int warp) { out << "at launch=0 block=" << block << ",0,0 warp=" << warp << "\n"; }
  void record(const char* op, int width, const std::vector<long long>& addr) {
    out << op << " " << width;
    for (long long a : addr) {
      if (a < 0) out << " -";
      else out << " " << a;
    }
    out << "\n";
  }
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace

// Each case launches its kernel and writes the records it expects.
using Case = void (*)(Expected&, void*, std::vector<long long>&);

void run_conflicts(Expected& e, void* buffer, std::vector<long long>& a) {
  conflicts<<<1, 64>>>(static_cast<int*>(buffer));
  for (int w = 0; w < 2; ++w) {
    e.at(0, w);
    for (int l = 0; l < kWarp; ++l) a[l] = 4 * (w * kWarp + l);
    e.record("st", 4, a);
    for (int l = 0; l < kWarp; ++l) a[l] = 4 * (l * 32 + w);
    e.record("ld", 4, a);
  }
}

void run_wide(Expected& e, void* buffer, std::vector<long long>& a) {
  wide<<<1, 64>>>(static_cast<long long*>(buffer));
  for (int w = 0; w < 2; ++w) {
    e.at(0, w);
    for (int l = 0; l < kWarp; ++l) a[l] = 8 * (w * kWarp + l);
    e.record("st", 8, a);
    for (int l = 0; l < kWarp; ++l) a[l] = 8 * (((w * kWarp + l) * 2) % 64);
    e.record("ld", 8, a);
  }
}

void run_atomic(Expected& e, void* buffer, std::vector<long long>& a) {
  atomic<<<1, 32>>>(static_cast<int*>(buffer));
  e.at(0, 0);
  for (int l = 0; l < kWarp; ++l) a[l] = l < 4 ? 4 * l : -1;
  e.record("st", 4, a);
  for (int l = 0; l < kWarp; ++l) a[l] = 4 * (l % 4);
  e.record("atom", 4, a);
  for (int l = 0; l < kWarp; ++l) a[l] = l < 4 ? 4 * l : -1;
  e.record("ld", 4, a);
}

void run_ldmatrix(Expected& e, void* buffer, std::vector<long long>& a) {
  ldmatrix<<<1, 32>>>(static_cast<unsigned*>(buffer));
  e.at(0, 0);
  for (int i = 0; i < 2; ++i) {
    for (int l = 0; l < kWarp; ++l) a[l] = 2 * (l + 32 * i);
    e.record("st", 2, a);
  }
  for (int l = 0; l < kWarp; ++l) a[l] = l < 8 ? 16 * l : -1;
  e.record("ldsm", 16, a);
}

void run_cpasync(Expected& e, void* buffer, std::vector<long long>& a) {
  int4* in = static_cast<int4*>(buffer);
  cpasync<<<1, 32>>>(in, in + 64);
  e.at(0, 0);
  for (int l = 0; l < kWarp; ++l) a[l] = 16 * l;
  e.record("cpasync", 16, a);
  for (int l = 0; l < kWarp; ++l) a[l] = 16 * (31 - l);
  e.record("ld", 16, a);
}

void run_fill(Expected& e, void* buffer, std::vector<long long>& a) {
  const int blocks = 32, threads = 256;
  fill<<<blocks, threads>>>(static_cast<int*>(buffer), kFillRounds);
  for (int b = 0; b < blocks; ++b)
    for (int w = 0; w < threads / kWarp; ++w) {
      e.at(b, w);
      for (int l = 0; l < kWarp; ++l) a[l] = 4 * (w * kWarp + l);
      e.record("st", 4, a);
      for (int i = 0; i < kFillRounds; ++i) {
        for (int l = 0; l < kWarp; ++l) a[l] = 4 * ((w * kWarp + l + i) % 256);
        e.record("ld", 4, a);
      }
    }
}

void run_fault(Expected& e, void* buffer, std::vector<long long>& a) {
  fault<<<1, 32>>>(static_cast<int*>(buffer));
  e.at(0, 0);
  for (int l = 0; l < kWarp; ++l) a[l] = 4 * l;
  e.record("st", 4, a);
  for (int l = 0; l < kWarp; ++l) a[l] = 4 * (31 - l);
  e.record("ld", 4, a);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: smoke_kernels CASE EXPECTED.trace\n");
    return 2;
  }
  const std::pair<const char*, Case> cases[] = {{"conflicts", run_conflicts}, {"wide", run_wide},
                                                {"atomic", run_atomic},       {"ldmatrix", run_ldmatrix},
                                                {"cpasync", run_cpasync},     {"fill", run_fill},
                                                {"fault", run_fault}};
  const std::string c = argv[1];
  Case run = nullptr;
  for (const auto& [name, f] : cases)
    if (c == name) run = f;
  if (run == nullptr) {
    std::fprintf(stderr, "unknown case '%s' (conflicts, wide, atomic, ldmatrix, cpasync, fill, fault)\n", c.c_str());
    return 2;
  }
  Expected e(argv[2]);
  void* buffer = nullptr;
  check(cudaMalloc(&buffer, 1 << 20), "cudaMalloc");
  std::vector<long long> a(kWarp);
  run(e, buffer, a);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "kernel");
  return 0;
}
