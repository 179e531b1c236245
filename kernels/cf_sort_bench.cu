// The CF-Merge device merge sort (kernels/cf_merge_sort.cuh) against
// cub::DeviceMergeSort (the sort it replaces) and cub::DeviceRadixSort (a
// reference point: merge sort is what one uses for a custom comparator).
//
//   kernel.cf_sort_bench --mode check [--quick]       correctness sweep, exit 0/1 (77 without a GPU);
//                                                     --quick: a few small sizes (for compute-sanitizer)
//   kernel.cf_sort_bench --mode time [--csv FILE] [--log-min I] [--log-max I] [--keys 4|8|all]
//                        [--pairs 0|1|all] [--reps R] [--no-radix]
//   kernel.cf_sort_bench --mode tune [--csv FILE] [--keys 4|8|all] [--pairs 0|1|all] [--reps R]
//   kernel.cf_sort_bench --mode profile --keys 4|8 --algo cf|cub --input random|worst-cub|worst-cf --log I
//
// check: n = 0, 1, 2, 17, 4351, 4352, 4353, 65539, 1e6+3 and tile multiples, 4- and 8-byte keys,
//   keys and pairs, ascending and descending comparators, random keys with and without
//   duplicates, sorted, reversed, equal, and the worst cases below: our output equals
//   std::sort (keys) / std::stable_sort's keys with every value kept beside its own key
//   (pairs; the sort is not stable, as CUB's SortKeys/SortPairs), and CUB's keys.
// time: for each key size, two series of n = 2^i E, i = log-min..log-max (16..26):
//   E of CUB's tiling (CUB 13.0 for sm_90: u = 256, E = 17 for 4-byte keys, E = 8
//   for 8-byte keys: Policy600 of cub/device/dispatch/tuning/tuning_merge_sort.cuh,
//   Nominal4BItemsToItems<KeyT>(17)) with inputs "random" and "worst-cub", and E of
//   ours with "random" and "worst-cf" (one series when the tilings coincide). Keys
//   are permutations of 0..n-1: "random" a keyed Feistel permutation, "worst-*" the
//   whole-sort adversary (sim/inputs/merge_sort_adversary.hpp) built for that tiling
//   (w = 32 4-byte banks; 16 for 8-byte keys, whose requests the H100 serves by
//   half-warps). Values (pairs) are the input positions. Each (algorithm, input, n):
//   one warm-up, then `reps` (>= 10) CUDA-event timings of the whole sort, input
//   restored before each (not timed), median reported; every output is checked on
//   the GPU (sorted = 0..n-1, value = the key's input position: equal to std::sort).
//   CSV rows: key_bytes,pairs,algorithm,input,n,median_ms,keys_per_us; then the
//   headline ratios at n >= 2^22 E.
// tune: the compiled-in candidate policies (u, E, register bound, load) on random keys.
// profile: one sort (no warm-up) for Nsight Compute.
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels/cf_merge_sort.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"

namespace {

using bankcheck::cf::DefaultPolicy;
using bankcheck::cf::DeviceMergeSortPolicy;
using bankcheck::cf::Policy;

constexpr int kSkipped = 77;

#define CHECK_CUDA(call)                                                                                      \
  do {                                                                                                        \
    const cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                                  \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #call); \
      std::exit(1);                                                                                           \
    }                                                                                                         \
  } while (0)

struct Less {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
struct Greater {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return b < a;
  }
};

/// The value type of a key size's pairs: an unsigned integer of the key's width.
template <class Key>
using ValueOf = std::conditional_t<sizeof(Key) == 8, std::uint64_t, std::uint32_t>;

