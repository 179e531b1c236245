// CUB block primitives in small kernels a user might write, for capture and
// per-instruction comparison with Nsight Compute (validate/programs/
// run_compare.sh). Each kernel's output is checked on the host.
//   cub_block PRIMITIVE      (exchange radix_sort scan_raking scan_warp_scans
//                             histogram merge_sort load_transpose load_warp_transpose)
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../cuda_check.cuh"  // CHECK(call)

constexpr int kThreads = 128, kItems = 8, kTile = kThreads * kItems, kBlocks = 64;
using Key = std::uint32_t;

__global__ void exchange(const Key* in, Key* out) {
  using Exchange = cub::BlockExchange<Key, kThreads, kItems>;
  __shared__ typename Exchange::TempStorage temp;
  Key items[kItems];
  const Key* tile = in + blockIdx.x * kTile;
  for (int i = 0; i < kItems; ++i) items[i] = tile[i * kThreads + threadIdx.x];  // striped
  Exchange(temp).StripedToBlocked(items);
  for (int i = 0; i < kItems; ++i) out[blockIdx.x * kTile + threadIdx.x * kItems + i] = items[i];
}

__global__ void radix_sort(const Key* in, Key* out) {
  using Sort = cub::BlockRadixSort<Key, kThreads, kItems>;
  __shared__ typename Sort::TempStorage temp;
  Key items[kItems];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * kTile, items);
  Sort(temp).Sort(items);
  cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * kTile, items);
}

template <cub::BlockScanAlgorithm A>
__global__ void scan(const Key* in, Key* out) {
  using Scan = cub::BlockScan<Key, kThreads, A>;
  __shared__ typename Scan::TempStorage temp;
  Key items[kItems];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * kTile, items);
  Scan(temp).InclusiveSum(items, items);
  cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * kTile, items);
}

__global__ void histogram(const Key* in, unsigned* bins) {
  using Hist = cub::BlockHistogram<unsigned char, kThreads, kItems, 256>;
  __shared__ typename Hist::TempStorage temp;
  __shared__ unsigned smem[256];
  unsigned char items[kItems];
  for (int i = 0; i < kItems; ++i) items[i] = static_cast<unsigned char>(in[blockIdx.x * kTile + threadIdx.x * kItems + i]);
  Hist(temp).Histogram(items, smem);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += kThreads) atomicAdd(&bins[b], smem[b]);
}

struct Less {
  __device__ bool operator()(Key a, Key b) const { return a < b; }
};

__global__ void merge_sort(const Key* in, Key* out) {
  using Sort = cub::BlockMergeSort<Key, kThreads, kItems>;
  __shared__ typename Sort::TempStorage temp;
  Key items[kItems];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * kTile, items);
  Sort(temp).Sort(items, Less{});
  cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * kTile, items);
}

template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void load_store(const Key* in, Key* out) {
  using Load = cub::BlockLoad<Key, kThreads, kItems, L>;
  using Store = cub::BlockStore<Key, kThreads, kItems, S>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } temp;
  Key items[kItems];
  Load(temp.load).Load(in + blockIdx.x * kTile, items);
  for (auto& x : items) x += 1;
  __syncthreads();
  Store(temp.store).Store(out + blockIdx.x * kTile, items);
}

/// Launches primitive `p` and writes into `want` what its output must be
/// (the histogram is checked from `h` itself). False for an unknown primitive.
bool launch(const std::string& p, const Key* in, Key* out, unsigned* bins, const std::vector<Key>& h,
            std::vector<Key>& want) {
  bool known = true;
  if (p == "exchange") {
    exchange<<<kBlocks, kThreads>>>(in, out);
    for (std::size_t b = 0; b < kBlocks; ++b)
      for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i < kItems; ++i) want[b * kTile + t * kItems + i] = h[b * kTile + (t * kItems + i)];
  } else if (p == "radix_sort" || p == "merge_sort") {
    if (p == "radix_sort") radix_sort<<<kBlocks, kThreads>>>(in, out);
    else merge_sort<<<kBlocks, kThreads>>>(in, out);
    for (std::size_t b = 0; b < kBlocks; ++b) std::sort(want.begin() + b * kTile, want.begin() + (b + 1) * kTile);
  } else if (p == "scan_raking" || p == "scan_warp_scans") {
    if (p == "scan_raking") scan<cub::BLOCK_SCAN_RAKING><<<kBlocks, kThreads>>>(in, out);
    else scan<cub::BLOCK_SCAN_WARP_SCANS><<<kBlocks, kThreads>>>(in, out);
    for (std::size_t b = 0; b < kBlocks; ++b)
      std::inclusive_scan(want.begin() + b * kTile, want.begin() + (b + 1) * kTile, want.begin() + b * kTile);
  } else if (p == "histogram") {
    histogram<<<kBlocks, kThreads>>>(in, bins);
  } else if (p == "load_transpose" || p == "load_warp_transpose") {
    if (p == "load_transpose")
      load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE><<<kBlocks, kThreads>>>(in, out);
    else
      load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE><<<kBlocks, kThreads>>>(in, out);
    for (auto& x : want) x += 1;
  } else {
    known = false;
  }
  return known;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cub_block PRIMITIVE\n");
    return 2;
  }
  const std::string p = argv[1];
  const std::size_t n = std::size_t{kTile} * kBlocks;
  std::mt19937 rng(11);
  std::vector<Key> h(n);
  for (auto& x : h) x = rng();
  Key *in, *out;
  unsigned* bins;
  CHECK(cudaMalloc(&in, n * sizeof(Key)));
  CHECK(cudaMalloc(&out, n * sizeof(Key)));
  CHECK(cudaMalloc(&bins, 256 * sizeof(unsigned)));
  CHECK(cudaMemset(bins, 0, 256 * sizeof(unsigned)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(Key), cudaMemcpyHostToDevice));
  std::vector<Key> want(h);
  const bool known = launch(p, in, out, bins, h, want);
  if (!known) {
    std::fprintf(stderr, "unknown primitive '%s'\n", p.c_str());
    return 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  if (p == "histogram") {
    std::vector<unsigned> got(256), expect(256, 0);
    CHECK(cudaMemcpy(got.data(), bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (auto x : h) expect[x & 0xff]++;
    ok = got == expect;
  } else {
    std::vector<Key> got(n);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(Key), cudaMemcpyDeviceToHost));
    ok = got == want;
  }
  std::printf("%s: %s\n", p.c_str(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
