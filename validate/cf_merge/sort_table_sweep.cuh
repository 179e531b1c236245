#pragma once
// cf_sort_table --sweep: the whole sort's time against n in fine steps, from
// 2^19 to 2^22 keys by 2^16 and on to 2^24 by 2^19 (81 sizes), where the tiles of
// the small-sort policy go from one to 32 an SM of an H100 (4-byte keys). The table at CUB's tile x 2^8 (1,114,112
// keys: 272 tiles of the small sort's 4096 on 132 SMs) found 4-byte pairs 0.91-0.93
// of CUB's merge sort where 2^20 (256 tiles) was 1.32-1.39; the sweep says where
// that step lies in n (a pass more above 256 tiles, or a third block on some SMs
// above 264) and which form of the sort avoids it. Per size and key type, in
// turn within each round: CUB's merge sort, the drop-in CF sort and the forms
// below (each a dispatch of kernels/cf_merge_sort.cuh: the default policy P, and
// the small-sort policy S with the overlap rule cf_overlapped_launch, its launches
// always or never overlapped, with the balanced plan, and with one more block an
// SM, TighterPolicy; S with E / 2 and E / 4, the tiny-sort and the one-tile
// policies); one warm-up round, then
// R rounds (R = 7), medians; random keys (a permutation of 0..n-1); every
// output checked. --ends: the same at 1, 2, 3, 100, 1000, 4000, 10,007, 30,000,
// 2^16, 100,003, 2^17, 2^18, 2^19, 2^27 and 2^28 keys, the issue's range of n
// outside the table's. --sizes N,N,...: the same at the sizes given.
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"
#include "kernels/cf_sort_bench_time.cuh"
#include "validate/cf_merge/sort_table_profile.cuh"
#include "validate/cf_merge/sort_table_report.cuh"