/// Device memory, freed on scope exit.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : n_(n) {
    if (n > 0) CHECK_CUDA(cudaMalloc(&p_, n * sizeof(T)));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~Buffer() {
    if (p_) cudaFree(p_);
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  void upload(const std::vector<T>& v) {
    if (!v.empty()) CHECK_CUDA(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(std::size_t n) const {
    std::vector<T> v(n);
    if (n > 0) CHECK_CUDA(cudaMemcpy(v.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

/// CUB's own merge-sort tiling for the key type on sm_90 (the policy that
/// cub::DeviceMergeSort dispatches to there), read from CUB's tuning header.
template <class Key>
struct CubTiling {
  using Pol = typename cub::detail::merge_sort::policy_hub<Key*>::Policy600::MergeSortPolicy;
  static constexpr int kThreads = Pol::BLOCK_THREADS;
  static constexpr int kItems = Pol::ITEMS_PER_THREAD;
};
static_assert(CubTiling<std::int32_t>::kThreads == 256 && CubTiling<std::int32_t>::kItems == 17,
              "CUB 13.0 sm_90 merge sort, 4-byte keys: u = 256, E = 17");
static_assert(CubTiling<std::int64_t>::kThreads == 256 && CubTiling<std::int64_t>::kItems == 8,
              "CUB 13.0 sm_90 merge sort, 8-byte keys: u = 256, E = 8");

/// Our default tiling (kernels/cf_merge_sort.cuh) for keys of the type, keys only or pairs.
template <class Key, bool kPairs>
using CfDefault = typename DefaultPolicy<Key, std::conditional_t<kPairs, ValueOf<Key>, bankcheck::CfNoValue>>::type;

// ---------------------------------------------------------------------------
// Inputs

__host__ __device__ inline std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finalizer
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A keyed 4-round Feistel permutation of [0, 2^(2h)), cycle-walked into [0, n):
/// a random permutation computed in parallel on the GPU.
struct Feistel {
  std::uint64_t n, seed, mask;
  unsigned half;
  Feistel(std::uint64_t n_, std::uint64_t seed_) : n(n_), seed(seed_) {
    unsigned bits = 2;
    while ((std::uint64_t{1} << bits) < n) ++bits;
    half = (bits + 1) / 2;
    mask = (std::uint64_t{1} << half) - 1;
  }
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = i;
    do {
      std::uint64_t l = x >> half, r = x & mask;
      for (std::uint64_t round = 0; round < 4; ++round) {
        const std::uint64_t f = mix64(r ^ (seed + 0x9e3779b97f4a7c15ull * (round + 1))) & mask;
        const std::uint64_t t = l ^ f;
        l = r;
        r = t;
      }
      x = (l << half) | r;
    } while (x >= n);
    return x;
  }
};

template <class Key>
__global__ void fill_permutation(Key* out, std::uint64_t n, Feistel f) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<Key>(f(i));
}
template <class T>
__global__ void fill_iota(T* out, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<T>(i);
}

/// The whole-sort adversary for a tiling: key = final rank (a permutation of 0..n-1).
/// The searches of the small in-block passes get `seconds` each (time mode:
/// 0.2 s, as kernels/merge_sort.cu's time mode; the wide passes, most of the
/// conflicts, are SPAA Section 4's construction and do not depend on it).
template <class Key>
std::vector<Key> adversary_input(std::uint64_t n, unsigned u, unsigned E, unsigned w, double seconds) {
  bankcheck::inputs::MergeSortShape shape;
  shape.threads = u;
  shape.items = E;
  shape.warp = w;
  shape.keys = n;
  const bankcheck::inputs::MergeSortAdversary adversary(shape,
                                                        bankcheck::inputs::SearchBudget{seconds, 1, ~std::uint64_t{0}});
  std::vector<Key> keys(n);
  if constexpr (sizeof(Key) == 4)
    adversary.generate(std::span<std::int32_t>(reinterpret_cast<std::int32_t*>(keys.data()), n));
  else
    adversary.generate(std::span<std::int64_t>(reinterpret_cast<std::int64_t*>(keys.data()), n));
  return keys;
}

/// Banks counted in keys, the w of a tiling's adversary (as the CF layout's).
template <class Key>
constexpr unsigned banks() {
  return static_cast<unsigned>(bankcheck::cf_banks_in_keys(sizeof(Key)));
}

// ---------------------------------------------------------------------------
// The sorts, one interface: run(keys, vals) sorts in place on `stream`.

enum class Algo { cub_merge, cf_merge, cub_radix };
const char* algo_name(Algo a) { return a == Algo::cub_merge ? "cub-merge" : a == Algo::cf_merge ? "cf-merge" : "cub-radix"; }

template <class Key, bool kPairs, class P = CfDefault<Key, kPairs>>
struct Sorter {
  using Value = ValueOf<Key>;
  Algo algo;
  std::int64_t n;
  Buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  Buffer<Key> alt_keys;    // radix: the double buffer's second half
  Buffer<Value> alt_vals;
  Key* result_keys = nullptr;
  Value* result_vals = nullptr;

  Sorter(Algo a, std::int64_t n_, Key* keys, Value* vals) : algo(a), n(n_) {
    query(keys, vals);
    temp = Buffer<unsigned char>(std::max<std::size_t>(temp_bytes, 1));
    if (algo == Algo::cub_radix) {
      alt_keys = Buffer<Key>(static_cast<std::size_t>(n));
      if (kPairs) alt_vals = Buffer<Value>(static_cast<std::size_t>(n));
    }
  }
  void query(Key* keys, Value* vals) {
    switch (algo) {
      case Algo::cub_merge:
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceMergeSort::SortPairs(nullptr, temp_bytes, keys, vals, n, Less{}));
        else
          CHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, keys, n, Less{}));
        break;
      case Algo::cf_merge:
        if constexpr (kPairs)
          CHECK_CUDA(DeviceMergeSortPolicy<P>::SortPairs(nullptr, temp_bytes, keys, vals, n, Less{}));
        else
          CHECK_CUDA(DeviceMergeSortPolicy<P>::SortKeys(nullptr, temp_bytes, keys, n, Less{}));
        break;
      case Algo::cub_radix: {
        cub::DoubleBuffer<Key> k(keys, keys);
        cub::DoubleBuffer<Value> v(vals, vals);
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k, v, static_cast<int>(n)));
        else
          CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k, static_cast<int>(n)));
        break;
      }
    }
  }
  /// Sorts keys[0, n) (and vals) on `stream`; afterwards result_keys/result_vals hold the output.
  void run(Key* keys, Value* vals, cudaStream_t stream) {
    std::size_t bytes = temp_bytes;
    result_keys = keys;
    result_vals = vals;
    switch (algo) {
      case Algo::cub_merge:
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceMergeSort::SortPairs(temp.get(), bytes, keys, vals, n, Less{}, stream));
        else
          CHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp.get(), bytes, keys, n, Less{}, stream));
        break;
      case Algo::cf_merge:
        if constexpr (kPairs)
          CHECK_CUDA(DeviceMergeSortPolicy<P>::SortPairs(temp.get(), bytes, keys, vals, n, Less{}, stream));
        else
          CHECK_CUDA(DeviceMergeSortPolicy<P>::SortKeys(temp.get(), bytes, keys, n, Less{}, stream));
        break;
      case Algo::cub_radix: {
        cub::DoubleBuffer<Key> k(keys, alt_keys.get());
        cub::DoubleBuffer<Value> v(vals, kPairs ? alt_vals.get() : nullptr);
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, k, v, static_cast<int>(n), 0,
                                                     static_cast<int>(sizeof(Key) * 8), stream));
        else
          CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp.get(), bytes, k, static_cast<int>(n), 0,
                                                    static_cast<int>(sizeof(Key) * 8), stream));
        result_keys = k.Current();
        result_vals = v.Current();
        break;
      }
    }
  }
};

