// The CF-Merge sort table: the drop-in CF-Merge sort (kernels/cf_merge_sort.cuh,
// default policies) against cub::DeviceMergeSort and cub::DeviceRadixSort, u32
// and u64 keys, keys only and key-value pairs (values of the key's width),
// powers of two and the sizes real callers have, structured inputs.
//
//   cf_sort_table [--quick] [-o FILE.csv] [--reps R] [--keys 4|8|all] [--pairs 0|1|all]
//   cf_sort_table --profile [--quick] [--reps R]
//   cf_sort_table --sweep [--quick | --ends] [--reps R] [--keys 4|8|all] [--pairs 0|1|all]
//
// Table: n = 2^20..2^27; 2^24 +- 1 and 3*2^23 +- 5 (k * CF's tile +- small: the
// tile divides both); 2^24 + 12,345 and 2^26 + 12,345; the primes 1,000,003 and
// 16,777,259; and the sizes where CUB's worst input exists (CUB's tile * 2^k,
// sim/inputs/merge_sort_adversary.hpp: the smallest at or above 2^20, 2^24 and
// 2^26). Inputs: random (a permutation of 0..n-1), sorted, reversed, 16 distinct
// keys, organ pipe (kernels/cf_sort_bench_inputs.cuh), and CUB's worst input
// where it exists. Per (keys, n, input) the three sorts are timed interleaved in
// one process (one round of all three as warm-up, then R rounds, R = 7; CUDA
// events around each whole sort, input restored untimed before each), medians
// reported; the rounds go over the inputs of a size in turn (time_size). Every
// output of every run is checked against CUB's merge sort output of the same
// input: keys equal, and for pairs each value the input position of a key
// equal to its own, every value once (the sorts need not be stable). A
// mismatch prints FAIL and the exit status is 1.
// Output: a markdown report on stdout (environment, the ratio tables), progress
// and an estimate of the remaining time on stderr, the medians as CSV with -o
// (kernel.cf_sort_bench's columns: validate/cf_merge/sort_ratios.py reads it).
// --profile: CUDA events between the CF sort's launches (sort_table_profile.cuh).
// --sweep: the whole sort and some of its forms against n in fine steps (sort_table_sweep.cuh).
// --quick: a few sizes (2^20, 2^22, 2^22 + 12,345, 1,000,003 and CUB's worst size
// near 2^20), all inputs, for a first look or a smoke test.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"
#include "kernels/cf_sort_bench_time.cuh"
#include "validate/cf_merge/sort_table_profile.cuh"
#include "validate/cf_merge/sort_table_report.cuh"
#include "validate/cf_merge/sort_table_sweep.cuh"