namespace {

template <Plan kPlanForm, Overlap kOverlapForm>  // the small-sort policy, its dispatch's plan and overlap
using SmallForm = Form<kPlanForm, 0, Fuse::by_occupancy, kOverlapForm, Change::half_threads>;
using SweepForms = std::tuple<Form<kWaves, 0>, SmallForm<kWaves, Overlap::by_occupancy>,
                              SmallForm<kWaves, Overlap::always>, SmallForm<kWaves, Overlap::never>,
                              SmallForm<Plan::balanced, Overlap::by_occupancy>, SmallForm<Plan::balanced, Overlap::never>,
                              Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::half_threads_more_blocks>,
                              Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::small_e2>,
                              Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::small_e4>,
                              Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::tiny_sort>,
                              Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::one_tile>>;
constexpr const char* kSweepNames[] = {"default policy P",
                                       "small-sort policy S (u / 2)",
                                       "S, launches always overlapped",
                                       "S, launches never overlapped",
                                       "S, balanced plan",
                                       "S, balanced plan, never overlapped",
                                       "S with one more block an SM",
                                       "S with E / 2",
                                       "S with E / 4",
                                       "S with 2u threads, E / 4 (tiny sort)",
                                       "P with E / 2 (one-tile sort)"};
constexpr int kSweepForms = static_cast<int>(std::tuple_size_v<SweepForms>);
static_assert(sizeof(kSweepNames) / sizeof(kSweepNames[0]) == kSweepForms, "a name for every form");

/// sweep_keys' table head: one row per size, a column per sort and form.
inline void print_sweep_header(const std::string& keys) {
  std::printf("\n### %s: whole sort, median ms (random keys)\n\n| n | tiles of P | tiles of S | CUB merge sort | CF "
              "drop-in |",
              keys.c_str());
  for (const char* name : kSweepNames) std::printf(" %s |", name);
  std::printf(" CUB / CF |\n|---:|---:|---:|---:|---:|");
  for (int i = 0; i < kSweepForms; ++i) std::printf("---:|");
  std::printf("---:|\n");
}

template <class Key, bool kPairs>
void sweep_keys(const TableOptions& o, const std::vector<std::uint64_t>& sizes) {
  using Value = ValueOf<Key>;
  using P = CfDefault<Key, kPairs>;
  using S = bankcheck::cf::SmallSortPolicy<P>;
  using V = std::conditional_t<kPairs, Value, bankcheck::CfNoValue>;
  const std::uint64_t most = sizes.back();
  Buffer<Key> src(most), keys(most);
  Buffer<Value> vals(kPairs ? most : 0), src_vals(kPairs ? most : 0);
  Buffer<unsigned long long> wrong(1);
  std::size_t bytes = 0;  // S with E / 4: the most tiles, the most partitions
  CHECK_CUDA((bankcheck::cf::detail::dispatch<typename ChangedPolicy<P, Change::small_e4>::type, Key, V>(
      nullptr, bytes, keys.get(), static_cast<V*>(nullptr), static_cast<std::int64_t>(most), Less{}, 0)));
  Buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  V* v = nullptr;
  if constexpr (kPairs) v = vals.get();
  print_sweep_header(keys_label(sizeof(Key), kPairs));
  Timer timer;
  for (const std::uint64_t n : sizes) {
    fill_permutation<<<4096, 256>>>(src.get(), n, RandomPermutation(n, 0x5eed0000ull + n));
    if (kPairs) fill_iota<<<1024, 256>>>(src_vals.get(), n);
    CHECK_CUDA(cudaDeviceSynchronize());
    const auto count = static_cast<std::int64_t>(n);
    Sorter<Key, kPairs> cub(Algo::cub_merge, count, keys.get(), vals.get());
    Sorter<Key, kPairs> cf(Algo::cf_merge, count, keys.get(), vals.get());
    auto restore = [&] {
      CHECK_CUDA(cudaMemcpyAsync(keys.get(), src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
      if (kPairs) CHECK_CUDA(cudaMemcpyAsync(vals.get(), src_vals.get(), n * sizeof(Value), cudaMemcpyDeviceToDevice));
    };
    auto check = [&](const char* what) {
      check_sorted(keys.get(), kPairs ? vals.get() : static_cast<Value*>(nullptr), src.get(), n, wrong, what,
                   keys_label(sizeof(Key), kPairs));
    };
    std::vector<float> cub_ms, cf_ms, form_ms[kSweepForms];
    for (int r = -1; r < o.reps; ++r) {
      const float t_cub = timer.ms(restore, [&] { cub.run(keys.get(), vals.get(), 0); });
      check("cub-merge");
      const float t_cf = timer.ms(restore, [&] { cf.run(keys.get(), vals.get(), 0); });
      check("cf-merge");
      if (r >= 0) cub_ms.push_back(t_cub), cf_ms.push_back(t_cf);
      std::apply([&](auto... f) {
        int i = 0;
        ([&] {
          const float t = timer.ms(restore, [&] { sort_form<decltype(f), P>(temp.get(), bytes, keys.get(), v, n); });
          check(kSweepNames[i]);
          if (r >= 0) form_ms[i].push_back(t);
          ++i;
        }(), ...);
      }, SweepForms{});
    }
    std::printf("| %s | %lld | %lld | %.4f | %.4f |", size_label(n).c_str(),
                static_cast<long long>((count + P::kTile - 1) / P::kTile),
                static_cast<long long>((count + S::kTile - 1) / S::kTile), Timer::median(cub_ms), Timer::median(cf_ms));
    for (const auto& t : form_ms) std::printf(" %.4f |", Timer::median(t));
    std::printf(" %.3f |\n", Timer::median(cub_ms) / Timer::median(cf_ms));
    std::fflush(stdout);
  }
}

int run_sweep(const TableOptions& o) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t n = 1ull << 19; n < 1ull << 22; n += 1ull << 16) sizes.push_back(n);
  for (std::uint64_t n = 1ull << 22; n <= 1ull << 24; n += 1ull << 19) sizes.push_back(n);
  if (o.quick) sizes = {1ull << 20, std::uint64_t{4352} << 8};
  // --ends: the sizes of "any n from 1 to 2^28" outside the table's 2^20 to 2^27
  if (o.ends)
    sizes = {1,     2,      3,          100,        1000,       4000,       10007,      30000,
             65536, 100003, 1ull << 17, 1ull << 18, 1ull << 19, 1ull << 27, 1ull << 28};
  if (!o.sizes.empty()) sizes = o.sizes;
  const std::string range = !o.sizes.empty() ? "the sizes asked for" : o.ends ? "1 to 2^19 and 2^27 to 2^28" : "2^19 to 2^24";
  std::printf("## The sort against n, %s (cf_sort_table --sweep%s, %d rounds after a warm-up)\n", range.c_str(),
              !o.sizes.empty() ? " --sizes" : o.ends ? " --ends" : "", o.reps);
  const bool four = o.keys != "8", eight = o.keys != "4", keys = o.pairs != "1", pairs = o.pairs != "0";
  if (four && keys) sweep_keys<std::uint32_t, false>(o, sizes);
  if (four && pairs) sweep_keys<std::uint32_t, true>(o, sizes);
  if (eight && keys) sweep_keys<std::uint64_t, false>(o, sizes);
  if (eight && pairs) sweep_keys<std::uint64_t, true>(o, sizes);
  if (failures) std::printf("\n%d FAIL(s)\n", failures);
  return failures ? 1 : 0;
}

}  // namespace
