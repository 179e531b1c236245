// Shared-memory conflict latency and throughput on one GPU, for comparing
// bank conflicts' cost with Karsin et al.'s form L_S + (k-1) L_S / 2.
//
//   shmem_latency OUTDIR [--reps N]
//
// writes OUTDIR/raw_latency.csv, OUTDIR/raw_throughput.csv,
// OUTDIR/patterns.trace (every pattern as bankcheck trace lines, ld and st,
// so the model's wavefronts can be checked with `bankcheck replay`) and
// OUTDIR/device.txt. validate/latency/analyze.py turns them into
// latency.csv and the plot.
//
// Patterns (lane -> byte offset in the shared array), for width 4, 8, 16:
//   cf        lane l -> l * width (conflict-free rows)
//   bcast     every lane -> 0
//   spread k  lane l -> (l mod k) * 128: k distinct rows of one bank (group),
//             lanes spread evenly over them (k = 2..32)
//   solo k    width 4 only: lanes 0..k-1 -> l * 128 (k rows of bank 0), the
//             other lanes on their own banks (Karsin's k threads in conflict)
//
// Latency: one warp, one block; each lane chases a pointer through shared
// memory, a <- ld[a] (every word holds its own address, so the pattern stays
// the same on every load and each load waits for the previous one). Time by
// clock64 over N1 and N2 loads; cycles per access = (T(N2)-T(N1))/(N2-N1),
// which cancels the fixed cost of the timing code. The "stld" chain does
// st[a] <- a; a <- ld[a] per step (a store, then a load of the same address).
//
// Throughput: 1024 threads per block, as many blocks as fit on every SM at
// once; each warp issues 8 independent loads (ld.volatile, so ptxas keeps
// all of them) or stores per loop iteration at its pattern's addresses.
// Per SM: cycles = max(end) - min(start) of its blocks (clock64 is per SM);
// cycles per instruction = cycles / (instructions issued on that SM).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

constexpr int kWarp = 32;
constexpr int kRegion = 8 * 1024;  // bytes initialised; patterns stay below 4 KiB

#include "../cuda_check.cuh"  // CHECK(call)

struct Lanes {
  uint32_t a[kWarp];
};

__device__ __forceinline__ uint32_t shared_base(const void* s) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(s));
}

// Every 4-byte word holds its own shared address, so a load at any aligned
// address returns that address in its first word.
__device__ __forceinline__ void init_region(uint32_t* w) {
  const uint32_t base = shared_base(w);
  for (int i = threadIdx.x; i < kRegion / 4; i += blockDim.x) w[i] = base + 4 * i;
}

// Volatile for the store-then-load chain: ptxas would otherwise forward the
// stored value to the load and drop the load (and with it the dependency).
template <int W, bool Volatile = false>
__device__ __forceinline__ void chase(uint32_t& a, uint32_t& sink) {
  if constexpr (W == 4) {
    if constexpr (Volatile)
      asm volatile("ld.volatile.shared.u32 %0, [%0];" : "+r"(a)::"memory");
    else
      asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a)::"memory");
  } else if constexpr (W == 8) {
    uint32_t y;
    if constexpr (Volatile)
      asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%0];" : "+r"(a), "=r"(y)::"memory");
    else
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%0];" : "+r"(a), "=r"(y)::"memory");
    sink ^= y;
  } else {
    uint32_t y, z, t;
    if constexpr (Volatile)
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%0];" : "+r"(a), "=r"(y), "=r"(z), "=r"(t)::"memory");
    else
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%0];" : "+r"(a), "=r"(y), "=r"(z), "=r"(t)::"memory");
    sink ^= y ^ z ^ t;
  }
}