namespace {

/// Cases planned and done; a unit is a byte of keys and values sorted, for the estimate of the time left.
struct Progress {
  /// A first estimate of the seconds per unit and round of the three sorts: CUB's merge
  /// sort of 2^27 4-byte keys took about 7 ms on the H100 (docs/cf-merge.md), 0.013 ns a
  /// byte, times 3 sorts and 1.4 for the restores and checks.
  static constexpr double kSecondsPerUnitRound = 0.013e-9 * 3 * 1.4;
  explicit Progress(int rounds) : per_unit(kSecondsPerUnitRound * rounds) {}
  double per_unit;
  int cases = 0, done = 0;
  double units = 0, done_units = 0;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  void begin(const std::string& what) const {
    const double t = elapsed();
    const double left = done_units > 0 ? t / done_units * (units - done_units) : units * per_unit;
    std::fprintf(stderr, "[%d/%d] %.0f s, about %.0f s left: %s\n", done + 1, cases, t, left, what.c_str());
  }
};

struct Input {
  std::string name;
  bool worst;
  Pattern pattern;
};

template <class Key>
using WorstInputs = std::map<std::uint64_t, std::shared_future<std::vector<Key>>>;

/// The smallest n = CUB's tile * 2^k at or above 2^20 (quick), or each of 2^20, 2^24, 2^26.
template <class Key>
std::vector<std::uint64_t> worst_sizes(bool quick) {
  const std::uint64_t tile = std::uint64_t{CubTiling<Key>::kThreads} * CubTiling<Key>::kItems;
  std::vector<std::uint64_t> out;
  for (int lg : quick ? std::vector<int>{20} : std::vector<int>{20, 24, 26}) {
    std::uint64_t n = tile;
    while (n < (std::uint64_t{1} << lg)) n *= 2;
    out.push_back(n);
  }
  return out;
}

template <class Key, bool kPairs>
std::vector<std::uint64_t> table_sizes(bool quick) {
  constexpr std::uint64_t p22 = 1ull << 22, p24 = 1ull << 24, tile = CfDefault<Key, kPairs>::kTile;
  static_assert(p24 % tile == 0 && 3 * (p24 / 2) % tile == 0, "k * tile +- small: the tile must divide 2^24, 3*2^23");
  std::vector<std::uint64_t> s;
  if (quick) {
    s = {1ull << 20, p22, p22 + 12345, 1000003};
  } else {
    for (int i = 20; i <= 27; ++i) s.push_back(std::uint64_t{1} << i);
    s.insert(s.end(), {p24 - 1, p24 + 1, 3 * (p24 / 2) - 5, 3 * (p24 / 2) + 5, p24 + 12345, (1ull << 26) + 12345,
                       1000003, 16777259});
  }
  for (std::uint64_t n : worst_sizes<Key>(quick)) s.push_back(n);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

template <class Key>
std::vector<Input> inputs_at(std::uint64_t n, const WorstInputs<Key>& worst) {
  std::vector<Input> v;
  for (Pattern p : {Pattern::random, Pattern::sorted, Pattern::reversed, Pattern::distinct16, Pattern::organ_pipe})
    v.push_back({pattern_name(p), false, p});
  if (worst.count(n)) v.push_back({kWorstInput, true, Pattern::random});
  return v;
}

/// time_size's last step: the median of each sort's rounds on each input, into the table's cells and the CSV.
template <class Key, bool kPairs>
void record_size(Csv& csv, std::uint64_t n, const std::vector<Input>& inputs, const Algo (&algos)[3],
                 const std::vector<std::array<std::vector<float>, 3>>& ms, Progress& progress) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Cell& cell = results[{static_cast<int>(sizeof(Key)), kPairs, n, inputs[i].name}];
    for (int a = 0; a < 3; ++a) {
      cell.ms[a] = Timer::median(ms[i][a]);
      csv.add({static_cast<int>(sizeof(Key)), kPairs, algo_name(algos[a]), inputs[i].name, n, cell.ms[a]});
    }
    progress.done_units += static_cast<double>(n) * (sizeof(Key) + (kPairs ? sizeof(ValueOf<Key>) : 0));
    ++progress.done;
  }
}