/// out[i] == i, and for pairs src[vals[i]] == i (the value is the key's input
/// position): the sorted output of a permutation of 0..n-1, exactly.
template <class Key, class Value>
__global__ void count_wrong(const Key* out, const Value* vals, const Key* src, std::uint64_t n,
                            unsigned long long* wrong) {
  unsigned long long bad = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    bool ok = out[i] == static_cast<Key>(i);
    if (vals != nullptr) ok = ok && vals[i] < n && src[vals[i]] == static_cast<Key>(i);
    bad += !ok;
  }
  if (bad) atomicAdd(wrong, bad);
}

// ---------------------------------------------------------------------------
// time / tune

struct Row {
  int key_bytes;
  bool pairs;
  std::string algorithm, input;
  std::uint64_t n;
  double ms;
};

struct Options {
  std::string mode = "check", csv, keys = "all", pairs = "all", algo = "cf", input = "random";
  int log_min = 16, log_max = 26, reps = 10, log = 18;
  bool radix = true, quick = false;
};

class Timer {
 public:
  Timer() {
    CHECK_CUDA(cudaEventCreate(&a_));
    CHECK_CUDA(cudaEventCreate(&b_));
  }
  ~Timer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  /// Median of `reps` timings of sort() after one warm-up; restore() (untimed) before each.
  template <class Restore, class Sort>
  double median_ms(int reps, Restore&& restore, Sort&& sort) {
    std::vector<float> ms;
    for (int r = -1; r < reps; ++r) {
      restore();
      CHECK_CUDA(cudaEventRecord(a_));
      sort();
      CHECK_CUDA(cudaEventRecord(b_));
      CHECK_CUDA(cudaEventSynchronize(b_));
      float t = 0;
      CHECK_CUDA(cudaEventElapsedTime(&t, a_, b_));
      if (r >= 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t m = ms.size();
    return m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
  }

 private:
  cudaEvent_t a_, b_;
};

class Csv {
 public:
  explicit Csv(const std::string& path) {
    if (path.empty()) return;
    const bool fresh = !std::ifstream(path).good();
    out_.open(path, std::ios::app);
    if (!out_) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      std::exit(1);
    }
    if (fresh) out_ << "key_bytes,pairs,algorithm,input,n,median_ms,keys_per_us\n";
  }
  void add(const Row& r) {
    rows.push_back(r);
    const double kpus = static_cast<double>(r.n) / (r.ms * 1e3);
    std::printf("%d,%d,%s,%s,%llu,%.4f,%.1f\n", r.key_bytes, r.pairs ? 1 : 0, r.algorithm.c_str(), r.input.c_str(),
                static_cast<unsigned long long>(r.n), r.ms, kpus);
    std::fflush(stdout);
    if (out_.is_open()) {
      out_ << r.key_bytes << ',' << (r.pairs ? 1 : 0) << ',' << r.algorithm << ',' << r.input << ',' << r.n << ','
           << r.ms << ',' << kpus << '\n';
      out_.flush();
    }
  }
  std::vector<Row> rows;

 private:
  std::ofstream out_;
};

int failures = 0;

/// Times `algos` on one input (a permutation of 0..n-1 in d_src), checking every output.
template <class Key, bool kPairs, class P = CfDefault<Key, kPairs>>
void time_input(Csv& csv, const Options& o, const std::string& input, const Buffer<Key>& d_src,
                const std::vector<Algo>& algos, const std::string& cf_label = "cf-merge") {
  using Value = ValueOf<Key>;
  const std::uint64_t n = d_src.size();
  Buffer<Key> keys(n);
  Buffer<Value> vals(kPairs ? n : 0);
  Buffer<Value> src_vals(kPairs ? n : 0);
  if (kPairs) fill_iota<<<1024, 256>>>(src_vals.get(), n);
  Buffer<unsigned long long> wrong(1);
  Timer timer;
  for (Algo a : algos) {
    Sorter<Key, kPairs, P> s(a, static_cast<std::int64_t>(n), keys.get(), vals.get());
    auto restore = [&] {
      CHECK_CUDA(cudaMemcpyAsync(keys.get(), d_src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
      if (kPairs) CHECK_CUDA(cudaMemcpyAsync(vals.get(), src_vals.get(), n * sizeof(Value), cudaMemcpyDeviceToDevice));
    };
    const double ms = timer.median_ms(o.reps, restore, [&] { s.run(keys.get(), vals.get(), 0); });
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
    count_wrong<<<1024, 256>>>(s.result_keys, kPairs ? s.result_vals : static_cast<Value*>(nullptr), d_src.get(), n,
                               wrong.get());
    const unsigned long long bad = wrong.download(1)[0];
    const std::string name = a == Algo::cf_merge ? cf_label : algo_name(a);
    if (bad != 0) {
      ++failures;
      std::printf("FAIL %s %s n=%llu: %llu outputs wrong\n", name.c_str(), input.c_str(),
                  static_cast<unsigned long long>(n), bad);
    }
    csv.add({static_cast<int>(sizeof(Key)), kPairs, name, input, n, ms});
  }
}

/// One tiling's series: n = 2^i E, inputs random and the tiling's worst case.
/// The next n's worst case is built on the CPU while the GPU times this one.
template <class Key>
void time_series(Csv& csv, const Options& o, unsigned u, unsigned E, const std::string& worst_name,
                 const std::vector<Algo>& algos) {
  const bool keys_only = o.pairs != "1", pairs = o.pairs != "0";
  auto n_of = [&](int i) { return std::uint64_t{E} << i; };
  auto usable = [&](int i) { return i <= o.log_max && (sizeof(Key) == 8 || n_of(i) <= 0x7fffffffull); };
  auto build = [&](int i) {
    return std::async(std::launch::async, [n = n_of(i), u, E] {
      const auto t0 = std::chrono::steady_clock::now();
      auto v = adversary_input<Key>(n, u, E, banks<Key>(), 0.2);
      std::fprintf(stderr, "# worst case u=%u E=%u n=%llu built in %.2f s\n", u, E, static_cast<unsigned long long>(n),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      return v;
    });
  };
  std::future<std::vector<Key>> next;
  if (usable(o.log_min)) next = build(o.log_min);
  for (int i = o.log_min; usable(i); ++i) {
    const std::uint64_t n = n_of(i);
    for (const std::string input : {std::string("random"), worst_name}) {
      const auto t0 = std::chrono::steady_clock::now();
      Buffer<Key> src(n);
      if (input == "random") {
        fill_permutation<<<4096, 256>>>(src.get(), n, Feistel(n, 0x5eed0000ull + n));
        CHECK_CUDA(cudaGetLastError());
      } else {
        std::vector<Key> v = next.get();
        if (usable(i + 1)) next = build(i + 1);
        src.upload(v);
      }
      CHECK_CUDA(cudaDeviceSynchronize());
      std::fprintf(stderr, "# %d-byte keys, n = 2^%d * %u = %llu, %s: input ready in %.2f s\n",
                   static_cast<int>(sizeof(Key)), i, E, static_cast<unsigned long long>(n), input.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (keys_only) time_input<Key, false>(csv, o, input, src, algos);
      if (pairs) time_input<Key, true>(csv, o, input, src, algos);
    }
  }
}

template <class Key>
void time_key_size(Csv& csv, const Options& o) {
  std::vector<Algo> algos = {Algo::cub_merge, Algo::cf_merge};
  if (o.radix) algos.push_back(Algo::cub_radix);
  using Cub = CubTiling<Key>;
  using Cf = CfDefault<Key, false>;
  static_assert(CfDefault<Key, false>::kTile == CfDefault<Key, true>::kTile,
                "the worst-cf series assumes one tiling for keys and pairs");
  time_series<Key>(csv, o, Cub::kThreads, Cub::kItems, "worst-cub", algos);
  if (Cf::kThreads != Cub::kThreads || Cf::kItems != Cub::kItems)
    time_series<Key>(csv, o, Cf::kThreads, Cf::kItems, "worst-cf", algos);
}

/// The headline ratios (n >= 2^22 E of the series).
void print_headlines(const std::vector<Row>& rows) {
  std::map<std::tuple<int, bool, std::string, std::string, std::uint64_t>, double> t;
  for (const Row& r : rows) t[{r.key_bytes, r.pairs, r.algorithm, r.input, r.n}] = r.ms;
  auto get = [&](int kb, bool p, const std::string& a, const std::string& in, std::uint64_t n) {
    const auto it = t.find({kb, p, a, in, n});
    return it == t.end() ? -1.0 : it->second;
  };
  std::printf("\nheadline ratios (n >= 2^22 E of each series; mean [min, max] over n)\n");
  std::printf("%-9s %-6s %-44s %s\n", "key_bytes", "pairs", "ratio", "value");
  for (int kb : {4, 8})
    for (bool p : {false, true}) {
      struct Acc {
        double sum = 0, lo = 1e300, hi = 0;
        int count = 0;
        void add(double x) {
          sum += x;
          lo = std::min(lo, x);
          hi = std::max(hi, x);
          ++count;
        }
      };
      std::map<std::string, Acc> acc;
      std::map<std::uint64_t, bool> ns;
      for (const Row& r : rows)
        if (r.key_bytes == kb && r.pairs == p) ns[r.n] = true;
      const unsigned e_cub = kb == 4 ? CubTiling<std::int32_t>::kItems : CubTiling<std::int64_t>::kItems;
      const unsigned e_cf = kb == 4 ? CfDefault<std::int32_t, false>::kItems : CfDefault<std::int64_t, false>::kItems;
      for (const auto& [n, unused] : ns) {
        (void)unused;
        const double cub_r = get(kb, p, "cub-merge", "random", n), cf_r = get(kb, p, "cf-merge", "random", n);
        const double cub_w = get(kb, p, "cub-merge", "worst-cub", n), cf_w = get(kb, p, "cf-merge", "worst-cub", n);
        const double cf_wf = get(kb, p, "cf-merge", "worst-cf", n), radix_r = get(kb, p, "cub-radix", "random", n);
        if (n >= (std::uint64_t{e_cub} << 22) && n % e_cub == 0 && cub_r > 0 && cf_r > 0) {
          acc["CF/CUB throughput, random (CUB's n)"].add(cub_r / cf_r);
          if (cub_w > 0) acc["CUB worst-cub/random time"].add(cub_w / cub_r);
          if (cub_w > 0 && cf_w > 0) acc["CUB time / CF time on worst-cub"].add(cub_w / cf_w);
          if (cf_w > 0) acc["CF worst-cub/random time"].add(cf_w / cf_r);
          if (radix_r > 0) acc["CF/radix throughput, random"].add(radix_r / cf_r);
        }
        if (n >= (std::uint64_t{e_cf} << 22) && cf_r > 0) {
          const double w = cf_wf > 0 ? cf_wf : (e_cf == e_cub ? cf_w : -1);
          if (w > 0) acc["CF worst-cf/random time"].add(w / cf_r);
        }
      }
      for (const auto& [name, a] : acc)
        std::printf("%-9d %-6d %-44s %.3f [%.3f, %.3f] (%d n)\n", kb, p ? 1 : 0, name.c_str(), a.sum / a.count, a.lo,
                    a.hi, a.count);
    }
}

// ---------------------------------------------------------------------------
// tune: candidate policies (docs/cf-merge.md). Register bounds chosen so that
// ptxas reports no spills for the full-tile kernels (-Xptxas -v).

template <int U, int E, int MB, cub::BlockLoadAlgorithm L = cub::BLOCK_LOAD_WARP_TRANSPOSE>
using Cand = Policy<U, E, L, cub::BLOCK_STORE_WARP_TRANSPOSE, MB>;

template <class P>
std::string policy_name() {
  return "cf u=" + std::to_string(P::kThreads) + " E=" + std::to_string(P::kItems) +
         " minblocks=" + std::to_string(P::kMinBlocks) +
         (P::kLoad == cub::BLOCK_LOAD_VECTORIZE ? " load=vectorize" : " load=warp-transpose");
}

template <class Key, bool kPairs, class... Ps>
void tune_candidates(Csv& csv, const Options& o, std::uint64_t n) {
  Buffer<Key> src(n);
  fill_permutation<<<4096, 256>>>(src.get(), n, Feistel(n, 0x7a11ull + n));
  CHECK_CUDA(cudaDeviceSynchronize());
  time_input<Key, kPairs>(csv, o, "random", src, {Algo::cub_merge});
  (time_input<Key, kPairs, Ps>(csv, o, "random", src, {Algo::cf_merge}, policy_name<Ps>()), ...);
}

void tune(Csv& csv, const Options& o) {
  constexpr auto VEC = cub::BLOCK_LOAD_VECTORIZE;
  const bool k4 = o.keys != "8", k8 = o.keys != "4", keys = o.pairs != "1", pairs = o.pairs != "0";
  const std::uint64_t n4 = std::uint64_t{1} << 26, n8 = std::uint64_t{1} << 25;
  if (k4 && keys)
    tune_candidates<std::int32_t, false, Cand<256, 16, 8>, Cand<256, 16, 6>, Cand<256, 16, 4>, Cand<256, 16, 8, VEC>,
                    Cand<512, 16, 4>, Cand<128, 16, 16>, Cand<256, 32, 4>, Cand<256, 15, 6>, Cand<256, 17, 6>>(csv, o,
                                                                                                            n4);
  if (k4 && pairs)
    tune_candidates<std::int32_t, true, Cand<256, 16, 5>, Cand<256, 16, 4>, Cand<512, 16, 2>, Cand<256, 8, 8>>(csv, o,
                                                                                                             n4);
  if (k8 && keys)
    tune_candidates<std::int64_t, false, Cand<256, 8, 8>, Cand<256, 8, 6>, Cand<512, 8, 4>, Cand<256, 16, 4>,
                    Cand<256, 8, 8, VEC>>(csv, o, n8);
  if (k8 && pairs)
    tune_candidates<std::int64_t, true, Cand<256, 8, 4>, Cand<256, 8, 3>, Cand<512, 8, 2>, Cand<256, 16, 2>>(csv, o, n8);
}

// ---------------------------------------------------------------------------
// check: against std::sort on the CPU, and against CUB.

template <class Key>
std::vector<Key> keys_for(const std::string& kind, std::uint64_t n, std::uint64_t seed) {
  std::vector<Key> v(n);
  std::mt19937_64 g(seed);
  if (kind == "random") for (auto& x : v) x = static_cast<Key>(g());
  else if (kind == "dups") for (auto& x : v) x = static_cast<Key>(g() % 7) - 3;
  else if (kind == "sorted") std::iota(v.begin(), v.end(), Key{0});
  else if (kind == "reversed") for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<Key>(n - i);
  else if (kind == "equal") std::fill(v.begin(), v.end(), Key{42});
  return v;
}

/// Sorts `input` with our sort (keys, then pairs) and CUB's, compares with the CPU.
template <class Key, class Cmp>
void check_one(const std::string& label, const std::vector<Key>& input, Cmp cmp) {
  using Value = ValueOf<Key>;
  const std::uint64_t n = input.size();
  std::vector<Key> expected = input;
  std::sort(expected.begin(), expected.end(), cmp);
  std::vector<Value> pos(n);
  std::iota(pos.begin(), pos.end(), Value{0});
  std::vector<Value> stable = pos;
  std::stable_sort(stable.begin(), stable.end(), [&](Value a, Value b) { return cmp(input[a], input[b]); });
  const std::string what = std::to_string(sizeof(Key)) + "-byte " + label + " n=" + std::to_string(n);
  Buffer<Key> keys(n);
  Buffer<Value> vals(n);
  auto sort_with = [&](bool pairs, bool ours) {
    keys.upload(input);
    vals.upload(pos);
    std::size_t bytes = 0;
    if (ours) {
      if (pairs) CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortPairs(nullptr, bytes, keys.get(), vals.get(), n, cmp));
      else CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortKeys(nullptr, bytes, keys.get(), n, cmp));
    } else {
      if (pairs) CHECK_CUDA(cub::DeviceMergeSort::SortPairs(nullptr, bytes, keys.get(), vals.get(), static_cast<std::int64_t>(n), cmp));
      else CHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, bytes, keys.get(), static_cast<std::int64_t>(n), cmp));
    }
    Buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    if (ours) {
      if (pairs) CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortPairs(temp.get(), bytes, keys.get(), vals.get(), n, cmp));
      else CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortKeys(temp.get(), bytes, keys.get(), n, cmp));
    } else {
      if (pairs) CHECK_CUDA(cub::DeviceMergeSort::SortPairs(temp.get(), bytes, keys.get(), vals.get(), static_cast<std::int64_t>(n), cmp));
      else CHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp.get(), bytes, keys.get(), static_cast<std::int64_t>(n), cmp));
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    return std::make_pair(keys.download(n), vals.download(n));
  };
  const auto [cf_keys, unused] = sort_with(false, true);
  (void)unused;
  const auto [cf_pkeys, cf_vals] = sort_with(true, true);
  const auto [cub_keys, unused2] = sort_with(false, false);
  (void)unused2;
  bool ok = true;
  std::string why;
  if (cf_keys != expected) ok = false, why += " keys!=std::sort";
  if (cf_pkeys != expected) ok = false, why += " pair-keys!=std::sort";
  if (cf_keys != cub_keys) ok = false, why += " keys!=cub";
  // every value once, beside its own key (the pairs' keys already equal std::sort's)
  std::vector<char> seen(n, 0);
  bool vals_ok = true;
  for (std::uint64_t i = 0; i < n && vals_ok; ++i) {
    const Value v = cf_vals[i];
    vals_ok = v < n && !seen[v] && input[v] == cf_pkeys[i];
    if (vals_ok) seen[v] = 1;
  }
  if (!vals_ok) ok = false, why += " values";
  const bool was_stable = cf_vals == stable;
  if (!ok) ++failures;
  std::printf("%s %-44s%s%s\n", ok ? "ok  " : "FAIL", what.c_str(), why.c_str(),
              ok ? (was_stable ? " (pairs happened to come out stable)" : " (pairs not stable: allowed)") : "");
  std::fflush(stdout);
}

