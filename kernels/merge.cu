// Pairwise merge sort on the GPU (SPAA 2025, Section 5; Figures 5 and 6).
// cub::DeviceMergeSort::SortKeys with a custom comparator (thrust::sort on int
// would take the radix-sort path) on random keys and on the worst-case
// permutation of sim/inputs/merge_sort_adversary.hpp, which is built for CUB's
// DeviceMergeSort shape (u = 256 threads, E = 17 keys per thread for 4-byte
// keys in CUDA 13.0's policy). n = u*E*2^i. Every output is checked sorted
// and a permutation of the input (keys are the ranks 0..n-1).
//   kernel.merge --mode check|time [--out DIR] [--log-tiles-max I]
// (predict/profile rows come from the phased merge kernels once
// sim/algorithms/merge/pairwise_merge.hpp and sim/algorithms/merge/cf_merge.hpp exist; see docs/validation.md.)
#include <CLI/CLI.hpp>
#include <cub/device/device_merge_sort.cuh>

#include <numeric>

#include "kernels/experiment.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

struct Less {
  __device__ bool operator()(std::int32_t a, std::int32_t b) const { return a < b; }
};

/// Keys 0..n-1 in an order: "random" (Fisher-Yates) or "worst" (the adversary).
std::vector<std::int32_t> make_input(std::uint64_t n, bool worst, unsigned threads, unsigned items) {
  std::vector<std::int32_t> keys(n);
  if (worst) {
    inputs::MergeSortShape shape;
    shape.threads = threads;
    shape.items = items;
    shape.warp = 32;
    shape.keys = n;
    inputs::MergeSortAdversary adversary(shape);
    adversary.generate(std::span<std::int32_t>(keys));
  } else {
    std::iota(keys.begin(), keys.end(), 0);
    inputs::Random rng(n);
    for (std::uint64_t i = n - 1; i > 0; --i) std::swap(keys[i], keys[rng.below(i + 1)]);
  }
  return keys;
}

void run_cub(Experiment& ex, int log_tiles_min, int log_tiles_max, const std::string& inputs) {
  const unsigned u = 256, E = 17;  // CUB 13.0's merge sort policy for 4-byte keys
  for (int i = log_tiles_min; i <= log_tiles_max; ++i) {
    const std::uint64_t n = std::uint64_t{u} * E << i;
    for (int worst = 0; worst <= 1; ++worst) {
      if (inputs != "both" && inputs != (worst ? "worst" : "random")) continue;
      const std::vector<std::int32_t> input = make_input(n, worst != 0, u, E);
      {  // the input must be a permutation of 0..n-1, or "sorted == iota" proves nothing
        std::vector<char> seen(n, 0);
        for (auto k : input) {
          if (k < 0 || static_cast<std::uint64_t>(k) >= n || seen[k]) throw std::runtime_error("input is not a permutation");
          seen[k] = 1;
        }
      }
      CaseInfo c;
      c.kernel = "merge";
      c.variant = "cub-DeviceMergeSort";
      c.input = worst ? "worst" : "random";
      c.params = "u=256;E=17;n=" + std::to_string(n);
      c.blocks = static_cast<unsigned>(n / (u * E));
      c.threads = u;
      c.input_hash = hash_of(input);
      DeviceBuffer<std::int32_t> d_input(input), d_keys(n);
      std::size_t temp_bytes = 0;
      BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, d_keys.get(), static_cast<std::int64_t>(n), Less{}));
      DeviceBuffer<unsigned char> temp(temp_bytes);
      // Each run sorts a fresh copy of the input (the copy is timed too: n*8 bytes, small next to the sort).
      auto run = [&] {
        BANKCHECK_CUDA(cudaMemcpyAsync(d_keys.get(), d_input.get(), n * sizeof(std::int32_t), cudaMemcpyDeviceToDevice));
        BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp.get(), temp_bytes, d_keys.get(), static_cast<std::int64_t>(n), Less{}));
      };
      auto verify = [&] {
        const std::vector<std::int32_t> out = d_keys.download();
        for (std::uint64_t k = 0; k < n; ++k)
          if (out[k] != static_cast<std::int32_t>(k)) {
            std::printf("  output[%llu] = %d, expected %llu\n", (unsigned long long)k, out[k], (unsigned long long)k);
            return false;
          }
        return true;
      };
      if (ex.mode() == Mode::check || ex.mode() == Mode::profile) {
        // profile: one sort (several CUB kernels) per process, for
        // validate/harness/cub_profile.sh, which sums ncu's rows.
        d_keys.poison();
        run();
        BANKCHECK_LAUNCHED();
        if (verify()) std::printf("ok   %-60s sorted\n", c.key().c_str());
        else ex.fail(c, "CUB output not sorted");
      } else {
        ex.time_external(c, run, verify, n);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Pairwise merge sort kernels (SPAA 2025): check, time"};
  ProgramOptions opts;
  int log_tiles_min = 0, log_tiles_max = -1;
  add_program_options(app, opts);
  app.add_option("--log-tiles-min", log_tiles_min, "smallest i in n = u*E*2^i")->check(CLI::Range(0, 14));
  app.add_option("--log-tiles-max", log_tiles_max, "largest i (default 4 for check, 12 for time)")->check(CLI::Range(0, 14));
  std::string inputs = "both";
  app.add_option("--input", inputs, "random | worst | both")->check(CLI::IsMember({"random", "worst", "both"}));
  bool cub = false;
  app.add_flag("--cub", cub, "profile mode: sort once with cub::DeviceMergeSort (ncu filters its kernels)");
  CLI11_PARSE(app, argc, argv);
  return run_program(opts, "merge", [&](Experiment& ex) {
    if (log_tiles_max < 0) log_tiles_max = ex.mode() == Mode::time ? 12 : 4;
    if (ex.mode() == Mode::check || ex.mode() == Mode::time || (ex.mode() == Mode::profile && cub))
      run_cub(ex, log_tiles_min, log_tiles_max, inputs);
  });
}