/// All inputs of one (keys, pairs, n): the three sorts interleaved, every output checked against
/// CUB's merge sort of the same input in the warm-up round. The rounds go over every input in turn
/// (round r of each input, then round r + 1): a disturbance of the GPU machine lasting longer than
/// a case (seen on the H100 in 2026-11-27's runs: all three sorts 1.2-4.2x slower for a whole case)
/// then falls on a round or two of several inputs instead of on every round of one, and the median
/// of the rounds leaves it out.
template <class Key, bool kPairs>
void time_size(Csv& csv, const TableOptions& o, std::uint64_t n, const WorstInputs<Key>& worst, Progress& progress) {
  using Value = ValueOf<Key>;
  constexpr Algo kAlgos[3] = {Algo::cub_merge, Algo::cf_merge, Algo::cub_radix};
  const std::vector<Input> inputs = inputs_at<Key>(n, worst);
  Buffer<Key> src(n), keys(n), worst_src(worst.count(n) ? n : 0);
  std::vector<std::unique_ptr<Buffer<Key>>> refs;  // per input: CUB's merge sort of it (the warm-up round)
  for (std::size_t i = 0; i < inputs.size(); ++i) refs.push_back(std::make_unique<Buffer<Key>>(n));
  Buffer<Value> vals(kPairs ? n : 0), src_vals(kPairs ? n : 0);
  Buffer<unsigned> seen(kPairs ? (n + 31) / 32 : 0);
  Buffer<unsigned long long> wrong(1);
  if (kPairs) fill_iota<<<1024, 256>>>(src_vals.get(), n);
  if (worst.count(n)) worst_src.upload(worst.at(n).get());
  std::unique_ptr<Sorter<Key, kPairs>> sorters[3];
  for (int a = 0; a < 3; ++a)
    sorters[a] = std::make_unique<Sorter<Key, kPairs>>(kAlgos[a], static_cast<std::int64_t>(n), keys.get(), vals.get());
  Timer timer;
  const std::string config = keys_label(sizeof(Key), kPairs);
  progress.begin(config + ", n = " + size_label(n) + ", " + std::to_string(inputs.size()) + " inputs");
  auto restore = [&] {
    CHECK_CUDA(cudaMemcpyAsync(keys.get(), src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (kPairs) CHECK_CUDA(cudaMemcpyAsync(vals.get(), src_vals.get(), n * sizeof(Value), cudaMemcpyDeviceToDevice));
  };
  std::vector<std::array<std::vector<float>, 3>> ms(inputs.size());
  for (int r = -1; r < o.reps; ++r)
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const Input& in = inputs[i];
      if (in.worst)
        CHECK_CUDA(cudaMemcpy(src.get(), worst_src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
      else
        fill_pattern<<<4096, 256>>>(src.get(), n, in.pattern, RandomPermutation(n, 0x5eed0000ull + n));
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      for (int a = 0; a < 3; ++a) {
        Sorter<Key, kPairs>& s = *sorters[a];
        const float t = timer.ms(restore, [&] { s.run(keys.get(), vals.get(), 0); });
        if (r >= 0) ms[i][a].push_back(t);
        if (a == 0 && r < 0)  // the reference: CUB's merge sort of this input
          CHECK_CUDA(cudaMemcpy(refs[i]->get(), s.result_keys, n * sizeof(Key), cudaMemcpyDeviceToDevice));
        CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
        if (kPairs) CHECK_CUDA(cudaMemset(seen.get(), 0, seen.size() * sizeof(unsigned)));
        count_wrong<<<1024, 256>>>(s.result_keys, kPairs ? s.result_vals : static_cast<Value*>(nullptr), src.get(), n,
                                   wrong.get(), static_cast<const Key*>(refs[i]->get()), kPairs ? seen.get() : nullptr);
        CHECK_CUDA(cudaGetLastError());
        const unsigned long long bad = wrong.download(1)[0];
        if (bad != 0) {
          ++failures;
          std::printf("FAIL %s %s n=%llu %s, round %d: %llu outputs unlike CUB's merge sort\n", algo_name(kAlgos[a]),
                      config.c_str(), static_cast<unsigned long long>(n), in.name.c_str(), r, bad);
          std::fprintf(stderr, "FAIL %s %s n=%llu %s\n", algo_name(kAlgos[a]), config.c_str(),
                       static_cast<unsigned long long>(n), in.name.c_str());
        }
      }
    }
  record_size<Key, kPairs>(csv, n, inputs, kAlgos, ms, progress);
}

/// The sizes and inputs of one (keys, pairs), counted into the progress plan (plan = true) or timed.
template <class Key, bool kPairs>
void each_size(Csv* csv, const TableOptions& o, const WorstInputs<Key>& worst, Progress& progress, bool plan) {
  for (std::uint64_t n : table_sizes<Key, kPairs>(o.quick)) {
    if (!plan) {
      time_size<Key, kPairs>(*csv, o, n, worst, progress);
      continue;
    }
    const double inputs = static_cast<double>(inputs_at<Key>(n, worst).size());
    progress.cases += static_cast<int>(inputs);
    progress.units += inputs * static_cast<double>(n) * (sizeof(Key) + (kPairs ? sizeof(ValueOf<Key>) : 0));
  }
}

template <class Key>
WorstInputs<Key> start_worst_inputs(bool quick) {
  WorstInputs<Key> w;
  for (std::uint64_t n : worst_sizes<Key>(quick))  // built on the CPU while the GPU times the other cases
    w[n] = std::async(std::launch::async, [n] {
             return adversary_input<Key>(n, CubTiling<Key>::kThreads, CubTiling<Key>::kItems, banks<Key>(), 0.2);
           }).share();
  return w;
}

int run_table(const TableOptions& o) {
  const bool k4 = o.keys != "8", k8 = o.keys != "4", keys_only = o.pairs != "1", pairs = o.pairs != "0";
  WorstInputs<std::uint32_t> w4;
  WorstInputs<std::uint64_t> w8;
  if (k4) w4 = start_worst_inputs<std::uint32_t>(o.quick);
  if (k8) w8 = start_worst_inputs<std::uint64_t>(o.quick);
  Csv csv(o.csv, false);
  Progress progress(o.reps + 1);
  for (bool plan : {true, false}) {
    if (k4 && keys_only) each_size<std::uint32_t, false>(&csv, o, w4, progress, plan);
    if (k4 && pairs) each_size<std::uint32_t, true>(&csv, o, w4, progress, plan);
    if (k8 && keys_only) each_size<std::uint64_t, false>(&csv, o, w8, progress, plan);
    if (k8 && pairs) each_size<std::uint64_t, true>(&csv, o, w8, progress, plan);
    if (plan)
      std::fprintf(stderr, "# %d cases, 3 sorts each, %d rounds after a warm-up; first estimate on an H100: %.0f s\n",
                   progress.cases, o.reps, progress.units * progress.per_unit + 0.02 * progress.cases);
  }
  std::fprintf(stderr, "# done in %.0f s\n", progress.elapsed());
  print_tables();
  if (failures) std::printf("\n%d FAIL(s): outputs unlike CUB's merge sort (lines starting FAIL above)\n", failures);
  return failures ? 1 : 0;
}

/// "N,N,..." into `sizes`: each 1 to 2^28 (the sweep's buffers), ascending (the largest sizes them).
bool parse_sizes(const std::string& list, std::vector<std::uint64_t>& sizes) {
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 10) {
      std::fprintf(stderr, "cf_sort_table: --sizes: '%s' is not a size\n", item.c_str());
      return false;
    }
    const std::uint64_t n = std::stoull(item);
    if (n < 1 || n > (1ull << 28) || (!sizes.empty() && n <= sizes.back())) {
      std::fprintf(stderr, "cf_sort_table: --sizes: %s is outside 1 to 2^28 or not above the size before it\n",
                   item.c_str());
      return false;
    }
    sizes.push_back(n);
    at = end + 1;
  }
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: cf_sort_table [--quick] [-o FILE.csv] [--reps R] [--keys 4|8|all] [--pairs 0|1|all]\n"
               "       cf_sort_table --profile [--quick] [--reps R]\n"
               "       cf_sort_table --sweep [--quick | --ends | --sizes N,N,...] [--reps R] [--keys 4|8|all] [--pairs 0|1|all]\n"
               "       (--sizes: 1 <= N <= 2^28 keys each, ascending)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  TableOptions o;
  std::string command = "cf_sort_table";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    command += " " + a;
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) std::exit(usage());
      command += std::string(" ") + argv[i + 1];
      return argv[++i];
    };
    if (a == "--quick") o.quick = true;
    else if (a == "--profile") o.profile = true;
    else if (a == "--sweep") o.sweep = true;
    else if (a == "--ends") o.ends = true;
    else if (a == "-o" || a == "--csv") o.csv = value();
    else if (a == "--reps") o.reps = std::atoi(value().c_str());
    else if (a == "--keys") o.keys = value();
    else if (a == "--pairs") o.pairs = value();
    else if (a == "--sizes") {
      if (!parse_sizes(value(), o.sizes)) return usage();
    } else return usage();
  }
  if (o.reps < 1 || (o.ends && !o.sweep) || (!o.sizes.empty() && (!o.sweep || o.ends || o.quick))) return usage();
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU\n");
    return 77;
  }
  print_environment(command);
  return o.sweep ? run_sweep(o) : o.profile ? run_profile(o) : run_table(o);
}