/// quick: a few small sizes, random keys, one comparator (for compute-sanitizer, which is slow).
template <class Key>
void check_key_size(bool quick) {
  using Cub = CubTiling<Key>;
  using Cf = CfDefault<Key, false>;
  const std::uint64_t tile = Cf::kTile;
  const std::vector<std::uint64_t> sizes =
      quick ? std::vector<std::uint64_t>{1, 17, 4351, tile + 1, 3 * tile + 5, 4 * tile}
            : std::vector<std::uint64_t>{0, 1, 2, 17, 4351, 4352, 4353, tile - 1, tile, tile + 1, 3 * tile + 5,
                                         65539, 1000003};
  for (std::uint64_t n : sizes)
    for (const char* kind : {"random", "dups", "sorted", "reversed", "equal"}) {
      const bool rnd = std::string(kind) == "random" || std::string(kind) == "dups";
      if ((n > 70000 || quick) && !rnd) continue;
      const auto v = keys_for<Key>(kind, n, n * 31 + std::strlen(kind));
      check_one<Key>(std::string(kind) + " less", v, Less{});
      if (rnd && !quick) check_one<Key>(std::string(kind) + " greater", v, Greater{});
    }
  if (quick) return;
  // the worst cases (their n = tile * 2^k), for CUB's tiling and ours
  for (std::uint64_t tiles : {1ull, 8ull, 64ull}) {
    const std::uint64_t n_cub = std::uint64_t{Cub::kThreads} * Cub::kItems * tiles;
    check_one<Key>("worst-cub", adversary_input<Key>(n_cub, Cub::kThreads, Cub::kItems, banks<Key>(), 0.02), Less{});
    const std::uint64_t n_cf = tile * tiles;
    check_one<Key>("worst-cf", adversary_input<Key>(n_cf, Cf::kThreads, Cf::kItems, banks<Key>(), 0.02), Less{});
  }
}

