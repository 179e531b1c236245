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
//   are permutations of 0..n-1: "random" a keyed Feistel permutation
//   (sim/inputs/random_permutation.hpp), "worst-*" the whole-sort adversary
//   (sim/inputs/merge_sort_adversary.hpp) built for that tiling
//   (w = 32 4-byte banks; 16 for 8-byte keys, whose requests the H100 serves by
//   half-warps). Values (pairs) are the input positions. Each (algorithm, input, n):
//   one warm-up, then `reps` (>= 10) CUDA-event timings of the whole sort, input
//   restored before each (not timed), median reported; every output is checked on
//   the GPU (sorted = 0..n-1, value = the key's input position: equal to std::sort).
//   CSV rows: key_bytes,pairs,algorithm,input,n,median_ms,keys_per_us; then the
//   headline ratios at n >= 2^22 E.
// tune: the compiled-in candidate policies (u, E, register bound, load) on random keys.
// profile: one sort (no warm-up) for Nsight Compute.
//
// The modes live in cf_sort_bench_{check,time,tune,profile}.cuh, on the
// inputs (cf_sort_bench_inputs.cuh) and sorts (cf_sort_bench_sorter.cuh) they share.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels/cf_sort_bench_check.cuh"
#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_profile.cuh"
#include "kernels/cf_sort_bench_time.cuh"
#include "kernels/cf_sort_bench_tune.cuh"

namespace {

constexpr int kSkipped = 77;

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
