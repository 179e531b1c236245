// CUB device algorithms on deterministic inputs, one per run, for capture
// and per-instruction comparison with Nsight Compute (validate/programs/
// run_compare.sh). Nothing here is bankcheck's code: the kernels are CUB's
// (CUDA 13.0), called as a user would. Each run checks its own result on
// the host and exits 1 on a wrong answer, so a capture of a broken run is
// never compared.
//   cub_device ALGORITHM [N]
// ALGORITHM: merge_sort_u32 merge_sort_u64 merge_sort_pairs radix_sort_u32
//            histogram select partition scan reduce
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

template <class T>
struct Device {
  T* p = nullptr;
  std::size_t n = 0;
  explicit Device(std::size_t count) : n(count) { CHECK(cudaMalloc(&p, sizeof(T) * std::max<std::size_t>(n, 1))); }
  explicit Device(const std::vector<T>& h) : Device(h.size()) {
    CHECK(cudaMemcpy(p, h.data(), sizeof(T) * n, cudaMemcpyHostToDevice));
  }
  ~Device() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), p, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return h;
  }
};

/// CUB's two-call temporary-storage protocol, once.
template <class F>
void with_temp(F&& f) {
  std::size_t bytes = 0;
  CHECK(f(nullptr, bytes));
  Device<unsigned char> temp(bytes);
  CHECK(f(temp.p, bytes));
  CHECK(cudaDeviceSynchronize());
}

template <class T>
std::vector<T> random_keys(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng());
  return v;
}

struct Less {
  template <class T>
  __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};
struct IsOdd {
  __device__ bool operator()(std::uint32_t x) const { return x & 1; }
};

int fail(const char* what) {
  std::fprintf(stderr, "wrong result: %s\n", what);
  return 1;
}

template <class K>
int merge_sort_keys(std::size_t n) {
  auto h = random_keys<K>(n, 1);
  Device<K> d(h);
  with_temp([&](void* t, std::size_t& b) { return cub::DeviceMergeSort::SortKeys(t, b, d.p, (std::int64_t)n, Less{}); });
  std::sort(h.begin(), h.end());
  return d.get() == h ? 0 : fail("merge sort keys");
}

int merge_sort_pairs(std::size_t n) {
  auto k = random_keys<std::uint32_t>(n, 2);
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  Device<std::uint32_t> dk(k), dv(v);
  with_temp([&](void* t, std::size_t& b) {
    return cub::DeviceMergeSort::SortPairs(t, b, dk.p, dv.p, (std::int64_t)n, Less{});
  });
  const auto gk = dk.get(), gv = dv.get();
  for (std::size_t i = 0; i < n; ++i)
    if (k[gv[i]] != gk[i] || (i && gk[i - 1] > gk[i])) return fail("merge sort pairs");
  return 0;
}

int radix_sort(std::size_t n) {
  auto h = random_keys<std::uint32_t>(n, 3);
  Device<std::uint32_t> in(h), out(n);
  with_temp([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, in.p, out.p, (int)n); });
  std::sort(h.begin(), h.end());
  return out.get() == h ? 0 : fail("radix sort");
}

int histogram(std::size_t n) {
  auto h = random_keys<std::uint32_t>(n, 4);
  for (auto& x : h) x %= 1000;
  Device<std::uint32_t> in(h);
  Device<int> bins(256);
  with_temp([&](void* t, std::size_t& b) {
    return cub::DeviceHistogram::HistogramEven(t, b, in.p, bins.p, 257, 0u, 1000u, (int)n);
  });
  std::vector<int> want(256, 0);
  for (auto x : h) want[std::min<std::size_t>(255, x * 256 / 1000)]++;
  return bins.get() == want ? 0 : fail("histogram");
}

int select(std::size_t n, bool partition) {
  auto h = random_keys<std::uint32_t>(n, 5);
  Device<std::uint32_t> in(h), out(n);
  Device<int> count(1);
  with_temp([&](void* t, std::size_t& b) {
    return partition ? cub::DevicePartition::If(t, b, in.p, out.p, count.p, (int)n, IsOdd{})
                     : cub::DeviceSelect::If(t, b, in.p, out.p, count.p, (int)n, IsOdd{});
  });
  std::vector<std::uint32_t> odd;
  for (auto x : h)
    if (x & 1) odd.push_back(x);
  const auto got = out.get();
  const int c = count.get()[0];
  return c == (int)odd.size() && std::equal(odd.begin(), odd.end(), got.begin()) ? 0 : fail("select/partition");
}

int scan(std::size_t n) {
  auto h = random_keys<std::uint32_t>(n, 6);
  Device<std::uint32_t> in(h), out(n);
  with_temp([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, in.p, out.p, (int)n); });
  std::inclusive_scan(h.begin(), h.end(), h.begin());
  return out.get() == h ? 0 : fail("scan");
}

int reduce(std::size_t n) {
  auto h = random_keys<std::uint32_t>(n, 7);
  Device<std::uint32_t> in(h), out(1);
  with_temp([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, in.p, out.p, (int)n); });
  return out.get()[0] == std::accumulate(h.begin(), h.end(), 0u) ? 0 : fail("reduce");
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cub_device ALGORITHM [N]\n");
    return 2;
  }
  const std::string a = argv[1];
  const std::size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (1u << 18);
  int rc = 2;
  if (a == "merge_sort_u32") rc = merge_sort_keys<std::uint32_t>(n);
  else if (a == "merge_sort_u64") rc = merge_sort_keys<std::uint64_t>(n);
  else if (a == "merge_sort_pairs") rc = merge_sort_pairs(n);
  else if (a == "radix_sort_u32") rc = radix_sort(n);
  else if (a == "histogram") rc = histogram(n);
  else if (a == "select") rc = select(n, false);
  else if (a == "partition") rc = select(n, true);
  else if (a == "scan") rc = scan(n);
  else if (a == "reduce") rc = reduce(n);
  else std::fprintf(stderr, "unknown algorithm '%s'\n", a.c_str());
  if (rc == 0) std::printf("%s n=%zu ok\n", a.c_str(), n);
  return rc;
}
