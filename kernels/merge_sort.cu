// Full pairwise merge sort on the GPU (SPAA 2025 Section 5, Figures 5 and 6):
// the single-source sort of sim/algorithms/merge_sort/merge_sort.hpp, in its two variants
//   baseline  CUB's BlockMergeSort / DeviceMergeSort (merge path + SerialMerge)
//   cf        CF-Merge (dual subsequence gather, Algorithm 1 / Section 3.3)
// for the shapes E = 15 / u = 512, E = 17 / u = 256 and E = 16 / u = 256
// (gcd(32, 16) = 16: the circular-shift variant), against
// cub::DeviceMergeSort::SortKeysCopy (CUDA 13.0's own policy, u = 256, E = 17).
// Inputs are the keys 0..n-1 permuted (kernels/merge_sort_inputs.cuh):
// "random" (a keyed permutation, deterministic and generated in parallel),
// "worst" (sim/inputs/merge_sort_adversary.hpp for the shape's u and E) and
// "searched" (the same with the searched warp labeling in the wide passes).
//   kernel.merge_sort --mode check|predict|profile|time [--out DIR]
//                     [--shape all|512x15|256x17|256x16] [--input both|all|random|worst|searched]
//                     [--log-min I] [--log-max I] [--tiles N]
// check/predict/profile: n = tiles * u * E (default 8 tiles), one case per
// launch: the tile kernel, then each global pass; every launch's output is
// checked against std::sort of the input's chunks of T * 2^stage keys; check
// also compares the captured GPU trace of 2 blocks with BlockRecorder's.
// time: n = 2^i * E for i = log-min..log-max (default 16..26); one row per
// whole sort (all kernels, partition kernels included), median of 15
// CUDA-event timings after 3 warm-up sorts; every sorted output checked.
// Time rows "baseline-r64" / "cf-r64" run the same code in a kernel capped
// at 64 registers per thread (capped_phased_kernel below).
#include <CLI/CLI.hpp>
#include <cub/device/device_merge_sort.cuh>

#include <algorithm>
#include <filesystem>
#include <type_traits>

#include "kernels/experiment.cuh"
#include "kernels/merge_sort_inputs.cuh"
#include "sim/algorithms/merge_sort/merge_sort.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;
using namespace bankcheck::kernels::merge_sort_inputs;

namespace {

struct Less {
  __device__ bool operator()(Key a, Key b) const { return a < b; }
};

const char* variant_name(MergeSortVariant v) { return v == MergeSortVariant::cf ? "cf" : "baseline"; }

template <int E>
struct TileFactory {
  MergeSortVariant variant;
  int u;
  const Key* in;
  Key* out;
  BANKCHECK_HD MergeSortTile<Key, E> operator()(unsigned block) const {
    MergeSortTile<Key, E> t;
    t.variant = variant;
    t.set_shape(kWarp, u);
    const long T = static_cast<long>(u) * E;
    t.in = in + block * T;
    t.out = out + block * T;
    return t;
  }
};

template <int E>
struct PassFactory {
  MergeSortVariant variant;
  int u;
  long run;
  const Key* in;
  Key* out;
  const long* partitions;
  BANKCHECK_HD MergeSortPass<Key, E> operator()(unsigned block) const {
    MergeSortPass<Key, E> p;
    p.variant = variant;
    p.set_shape(kWarp, u);
    p.run = run;
    p.block = block;
    p.in = in;
    p.out = out;
    p.partitions = partitions;
    return p;
  }
};

/// CUB's DeviceMergeSortPartitionKernel: one merge path per block over global memory.
__global__ void merge_partition_kernel(const Key* in, long run, long tile, long blocks, long* partitions) {
  const long b = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < blocks) partitions[b] = merge_pass_partition(in, run, tile, b);
}

/// phased_kernel (kernels/block_kernel.cuh) with a register cap: at most 64
/// registers per thread (__launch_bounds__(U, 65536 / (64 U))), so 2048 / U / 2
/// blocks fit an SM by registers. The same algorithm code; a timing knob
/// only (phased_kernel runs the whole sort's phases in one function, whose
/// register count is the largest phase's, 48-86 here).
template <int U, class Factory>
__global__ void __launch_bounds__(U, 65536 / (64 * U)) capped_phased_kernel(Factory factory) {
  run_phases(factory);
}

