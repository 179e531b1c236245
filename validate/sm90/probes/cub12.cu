// What shared-memory accesses CUB makes for a 12-byte value type: one launch
// per (collective, type), each a single block, so ncu's per-instruction
// SourceCounters (and the SASS, built with -lineinfo) show every LDS/STS the
// collective issues and its wavefronts.
//
//   cub12 [--log FILE]
//
// Types: int (4 bytes, the reference), S12 {int a, b, c} (alignment 4,
// sizeof 12) and S12A16 (the same members, alignas(16), sizeof 16). The scan
// operator adds member-wise (a custom functor, so CUB cannot use a built-in
// path for it). Collectives:
//   warp_scan         cub::WarpScan<T>::InclusiveScan, one warp
//   block_scan_*      cub::BlockScan<T, 128, ALGO>::InclusiveScan for ALGO =
//                     BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE,
//                     BLOCK_SCAN_WARP_SCANS
//   block_exchange    cub::BlockExchange<T, 128, 3>::StripedToBlocked
// Input is lane-dependent, output goes to global memory and is checked on
// the host against a serial computation (a wrong result is reported, the
// run goes on). --log writes the launch names in order (ncu's order).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../cuda_check.cuh"  // CHECK(call)

struct S12 {
  int a, b, c;
};
struct alignas(16) S12A16 {
  int a, b, c;
};

template <class T>
__host__ __device__ T make(int i) {
  if constexpr (std::is_same_v<T, int>) {
    return i;
  } else {
    T v;
    v.a = i;
    v.b = 2 * i + 1;
    v.c = i * i;
    return v;
  }
}

struct Add {
  __host__ __device__ int operator()(int x, int y) const { return x + y; }
  template <class T>
  __host__ __device__ T operator()(const T& x, const T& y) const {
    T r;
    r.a = x.a + y.a;
    r.b = x.b + y.b;
    r.c = x.c + y.c;
    return r;
  }
};

template <class T>
__host__ __device__ bool same(const T& x, const T& y) {
  if constexpr (std::is_same_v<T, int>)
    return x == y;
  else
    return x.a == y.a && x.b == y.b && x.c == y.c;
}

constexpr int kThreads = 128;
constexpr int kItems = 3;

template <class T>
__global__ void __launch_bounds__(32) cub12_warp_scan(T* out) {
  using Scan = cub::WarpScan<T>;
  __shared__ typename Scan::TempStorage tmp;
  T v = make<T>(threadIdx.x + 1);
  Scan(tmp).InclusiveScan(v, v, Add{});
  out[threadIdx.x] = v;
}

template <class T, cub::BlockScanAlgorithm Algo>
__global__ void __launch_bounds__(kThreads) cub12_block_scan(T* out) {
  using Scan = cub::BlockScan<T, kThreads, Algo>;
  __shared__ typename Scan::TempStorage tmp;
  T v = make<T>(threadIdx.x + 1);
  Scan(tmp).InclusiveScan(v, v, Add{});
  out[threadIdx.x] = v;
}

template <class T>
__global__ void __launch_bounds__(kThreads) cub12_block_exchange(T* out) {
  using Exchange = cub::BlockExchange<T, kThreads, kItems>;
  __shared__ typename Exchange::TempStorage tmp;
  T items[kItems];
  for (int i = 0; i < kItems; ++i) items[i] = make<T>(i * kThreads + threadIdx.x);  // striped
  Exchange(tmp).StripedToBlocked(items, items);
  for (int i = 0; i < kItems; ++i) out[threadIdx.x * kItems + i] = items[i];
}

static int failures = 0;

template <class T>
static void check(const char* name, const T* d, const std::vector<T>& expect) {
  std::vector<T> got(expect.size());
  CHECK(cudaMemcpy(got.data(), d, sizeof(T) * got.size(), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < got.size(); ++i)
    if (!same(got[i], expect[i])) {
      std::fprintf(stderr, "%s: wrong result at %zu\n", name, i);
      ++failures;
      return;
    }
}

template <class T>
static void run_type(const char* tname, FILE* log) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(T) * kThreads * kItems));
  std::vector<T> scan(kThreads);
  T acc = make<T>(1);
  for (int i = 0; i < kThreads; ++i) {
    if (i) acc = Add{}(acc, make<T>(i + 1));
    scan[i] = acc;
  }
  std::vector<T> warp(scan.begin(), scan.begin() + 32);
  std::vector<T> blocked(kThreads * kItems);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kItems; ++i) blocked[t * kItems + i] = make<T>(t * kItems + i);

  auto launched = [&](const std::string& what, const char* fn) {
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (log) std::fprintf(log, "%s-%s\t%s\n", what.c_str(), tname, fn);
  };
  cub12_warp_scan<T><<<1, 32>>>(d);
  launched("warp_scan", "cub12_warp_scan");
  check("warp_scan", d, warp);
  cub12_block_scan<T, cub::BLOCK_SCAN_RAKING><<<1, kThreads>>>(d);
  launched("block_scan_raking", "cub12_block_scan");
  check("block_scan_raking", d, scan);
  cub12_block_scan<T, cub::BLOCK_SCAN_RAKING_MEMOIZE><<<1, kThreads>>>(d);
  launched("block_scan_raking_memoize", "cub12_block_scan");
  check("block_scan_raking_memoize", d, scan);
  cub12_block_scan<T, cub::BLOCK_SCAN_WARP_SCANS><<<1, kThreads>>>(d);
  launched("block_scan_warp_scans", "cub12_block_scan");
  check("block_scan_warp_scans", d, scan);
  cub12_block_exchange<T><<<1, kThreads>>>(d);
  launched("block_exchange", "cub12_block_exchange");
  check("block_exchange", d, blocked);
  CHECK(cudaFree(d));
}

int main(int argc, char** argv) {
  FILE* log = nullptr;
  if (argc >= 3 && std::string(argv[1]) == "--log") log = std::fopen(argv[2], "w");
  run_type<int>("int", log);
  run_type<S12>("S12", log);
  run_type<S12A16>("S12A16", log);
  if (log) std::fclose(log);
  std::printf("cub12: 15 launches, %d wrong results\n", failures);
  return failures ? 1 : 0;
}