// Store the address into its own word (the value the load will return), then
// load it back: the next step's address needs the load, the load follows the
// store to the same address.
template <int W>
__device__ __forceinline__ void store_then_chase(uint32_t& a, uint32_t& sink) {
  if constexpr (W == 4) {
    asm volatile("st.volatile.shared.u32 [%0], %0;" ::"r"(a) : "memory");
  } else if constexpr (W == 8) {
    asm volatile("st.volatile.shared.v2.u32 [%0], {%0, %1};" ::"r"(a), "r"(a + 4) : "memory");
  } else {
    asm volatile("st.volatile.shared.v4.u32 [%0], {%0, %1, %2, %3};" ::"r"(a), "r"(a + 4), "r"(a + 8),
                 "r"(a + 12) : "memory");
  }
  chase<W, true>(a, sink);
}

#define REPEAT8(...) __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__

template <int W, bool StoreLoad>
__global__ void __launch_bounds__(kWarp) latency_kernel(const __grid_constant__ Lanes p, int iters,
                                                        long long* cycles, uint32_t* sink_out) {
  __shared__ __align__(16) uint32_t words[kRegion / 4];
  init_region(words);
  __syncwarp();
  uint32_t a = shared_base(words) + p.a[threadIdx.x];
  uint32_t sink = 0;
  // warm-up: the first loads of the pattern, outside the timed region
  REPEAT8(chase<W>(a, sink);)
  __syncwarp();
  const long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < iters; i += 16) {
    if constexpr (StoreLoad) {
      REPEAT8(store_then_chase<W>(a, sink);)
      REPEAT8(store_then_chase<W>(a, sink);)
    } else {
      REPEAT8(chase<W>(a, sink);)
      REPEAT8(chase<W>(a, sink);)
    }
  }
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[0] = t1 - t0;
  if (a == 0xFFFFFFFFu) sink_out[threadIdx.x] = sink;  // keeps the chain; never true
}

template <int W, bool Store>
__device__ __forceinline__ void independent(uint32_t a, uint32_t& acc) {
  if constexpr (Store) {
    if constexpr (W == 4)
      asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(acc) : "memory");
    else if constexpr (W == 8)
      asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};" ::"r"(a), "r"(acc) : "memory");
    else
      asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(acc) : "memory");
    acc += 1;
  } else {
    if constexpr (W == 4) {
      uint32_t x;
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
      acc ^= x;
    } else if constexpr (W == 8) {
      uint32_t x, y;
      asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
      acc ^= x ^ y;
    } else {
      uint32_t x, y, z, t;
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(t)
                   : "r"(a) : "memory");
      acc ^= x ^ y ^ z ^ t;
    }
  }
}

struct BlockTime {
  long long start, end;
  unsigned smid, pad;
};

template <int W, bool Store>
__global__ void __launch_bounds__(1024, 2) throughput_kernel(const __grid_constant__ Lanes p, int iters,
                                                             BlockTime* times, uint32_t* sink_out) {
  __shared__ __align__(16) uint32_t words[kRegion / 4];
  init_region(words);
  const uint32_t a = shared_base(words) + p.a[threadIdx.x % kWarp];
  uint32_t acc = threadIdx.x;
  __syncthreads();
  long long t0 = 0;
  if (threadIdx.x == 0) t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
    REPEAT8(independent<W, Store>(a, acc);)
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    times[blockIdx.x] = BlockTime{t0, clock64(), smid, 0};
  }
  if (acc == 0x9E3779B9u) sink_out[threadIdx.x % kWarp] = acc;  // keeps the loads; never true
}

struct Pattern {
  std::string family;
  int width, k;
  Lanes lanes;
};