// ---------------------------------------------------------------------------
// profile: one sort for Nsight Compute.

template <class Key>
int profile(const Options& o) {
  using Cub = CubTiling<Key>;
  using Cf = CfDefault<Key, false>;
  const unsigned u = o.input == "worst-cf" ? Cf::kThreads : Cub::kThreads;
  const unsigned E = o.input == "worst-cf" ? Cf::kItems : o.input == "worst-cub" ? Cub::kItems : Cf::kItems;
  const std::uint64_t n = std::uint64_t{E} << o.log;
  Buffer<Key> src(n);
  if (o.input == "random") fill_permutation<<<4096, 256>>>(src.get(), n, Feistel(n, 0x5eed0000ull + n));
  else src.upload(adversary_input<Key>(n, u, E, banks<Key>(), 0.2));
  CHECK_CUDA(cudaDeviceSynchronize());
  Sorter<Key, false> s(o.algo == "cf" ? Algo::cf_merge : Algo::cub_merge, static_cast<std::int64_t>(n), src.get(),
                       nullptr);
  s.run(src.get(), nullptr, 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  Buffer<unsigned long long> wrong(1);
  CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
  count_wrong<Key, ValueOf<Key>><<<1024, 256>>>(src.get(), nullptr, src.get(), n, wrong.get());
  const unsigned long long bad = wrong.download(1)[0];
  std::printf("profile %s %d-byte keys %s n=%llu: %s\n", o.algo.c_str(), static_cast<int>(sizeof(Key)),
              o.input.c_str(), static_cast<unsigned long long>(n), bad ? "WRONG" : "sorted");
  return bad ? 1 : 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: kernel.cf_sort_bench --mode check|time|tune|profile [--quick] [--csv FILE] [--log-min I] [--log-max I]\n"
               "       [--keys 4|8|all] [--pairs 0|1|all] [--reps R] [--no-radix]\n"
               "       [--algo cf|cub] [--input random|worst-cub|worst-cf] [--log I] (profile)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) std::exit(usage());
      return argv[++i];
    };
    if (a == "--mode") o.mode = value();
    else if (a == "--csv" || a == "--out") o.csv = value();
    else if (a == "--log-min") o.log_min = std::atoi(value().c_str());
    else if (a == "--log-max") o.log_max = std::atoi(value().c_str());
    else if (a == "--keys") o.keys = value();
    else if (a == "--pairs") o.pairs = value();
    else if (a == "--reps") o.reps = std::atoi(value().c_str());
    else if (a == "--algo") o.algo = value();
    else if (a == "--input") o.input = value();
    else if (a == "--log") o.log = std::atoi(value().c_str());
    else if (a == "--no-radix") o.radix = false;
    else if (a == "--quick") o.quick = true;
    else return usage();
  }
  if (o.mode != "check" && o.mode != "time" && o.mode != "tune" && o.mode != "profile") return usage();
  if (o.reps < 10 && o.mode == "time") {
    std::fprintf(stderr, "--reps must be >= 10\n");
    return 2;
  }
  if (o.log_min < 1 || o.log_max > 28 || o.log_min > o.log_max) return usage();
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU\n");
    return kSkipped;
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "# %s, %d SMs; CUB merge sort tiling: 4-byte keys u=%d E=%d, 8-byte keys u=%d E=%d; "
               "CF defaults: 4-byte keys u=%d E=%d (pairs u=%d E=%d), 8-byte keys u=%d E=%d (pairs u=%d E=%d)\n",
               prop.name, prop.multiProcessorCount, CubTiling<std::int32_t>::kThreads, CubTiling<std::int32_t>::kItems,
               CubTiling<std::int64_t>::kThreads, CubTiling<std::int64_t>::kItems,
               CfDefault<std::int32_t, false>::kThreads, CfDefault<std::int32_t, false>::kItems,
               CfDefault<std::int32_t, true>::kThreads, CfDefault<std::int32_t, true>::kItems,
               CfDefault<std::int64_t, false>::kThreads, CfDefault<std::int64_t, false>::kItems,
               CfDefault<std::int64_t, true>::kThreads, CfDefault<std::int64_t, true>::kItems);
  if (o.mode == "check") {
    if (o.keys != "8") check_key_size<std::int32_t>(o.quick);
    if (o.keys != "4") check_key_size<std::int64_t>(o.quick);
    std::printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
  }
  if (o.mode == "profile") return o.keys == "8" ? profile<std::int64_t>(o) : profile<std::int32_t>(o);
  Csv csv(o.csv);
  if (o.mode == "tune") {
    tune(csv, o);
  } else {
    if (o.keys != "8") time_key_size<std::int32_t>(csv, o);
    if (o.keys != "4") time_key_size<std::int64_t>(csv, o);
    print_headlines(csv.rows);
  }
  if (failures) std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