/// Sortedness of a permutation of 0..n-1 on the GPU (no 4 GB download per
/// timed sort): counts positions with out[i] != i and keeps the first.
__global__ void count_misplaced_kernel(const Key* out, unsigned long long n, unsigned long long* bad,
                                       unsigned long long* first) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
    if (out[i] != static_cast<Key>(i)) {
      atomicAdd(bad, 1ull);
      atomicMin(first, i);
    }
}

bool is_iota_on_device(const Key* d_out, std::uint64_t n) {
  DeviceBuffer<unsigned long long> counters(2);
  const std::vector<unsigned long long> init = {0, ~0ull};
  counters.upload(init);
  count_misplaced_kernel<<<1024, 256>>>(d_out, n, counters.get(), counters.get() + 1);
  BANKCHECK_LAUNCHED();
  const std::vector<unsigned long long> got = counters.download();
  if (got[0] == 0) return true;
  Key value = 0;
  BANKCHECK_CUDA(cudaMemcpy(&value, d_out + got[1], sizeof(Key), cudaMemcpyDeviceToHost));
  std::printf("  %llu keys misplaced; out[%llu] = %d\n", got[0], got[1], value);
  return false;
}

// ---------------------------------------------------------------------------
// check / predict / profile: one case per launch of a small sort.

template <int E>
void run_stages(Experiment& ex, MergeSortVariant variant, unsigned u, const std::string& input_name,
                const std::vector<Key>& input) {
  const long T = static_cast<long>(u) * E, n = static_cast<long>(input.size()), blocks = n / T;
  DeviceBuffer<Key> d_in(input), d_a(n), d_b(n);
  DeviceBuffer<long> d_part(blocks + 1);
  std::vector<Key> h_out(n), host_in = input;
  std::vector<long> h_part(blocks + 1, 0);
  const Key* d_src = d_in.get();
  DeviceBuffer<Key>* d_dst = &d_a;
  CaseInfo c;
  c.kernel = "merge_sort";
  c.variant = variant_name(variant);
  c.input = input_name;
  c.blocks = static_cast<unsigned>(blocks);
  c.threads = u;
  c.input_hash = hash_of(input);
  const std::string shape = "u=" + std::to_string(u) + ";E=" + std::to_string(E) + ";n=" + std::to_string(n);
  for (long stage = 0, run = T / 2; run < n; ++stage, run *= 2) {
    const std::vector<Key> expected = chunk_sorted(input, T << stage);
    auto verify = [&] { return equal_or_report(d_dst->download(), expected); };
    d_dst->poison();
    std::fill(h_out.begin(), h_out.end(), -1);
    if (stage == 0) {
      const TileFactory<E> host{variant, static_cast<int>(u), host_in.data(), h_out.data()};
      const TileFactory<E> dev{variant, static_cast<int>(u), d_src, d_dst->get()};
      c.params = shape + ";stage=tile";
      c.shared = static_cast<std::size_t>(host(0).shared_bytes());
      ex.run(c, host, dev, verify, static_cast<std::uint64_t>(n));
    } else {
      for (long b = 0; b < blocks; ++b) h_part[b] = merge_pass_partition(host_in.data(), run, T, b);
      if (device_enabled()) {
        merge_partition_kernel<<<(blocks + 127) / 128, 128>>>(d_src, run, T, blocks, d_part.get());
        BANKCHECK_LAUNCHED();
      }
      const PassFactory<E> host{variant, static_cast<int>(u), run, host_in.data(), h_out.data(), h_part.data()};
      const PassFactory<E> dev{variant, static_cast<int>(u), run, d_src, d_dst->get(), d_part.get()};
      c.params = shape + ";stage=pass" + std::to_string(stage) + ";run=" + std::to_string(run);
      c.shared = static_cast<std::size_t>(host(0).shared_bytes());
      ex.run(c, host, dev, verify, static_cast<std::uint64_t>(n));
    }
    if (ex.mode() == Mode::predict && h_out != expected) ex.fail(c, "CPU recorder's output is not the sorted chunks");
    // The next stage reads this one's output: the device its own, the CPU the reference.
    host_in = expected;
    d_src = d_dst->get();
    d_dst = d_dst == &d_a ? &d_b : &d_a;
  }
}

