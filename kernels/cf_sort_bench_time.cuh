#pragma once
// kernel.cf_sort_bench --mode time: CUDA-event medians of each sort on random
// and worst-case inputs, the CSV rows, and the headline ratios.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"

namespace {

/// One CSV row: the median time of one sort of one input.
struct Row {
  int key_bytes;
  bool pairs;
  std::string algorithm, input;
  std::uint64_t n;
  double ms;
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
  /// One timing of sort() on the default stream, restore() (untimed) before it.
  template <class Restore, class Sort>
  float ms(Restore&& restore, Sort&& sort) {
    restore();
    CHECK_CUDA(cudaEventRecord(a_));
    sort();
    CHECK_CUDA(cudaEventRecord(b_));
    CHECK_CUDA(cudaEventSynchronize(b_));
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, a_, b_));
    return t;
  }
  /// Median of `reps` timings of sort() after one warm-up; restore() (untimed) before each.
  template <class Restore, class Sort>
  double median_ms(int reps, Restore&& restore, Sort&& sort) {
    std::vector<float> t;
    for (int r = -1; r < reps; ++r) {
      const float x = ms(restore, sort);
      if (r >= 0) t.push_back(x);
    }
    return median(t);
  }
  static double median(std::vector<float> t) {
    std::sort(t.begin(), t.end());
    const std::size_t m = t.size();
    return m == 0 ? 0.0 : m % 2 ? t[m / 2] : 0.5 * (t[m / 2 - 1] + t[m / 2]);
  }

 private:
  cudaEvent_t a_, b_;
};

class Csv {
 public:
  /// echo: also print each row to stdout.
  explicit Csv(const std::string& path, bool echo = true) : echo_(echo) {
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
    if (echo_) {
      std::printf("%d,%d,%s,%s,%llu,%.4f,%.1f\n", r.key_bytes, r.pairs ? 1 : 0, r.algorithm.c_str(),
                  r.input.c_str(), static_cast<unsigned long long>(r.n), r.ms, kpus);
      std::fflush(stdout);
    }
    if (out_.is_open()) {
      out_ << r.key_bytes << ',' << (r.pairs ? 1 : 0) << ',' << r.algorithm << ',' << r.input << ',' << r.n << ','
           << r.ms << ',' << kpus << '\n';
      out_.flush();
    }
  }
  std::vector<Row> rows;

 private:
  bool echo_;
  std::ofstream out_;
};

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
                               wrong.get(), static_cast<const Key*>(nullptr), nullptr);
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
        fill_permutation<<<4096, 256>>>(src.get(), n, RandomPermutation(n, 0x5eed0000ull + n));
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
  time_series<Key>(csv, o, Cub::kThreads, Cub::kItems, "worst-cub", algos);
  // Our own worst case, per tiling: keys only and pairs may tile differently.
  auto worst_cf = [&](auto policy, bool pairs) {
    using Cf = decltype(policy);
    const char* which = pairs ? "1" : "0";
    if (o.pairs == (pairs ? "0" : "1")) return;  // --pairs left this one out (time_series' reading)
    if (Cf::kThreads == Cub::kThreads && Cf::kItems == Cub::kItems) return;  // the worst-cub series is it
    Options only = o;
    only.pairs = which;
    time_series<Key>(csv, only, Cf::kThreads, Cf::kItems, "worst-cf", algos);
  };
  worst_cf(CfDefault<Key, false>{}, false);
  worst_cf(CfDefault<Key, true>{}, true);
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

}  // namespace