static std::vector<Pattern> patterns() {
  std::vector<Pattern> out;
  for (int w : {4, 8, 16}) {
    Pattern cf{"cf", w, 1, {}}, bc{"bcast", w, 1, {}};
    for (int l = 0; l < kWarp; ++l) cf.lanes.a[l] = l * w, bc.lanes.a[l] = 0;
    out.push_back(cf);
    out.push_back(bc);
    for (int k = 2; k <= 32; ++k) {
      Pattern s{"spread", w, k, {}};
      for (int l = 0; l < kWarp; ++l) s.lanes.a[l] = (l % k) * 128;
      out.push_back(s);
    }
    if (w == 4)
      for (int k = 2; k < 32; ++k) {
        Pattern s{"solo", w, k, {}};
        for (int l = 0; l < kWarp; ++l) s.lanes.a[l] = l < k ? l * 128 : 4 * l;
        out.push_back(s);
      }
  }
  return out;
}

template <int W>
static double latency_once(const Pattern& pt, bool store_load, long long* d_cycles, uint32_t* d_sink) {
  const int n1 = 512, n2 = 2560;
  long long c1 = 0, c2 = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int n = pass ? n2 : n1;
    if (store_load)
      latency_kernel<W, true><<<1, kWarp>>>(pt.lanes, n, d_cycles, d_sink);
    else
      latency_kernel<W, false><<<1, kWarp>>>(pt.lanes, n, d_cycles, d_sink);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(pass ? &c2 : &c1, d_cycles, sizeof(long long), cudaMemcpyDeviceToHost));
  }
  return double(c2 - c1) / double(n2 - n1);
}

struct Throughput {
  double median_cpi, min_cpi, max_cpi;
  int sms;
  double warps_per_sm;
};

template <int W>
static Throughput throughput_once(const Pattern& pt, bool store, int blocks, int iters, BlockTime* d_times,
                                  uint32_t* d_sink) {
  if (store)
    throughput_kernel<W, true><<<blocks, 1024>>>(pt.lanes, iters, d_times, d_sink);
  else
    throughput_kernel<W, false><<<blocks, 1024>>>(pt.lanes, iters, d_times, d_sink);
  CHECK(cudaGetLastError());
  std::vector<BlockTime> t(blocks);
  CHECK(cudaMemcpy(t.data(), d_times, sizeof(BlockTime) * blocks, cudaMemcpyDeviceToHost));
  std::map<unsigned, std::pair<long long, long long>> span;
  std::map<unsigned, int> per_sm;
  for (const auto& b : t) {
    auto it = span.find(b.smid);
    if (it == span.end())
      span[b.smid] = {b.start, b.end};
    else
      it->second = {std::min(it->second.first, b.start), std::max(it->second.second, b.end)};
    per_sm[b.smid]++;
  }
  std::vector<double> cpi;
  double warps = 0;
  for (const auto& [sm, s] : span) {
    const double instr = double(per_sm[sm]) * 32 * double(iters) * 8;  // 32 warps per block
    cpi.push_back(double(s.second - s.first) / instr);
    warps += per_sm[sm] * 32;
  }
  std::sort(cpi.begin(), cpi.end());
  return {cpi[cpi.size() / 2], cpi.front(), cpi.back(), int(cpi.size()), warps / double(cpi.size())};
}

/// The device, written to DIR/device.txt; returns the blocks of the throughput runs (every SM full).
int describe_device(const std::string& dir) {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, throughput_kernel<4, false>, 1024, 0));
  const int blocks = prop.multiProcessorCount * std::max(per_sm, 1);
  if (FILE* f = std::fopen((dir + "/device.txt").c_str(), "w")) {
    std::fprintf(f, "name %s\nsms %d\nclock_khz_attribute %d\nthroughput_blocks_per_sm %d\nthroughput_blocks %d\n",
                 prop.name, prop.multiProcessorCount, clock_khz, per_sm, blocks);
    std::fclose(f);
  }
  return blocks;
}