void check_cub(Experiment& ex, const std::string& input_name, const std::vector<Key>& input, const std::string& params) {
  if (ex.mode() != Mode::check) return;
  const std::uint64_t n = input.size();
  DeviceBuffer<Key> d_in(input), d_out(n);
  std::size_t temp_bytes = 0;
  BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeysCopy(nullptr, temp_bytes, d_in.get(), d_out.get(),
                                                    static_cast<std::int64_t>(n), Less{}));
  DeviceBuffer<unsigned char> temp(temp_bytes);
  d_out.poison();
  BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeysCopy(temp.get(), temp_bytes, d_in.get(), d_out.get(),
                                                    static_cast<std::int64_t>(n), Less{}));
  BANKCHECK_LAUNCHED();
  CaseInfo c;
  c.kernel = "merge_sort";
  c.variant = "cub";
  c.input = input_name;
  c.params = params;
  if (is_iota(d_out.download())) std::printf("ok   %-60s sorted\n", c.key().c_str());
  else ex.fail(c, "CUB output not sorted");
}

// ---------------------------------------------------------------------------
// time: whole sorts.

/// cub::DeviceMergeSort (its own u = 256, E = 17) on the same keys.
void time_cub_sort(Experiment& ex, const CaseInfo& c, DeviceBuffer<Key>& d_in, DeviceBuffer<Key>& d_a,
                   std::uint64_t n) {
  std::size_t temp_bytes = 0;
  BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeysCopy(nullptr, temp_bytes, d_in.get(), d_a.get(),
                                                    static_cast<std::int64_t>(n), Less{}));
  DeviceBuffer<unsigned char> temp(temp_bytes);
  CaseInfo cub_case = c;
  cub_case.variant = "cub";
  cub_case.threads = 256;
  cub_case.blocks = static_cast<unsigned>((n + 256 * 17 - 1) / (256 * 17));
  d_a.poison();
  ex.time_external(
      cub_case,
      [&] {
        BANKCHECK_CUDA(cub::DeviceMergeSort::SortKeysCopy(temp.get(), temp_bytes, d_in.get(), d_a.get(),
                                                          static_cast<std::int64_t>(n), Less{}));
      },
      [&] { return is_iota_on_device(d_a.get(), n); }, n);
}

template <int E, int U>
void time_sorts(Experiment& ex, int log_min, int log_max, const std::string& inputs) {
  const unsigned u = U;
  const long T = static_cast<long>(u) * E;
  for (int i = log_min; i <= log_max; ++i) {
    const std::uint64_t n = std::uint64_t{E} << i;
    if (n % T != 0) {
      std::printf("skip n = 2^%d * %d: not a power-of-two number of %ld-key tiles\n", i, E, T);
      continue;
    }
    const long blocks = static_cast<long>(n / T);
    for (InputKind kind : kInputKinds) {
      if (!selected(inputs, kind)) continue;
      const std::vector<Key> input = make_input(n, kind, u, E);
      const std::string params = "u=" + std::to_string(u) + ";E=" + std::to_string(E) + ";n=" + std::to_string(n);
      DeviceBuffer<Key> d_in(input), d_a(n), d_b(n);
      DeviceBuffer<long> d_part(blocks + 1);
      CaseInfo c;
      c.kernel = "merge_sort";
      c.input = input_name(kind);
      c.params = params;
      c.blocks = static_cast<unsigned>(blocks);
      c.threads = u;
      c.input_hash = parallel_hash(input);
      time_cub_sort(ex, c, d_in, d_a, n);
      for (int capped = 0; capped <= 1; ++capped)
      for (MergeSortVariant v : {MergeSortVariant::baseline, MergeSortVariant::cf}) {
        const TileFactory<E> tile{v, static_cast<int>(u), d_in.get(), d_a.get()};
        const long shared = tile(0).shared_bytes();
        allow_shared(phased_kernel<TileFactory<E>>, shared);
        allow_shared(phased_kernel<PassFactory<E>>, shared);
        allow_shared(capped_phased_kernel<U, TileFactory<E>>, shared);
        allow_shared(capped_phased_kernel<U, PassFactory<E>>, shared);
        auto start = [&](const auto& factory) {
          using F = std::decay_t<decltype(factory)>;
          if (capped)
            capped_phased_kernel<U, F><<<static_cast<unsigned>(blocks), u, shared>>>(factory);
          else
            phased_kernel<F><<<static_cast<unsigned>(blocks), u, shared>>>(factory);
        };
        Key* result = nullptr;
        auto sort = [&] {
          start(tile);
          Key *src = d_a.get(), *dst = d_b.get();
          for (long run = T; run < static_cast<long>(n); run *= 2) {
            merge_partition_kernel<<<(blocks + 127) / 128, 128>>>(src, run, T, blocks, d_part.get());
            start(PassFactory<E>{v, static_cast<int>(u), run, src, dst, d_part.get()});
            std::swap(src, dst);
          }
          result = src;
        };
        CaseInfo s = c;
        s.variant = std::string(variant_name(v)) + (capped ? "-r64" : "");
        s.shared = static_cast<std::size_t>(shared);
        d_a.poison();
        d_b.poison();
        ex.time_external(s, sort, [&] { return is_iota_on_device(result, n); }, n);
      }
    }
  }
}