/// The patterns as a trace (DIR/patterns.trace), for bankcheck's predictions.
template <class Patterns>
void write_patterns_trace(const std::string& dir, const Patterns& pats) {
  FILE* f = std::fopen((dir + "/patterns.trace").c_str(), "w");
  if (!f) return;
  std::fprintf(f, "# shared-memory latency/throughput patterns (validate/latency/shmem_latency.cu)\nwarp 32\n");
  for (const auto& pt : pats)
    for (const char* op : {"ld", "st"}) {
      std::fprintf(f, "@lat-%s-w%d-k%d %s %d", pt.family.c_str(), pt.width, pt.k, op, pt.width);
      for (int l = 0; l < kWarp; ++l) std::fprintf(f, " %u", pt.lanes.a[l]);
      std::fprintf(f, "\n");
    }
  std::fclose(f);
}

/// One pattern, loads and stores: `reps` latency runs and reps/2 throughput runs, a CSV row each.
template <class Pattern>
void measure_pattern(const Pattern& pt, int reps, int blocks, FILE* lat, FILE* thr, long long* d_cycles,
                     uint32_t* d_sink, BlockTime* d_times) {
  const int iters = 1024;  // 8192 instructions per warp
  for (int mode = 0; mode < 2; ++mode) {
    for (int r = 0; r < reps; ++r) {
      double c = 0;
      switch (pt.width) {
        case 4: c = latency_once<4>(pt, mode == 1, d_cycles, d_sink); break;
        case 8: c = latency_once<8>(pt, mode == 1, d_cycles, d_sink); break;
        default: c = latency_once<16>(pt, mode == 1, d_cycles, d_sink); break;
      }
      std::fprintf(lat, "%s,%d,%s,%d,%d,%.3f\n", mode ? "stld" : "ld", pt.width, pt.family.c_str(), pt.k, r, c);
    }
    for (int r = 0; r < std::max(1, reps / 2); ++r) {
      Throughput t{};
      switch (pt.width) {
        case 4: t = throughput_once<4>(pt, mode == 1, blocks, iters, d_times, d_sink); break;
        case 8: t = throughput_once<8>(pt, mode == 1, blocks, iters, d_times, d_sink); break;
        default: t = throughput_once<16>(pt, mode == 1, blocks, iters, d_times, d_sink); break;
      }
      std::fprintf(thr, "%s,%d,%s,%d,%d,%.4f,%.4f,%.4f,%d,%.1f\n", mode ? "st" : "ld", pt.width, pt.family.c_str(),
                   pt.k, r, t.median_cpi, t.min_cpi, t.max_cpi, t.sms, t.warps_per_sm);
    }
  }
  std::fflush(lat);
  std::fflush(thr);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTDIR [--reps N]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  int reps = 7;
  if (argc >= 4 && std::string(argv[2]) == "--reps") reps = std::atoi(argv[3]);
  const int blocks = describe_device(dir);

  long long* d_cycles = nullptr;
  uint32_t* d_sink = nullptr;
  BlockTime* d_times = nullptr;
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(uint32_t) * 1024));
  CHECK(cudaMalloc(&d_times, sizeof(BlockTime) * blocks));

  const auto pats = patterns();
  write_patterns_trace(dir, pats);
  FILE* lat = std::fopen((dir + "/raw_latency.csv").c_str(), "w");
  FILE* thr = std::fopen((dir + "/raw_throughput.csv").c_str(), "w");
  if (!lat || !thr) {
    std::fprintf(stderr, "cannot write into %s\n", dir.c_str());
    return 1;
  }
  std::fprintf(lat, "mode,width,family,k,rep,cycles_per_step\n");
  std::fprintf(thr, "mode,width,family,k,rep,cycles_per_inst_per_sm_median,min,max,sms,warps_per_sm\n");
  for (const auto& pt : pats) measure_pattern(pt, reps, blocks, lat, thr, d_cycles, d_sink, d_times);
  std::fclose(lat);
  std::fclose(thr);
  CHECK(cudaDeviceSynchronize());
  std::printf("%zu patterns x (ld, st) measured, %d latency reps, %d throughput reps, %d blocks of 1024\n", pats.size(),
              reps, std::max(1, reps / 2), blocks);
  return 0;
}