template <int E, int U>
void run_shape(Experiment& ex, const std::string& inputs, unsigned tiles, int log_min, int log_max) {
  const unsigned u = U;
  if (ex.mode() == Mode::time) {
    time_sorts<E, U>(ex, log_min, log_max, inputs);
    return;
  }
  const std::uint64_t n = std::uint64_t{u} * E * tiles;
  for (InputKind kind : kInputKinds) {
    if (!selected(inputs, kind)) continue;
    const std::vector<Key> input = make_input(n, kind, u, E);
    for (MergeSortVariant v : {MergeSortVariant::baseline, MergeSortVariant::cf})
      run_stages<E>(ex, v, u, input_name(kind), input);
    check_cub(ex, input_name(kind), input, "u=" + std::to_string(u) + ";E=" + std::to_string(E) + ";n=" + std::to_string(n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Full pairwise merge sort (SPAA 2025): CUB-style baseline and CF-Merge; check, predict, profile, time"};
  ProgramOptions opts;
  add_program_options(app, opts);
  std::string shape = "all", inputs = "all";
  unsigned tiles = 8;
  int log_min = 16, log_max = 26;
  app.add_option("--shape", shape, "u x E: all | 512x15 | 256x17 | 256x16")
      ->check(CLI::IsMember({"all", "512x15", "256x17", "256x16"}));
  app.add_option("--input", inputs, "random | worst | searched | both (random and worst) | all")
      ->check(CLI::IsMember({"random", "worst", "searched", "both", "all"}));
  app.add_option("--tiles", tiles, "check/predict/profile: n = tiles * u * E (a power of two, 1..64)")
      ->check(CLI::IsMember({1u, 2u, 4u, 8u, 16u, 32u, 64u}));
  // i <= 26: the keys are the int32 ranks 0..n-1, and 2^27 * 16 no longer fits.
  app.add_option("--log-min", log_min, "time: smallest i in n = 2^i * E (9..26)")->check(CLI::Range(9, 26));
  app.add_option("--log-max", log_max, "time: largest i (9..26, >= --log-min)")->check(CLI::Range(9, 26));
  app.add_option("--inputs", input_cache(),
                 "check/predict/profile: directory caching the worst-case inputs (read if present, else written)")
      ->envname("BANKCHECK_MERGE_SORT_INPUTS");
  CLI11_PARSE(app, argc, argv);
  if (log_min > log_max) {
    std::fprintf(stderr, "error: --log-min (%d) must be <= --log-max (%d)\n", log_min, log_max);
    return 2;
  }
  if (!input_cache().empty()) std::filesystem::create_directories(input_cache());
  return run_program(opts, "merge_sort", [&](Experiment& ex) {
    if (ex.mode() == Mode::time) input_cache().clear();  // gigabytes: generated in place, not cached
    if (shape == "all" || shape == "512x15") run_shape<15, 512>(ex, inputs, tiles, log_min, log_max);
    if (shape == "all" || shape == "256x17") run_shape<17, 256>(ex, inputs, tiles, log_min, log_max);
    if (shape == "all" || shape == "256x16") run_shape<16, 256>(ex, inputs, tiles, log_min, log_max);
  });
}
