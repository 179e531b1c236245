#pragma once
// cf_sort_table --profile: where the CF sort's time goes, kernel by kernel, at
// a power of two, just below and above it (2^24, 2^24 - 1 and 2^24 + 12,345;
// the issue measured 1.00 against 1.22 ms for u32 keys at the first and the
// last, CUB unmoved), at the prime 1,000,003 and at 2^20 to 2^23. A CUDA event
// follows every launch of the dispatch (its `marks`, kernels/cf_merge_sort.cuh);
// the time between two events is one launch's kernel plus its launch gap.
// Sixteen forms of the sort (Forms below: the default policy's dispatch and one change
// each, the dispatch's template switches and other policies), each also timed
// whole without events; beside them, in the same rounds, the whole CF sort and
// CUB's merge sort. Random keys (a permutation of 0..n-1); every output is
// checked.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"
#include "kernels/cf_sort_bench_time.cuh"
#include "validate/cf_merge/event_marks.cuh"
#include "validate/cf_merge/sort_table_report.cuh"

namespace {

/// The summary rows of the sizes profiled so far (printed last, one table).
std::vector<std::string>& profile_summary() {
  static std::vector<std::string> rows;
  return rows;
}

/// Stage medians of one form of the sort, in launch order.
struct StageTimes {
  std::vector<std::string> order;
  std::map<std::string, std::vector<float>> ms;
  void add(const std::vector<std::pair<std::string, float>>& stages) {
    for (const auto& [label, t] : stages) {
      if (!ms.count(label)) order.push_back(label);
      ms[label].push_back(t);
    }
  }
  double median(const std::string& label) const {
    const auto it = ms.find(label);
    return it == ms.end() ? -1 : Timer::median(it->second);
  }
  /// Sum of the medians of the stages whose label starts with `prefix` (all: "").
  double sum(const std::string& prefix) const {
    double s = 0;
    for (const auto& label : order)
      if (label.rfind(prefix, 0) == 0) s += median(label);
    return s;
  }
};

using bankcheck::cf::detail::Fuse;
using bankcheck::cf::detail::Overlap;
using bankcheck::cf::detail::Plan;
using bankcheck::cf::detail::Wide;

/// The policy of a form: the default one, with half its E, twice its u or twice
/// its E. (Vectorized, direct blocked stores were 1.25x to 2.1x slower at every
/// size: validate/results/h100-2026-11-27d, development run r7, commit 3c995f1;
/// the register cap of one or two more blocks an SM slower at 33 and 37 of the 38
/// sizes: validate/results/h100-2026-11-27e, run r12.)
enum class Change {
  none,
  half_items,
  double_threads,
  double_items,
  half_threads,
  half_threads_more_blocks,
  small_e2,
  small_e4,
  tiny_sort,
  one_tile
};
template <class P, Change kChange>
struct ChangedPolicy {
  using type = P;
};
template <class P>
struct ChangedPolicy<P, Change::half_items> {
  using type = bankcheck::cf::Policy<P::kThreads, P::kItems / 2, P::kLoad, P::kStore, 4>;
};
template <class P>  // twice the threads at the same registers per thread: the wide block sort's policy
struct ChangedPolicy<P, Change::double_threads> {
  using type = bankcheck::cf::detail::WidePolicy<P>;
};
template <class P>  // half the threads at the same registers per thread: the small-sort policy
struct ChangedPolicy<P, Change::half_threads> {
  using type = bankcheck::cf::SmallSortPolicy<P>;
};
template <class P>  // the small-sort policy with one more resident block an SM (a tighter register cap)
struct ChangedPolicy<P, Change::half_threads_more_blocks> {
  using type = bankcheck::cf::TighterPolicy<bankcheck::cf::SmallSortPolicy<P>>;
};
template <class P>  // the small-sort policy with E / 2 (tiny sorts, cf_sort_table --sweep --ends)
struct ChangedPolicy<P, Change::small_e2> {
  using S = bankcheck::cf::SmallSortPolicy<P>;
  using type = bankcheck::cf::Policy<S::kThreads, S::kItems / 2, S::kLoad, S::kStore, S::kMinBlocks>;
};
template <class P>  // the small-sort policy with E / 4
struct ChangedPolicy<P, Change::small_e4> {
  using S = bankcheck::cf::SmallSortPolicy<P>;
  using type = bankcheck::cf::Policy<S::kThreads, S::kItems / 4, S::kLoad, S::kStore, S::kMinBlocks>;
};
template <class P>  // the small-sort policy with 2u threads and E / 4: the tiny-sort policy
struct ChangedPolicy<P, Change::tiny_sort> {
  using type = bankcheck::cf::TinySortPolicy<P>;
};
template <class P>  // P's threads with E / 2: one tile up to twice the tiny sort's (not adopted, item 23)
struct ChangedPolicy<P, Change::one_tile> {
  using type = bankcheck::cf::Policy<P::kThreads, P::kItems / 2, P::kLoad, P::kStore, P::kMinBlocks>;
};
template <class P>  // twice the keys per thread: DefaultPolicy's register bound for more than 32 words
struct ChangedPolicy<P, Change::double_items> {
  using type = bankcheck::cf::Policy<P::kThreads, P::kItems * 2, P::kLoad, P::kStore, 2>;
};

/// The forms of the sort the profile times: the dispatch's kPlan,
/// kProbes, kFuse, kOverlap and kNetwork, and the default policy or a change of it.
template <Plan kPlanForm, int kProbes, Fuse kFusePartitions = Fuse::by_occupancy,
          Overlap kOverlapLaunches = Overlap::by_occupancy,
          Change kChange = Change::none, bool kNetworkSort = true, Wide kWideSort = Wide::by_tiles>
struct Form {
  static constexpr bool kNetwork = kNetworkSort;
  static constexpr Wide kWide = kWideSort;
  static constexpr Plan kPlan = kPlanForm;
  static constexpr int kSearchProbes = kProbes;
  static constexpr Fuse kFuse = kFusePartitions;
  static constexpr Overlap kOverlap = kOverlapLaunches;
  template <class P>
  using PolicyOf = typename ChangedPolicy<P, kChange>::type;
};
constexpr Fuse kNever = Fuse::never;
constexpr Plan kWaves = Plan::by_waves;
template <Change kChange>  // other tiles: each block sorts one of them
using PolicyForm = Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, kChange, true, Wide::never>;
using Forms = std::tuple<Form<kWaves, 0>, Form<kWaves, 0, kNever>, Form<kWaves, 0, Fuse::always>, Form<kWaves, 7, kNever>,
                         Form<kWaves, 1, kNever>, Form<Plan::cub, 0>, Form<kWaves, 0, Fuse::by_occupancy, Overlap::never>,
                         Form<Plan::cub, 1, kNever, Overlap::never>, PolicyForm<Change::half_items>,
                         PolicyForm<Change::double_threads>, PolicyForm<Change::double_items>,
                         Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::none, false>,
                         Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::none, true, Wide::never>,
                         Form<kWaves, 0, Fuse::by_occupancy, Overlap::by_occupancy, Change::none, true, Wide::always>,
                         Form<Plan::balanced, 0>, PolicyForm<Change::half_threads>>;
constexpr const char* kFormNames[] = {"default policy (shipped where the small sort is not)",
                                      "partition kernel every pass",
                                      "partitions in the merge kernel every pass",
                                      "7 probes, partition kernel",
                                      "1 probe (binary), partition kernel",
                                      "CUB's plan (every tile in every pass)",
                                      "launches not overlapped",
                                      "as CUB: binary, partition kernel, not overlapped",
                                      "half the tile (E / 2)",
                                      "twice the tile (2u threads)",
                                      "twice the tile (2E keys a thread)",
                                      "CUB's odd-even sort of a thread's keys",
                                      "block sort of one tile a block",
                                      "block sort of two tiles a block (pass 0 in it)",
                                      "the balanced plan at every size",
                                      "half the tile (u / 2)"};
constexpr int kForms = static_cast<int>(std::tuple_size_v<Forms>);
static_assert(sizeof(kFormNames) / sizeof(kFormNames[0]) == kForms, "a name for every form");

/// One whole sort of n keys (and values) by form F of the default policy P, marks(stage, pass) after each launch.
template <class F, class P, class Key, class V, class Marks = bankcheck::cf::detail::NoMarks>
void sort_form(void* temp, std::size_t& bytes, Key* keys, V* vals, std::uint64_t n, Marks&& marks = {}) {
  CHECK_CUDA((bankcheck::cf::detail::dispatch<typename F::template PolicyOf<P>, Key, V, F::kPlan, F::kSearchProbes,
                                              F::kFuse, F::kOverlap, F::kNetwork, F::kWide>(
      temp, bytes, keys, vals, static_cast<std::int64_t>(n), Less{}, 0, marks)));
}

/// Whether a sort's n outputs are sorted, values (where vals) moved with their keys (count_wrong
/// against the input src); prints FAIL and counts a failure where not.
template <class Key, class Value>
void check_sorted(const Key* keys, const Value* vals, const Key* src, std::uint64_t n,
                  Buffer<unsigned long long>& wrong, const char* what, const std::string& config) {
  CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
  count_wrong<<<1024, 256>>>(keys, vals, src, n, wrong.get(), static_cast<const Key*>(nullptr), nullptr);
  if (wrong.download(1)[0] != 0) {
    ++failures;
    std::printf("FAIL %s %s n=%llu: output not sorted\n", what, config.c_str(), static_cast<unsigned long long>(n));
  }
}

/// Every form's stage labels, in launch order: the block sort, then each pass's partition and merge.
std::vector<std::string> stage_order(const StageTimes (&forms)[kForms]) {
  std::map<std::pair<int, int>, std::string> ordered;  // (pass, partition 0 / merge 1) -> label
  for (const auto& f : forms)
    for (const auto& label : f.order) {
      const auto comma = label.find(", pass ");
      const int pass = comma == std::string::npos ? -1 : std::stoi(label.substr(comma + 7));
      ordered[{pass, label.rfind("merge", 0) == 0 ? 1 : 0}] = label;
    }
  std::vector<std::string> out;
  for (const auto& [key, label] : ordered) out.push_back(label);
  return out;
}

/// One profiled size's input (a random permutation of 0..n-1, values 0..n-1) and the two steps every
/// timing repeats: restore the unsorted input into keys (and vals), check a sorted output against it.
template <class Key, bool kPairs>
struct ProfileInput {
  using Value = ValueOf<Key>;
  std::uint64_t n;
  Buffer<Key> src, keys;
  Buffer<Value> vals, src_vals;
  Buffer<unsigned long long> wrong;
  explicit ProfileInput(std::uint64_t count)
      : n(count), src(n), keys(n), vals(kPairs ? n : 0), src_vals(kPairs ? n : 0), wrong(1) {
    fill_permutation<<<4096, 256>>>(src.get(), n, RandomPermutation(n, 0x5eed0000ull + n));
    if (kPairs) fill_iota<<<1024, 256>>>(src_vals.get(), n);
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  void restore() {
    CHECK_CUDA(cudaMemcpyAsync(keys.get(), src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (kPairs) CHECK_CUDA(cudaMemcpyAsync(vals.get(), src_vals.get(), n * sizeof(Value), cudaMemcpyDeviceToDevice));
  }
  void check(const Key* out, const char* what) {
    check_sorted(out, kPairs ? vals.get() : static_cast<Value*>(nullptr), src.get(), n, wrong, what,
                 keys_label(sizeof(Key), kPairs));
  }
};

/// What profile_size measures: each form's stages (with events) and whole sorts (without), and
/// the whole CF and CUB sorts of the same rounds.
struct ProfileTimes {
  StageTimes forms[kForms];
  std::vector<float> form_ms[kForms];
  std::vector<float> cub_ms, cf_ms, cf_after_ms;
};

/// profile_size's table: a row per stage, a column per form, then the whole sorts; and the merge
/// kernel's blocks an SM (the occupancy API, after the dispatch let the kernel take its shared memory).
template <class Key, bool kPairs>
void print_profile(const std::string& what, std::int64_t tiles, const ProfileTimes& t) {
  using P = CfDefault<Key, kPairs>;
  using V = std::conditional_t<kPairs, ValueOf<Key>, bankcheck::CfNoValue>;
  std::printf("\n### %s: %lld tiles of %d, %d passes\n\n| stage |", what.c_str(), static_cast<long long>(tiles),
              P::kTile, bankcheck::cf_merge_pass_count(tiles));
  for (const char* name : kFormNames) std::printf(" %s (ms) |", name);
  std::printf("\n|---|");
  for (int i = 0; i < kForms; ++i) std::printf("---:|");
  std::printf("\n");
  for (const auto& label : stage_order(t.forms)) {
    std::printf("| %s |", label.c_str());
    for (const auto& f : t.forms) {
      const double ms = f.median(label);  // absent: that form has no such launch
      ms >= 0 ? std::printf(" %.4f |", ms) : std::printf(" |");
    }
    std::printf("\n");
  }
  std::printf("| **sum of the stages** |");
  for (const auto& f : t.forms) std::printf(" %.4f |", f.sum(""));
  std::printf("\n| **whole sort, no events** |");
  for (const auto& ms : t.form_ms) std::printf(" %.4f |", Timer::median(ms));
  std::printf("\n| merge kernel's blocks an SM |");
  std::apply([&](auto... f) {
    ([&] {
      using Q = typename decltype(f)::template PolicyOf<P>;
      int per_sm = 0;
      CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, bankcheck::cf::detail::merge_kernel<Q, Key, V, Less>, Q::kThreads,
          static_cast<int>(bankcheck::cf::detail::Agent<Q, Key, V>::kSharedBytes)));
      std::printf(" %d |", per_sm);
    }(), ...);
  }, Forms{});
  std::printf("\n| whole CF sort, no events | %.4f |\n| whole CF sort after the forms, no events | %.4f |\n"
              "| whole CUB merge sort | %.4f |\n",
              Timer::median(t.cf_ms), Timer::median(t.cf_after_ms), Timer::median(t.cub_ms));
}

/// One summary line per size for the cross-size table run_profile prints last.
inline void add_profile_summary(const std::string& what, std::int64_t tiles, const ProfileTimes& t) {
  std::string line = "| " + what + " | " + std::to_string(tiles) + " | " +
                     std::to_string(bankcheck::cf_merge_pass_count(tiles)) + " |";
  char cell[64];
  for (double ms : {t.forms[0].median("block sort"), t.forms[0].sum("partition"), t.forms[0].sum("merge")}) {
    std::snprintf(cell, sizeof cell, " %.4f |", ms);
    line += cell;
  }
  for (const auto& ms : t.form_ms) {
    std::snprintf(cell, sizeof cell, " %.4f |", Timer::median(ms));
    line += cell;
  }
  std::snprintf(cell, sizeof cell, " %.4f | %.4f |", Timer::median(t.cf_ms), Timer::median(t.cub_ms));
  profile_summary().push_back(line + cell);
}

template <class Key, bool kPairs>
void profile_size(const TableOptions& o, std::uint64_t n) {
  using P = CfDefault<Key, kPairs>;
  using V = std::conditional_t<kPairs, ValueOf<Key>, bankcheck::CfNoValue>;
  const std::string what = keys_label(sizeof(Key), kPairs) + ", n = " + size_label(n);
  std::fprintf(stderr, "# profile: %s\n", what.c_str());
  ProfileInput<Key, kPairs> in(n);
  V* v = nullptr;
  if constexpr (kPairs) v = in.vals.get();
  std::size_t bytes = 0;  // the half tile's: the most partitions
  CHECK_CUDA((bankcheck::cf::detail::dispatch<typename PolicyForm<Change::half_items>::template PolicyOf<P>, Key,
                                              V>(nullptr, bytes, in.keys.get(), v, static_cast<std::int64_t>(n), Less{}, 0)));
  Buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  Sorter<Key, kPairs> cub(Algo::cub_merge, static_cast<std::int64_t>(n), in.keys.get(), in.vals.get());
  Sorter<Key, kPairs> cf(Algo::cf_merge, static_cast<std::int64_t>(n), in.keys.get(), in.vals.get());
  Timer timer;
  EventMarks marks;
  ProfileTimes t;
  auto restore = [&] { in.restore(); };
  // Each form twice: with an event after every launch (the stages), then whole without them.
  auto marked = [&](auto form, StageTimes& into, std::vector<float>& whole, bool timed) {
    using F = decltype(form);
    auto sort = [&](auto&& marks_or_none) { sort_form<F, P>(temp.get(), bytes, in.keys.get(), v, n, marks_or_none); };
    restore();
    marks.start();
    sort(marks);
    CHECK_CUDA(cudaDeviceSynchronize());
    if (timed) into.add(marks.stages());
    in.check(in.keys.get(), "cf (events)");
    const float ms = timer.ms(restore, [&] { sort(bankcheck::cf::detail::NoMarks{}); });
    if (timed) whole.push_back(ms);
    in.check(in.keys.get(), "cf (form)");
  };
  for (int r = -1; r < o.reps; ++r) {
    const float t_cub = timer.ms(restore, [&] { cub.run(in.keys.get(), in.vals.get(), 0); });
    in.check(cub.result_keys, "cub-merge");
    const float t_cf = timer.ms(restore, [&] { cf.run(in.keys.get(), in.vals.get(), 0); });
    in.check(cf.result_keys, "cf-merge");
    std::apply([&](auto... f) {
      int i = 0;
      ([&] {
        marked(f, t.forms[i], t.form_ms[i], r >= 0);
        ++i;
      }(), ...);
    }, Forms{});
    // the whole CF sort again, after the forms instead of after CUB's sort
    const float t_cf_after = timer.ms(restore, [&] { cf.run(in.keys.get(), in.vals.get(), 0); });
    in.check(cf.result_keys, "cf-merge after the forms");
    if (r >= 0) t.cub_ms.push_back(t_cub), t.cf_ms.push_back(t_cf), t.cf_after_ms.push_back(t_cf_after);
  }
  const std::int64_t tiles = (static_cast<std::int64_t>(n) + P::kTile - 1) / P::kTile;
  print_profile<Key, kPairs>(what, tiles, t);
  add_profile_summary(what, tiles, t);
}

int run_profile(const TableOptions& o) {
  const std::uint64_t base = o.quick ? 1ull << 22 : 1ull << 24;
  // powers of two, just below and above one, a prime near 2^20, the sizes whose tiles do not fill
  // the GPU (2^20 4-byte keys are 128 tiles of 8192) and CUB's tile x 2^8 (136 tiles of 8192)
  for (std::uint64_t n : {base, base - 1, base + 12345, std::uint64_t{1000003}, std::uint64_t{1} << 20,
                          std::uint64_t{4352} << 8, std::uint64_t{1} << 21, std::uint64_t{1} << 22,
                          std::uint64_t{1} << 23}) {
    profile_size<std::uint32_t, false>(o, n);
    profile_size<std::uint32_t, true>(o, n);
    profile_size<std::uint64_t, false>(o, n);
    profile_size<std::uint64_t, true>(o, n);
  }
  if (!o.quick)
    for (std::uint64_t n : {1ull << 26, (1ull << 26) + 12345}) profile_size<std::uint32_t, false>(o, n);
  std::printf("\n## CF stages summed (median of %d rounds after a warm-up, ms)\n\n"
              "| keys, n | tiles | passes | block sort | partitions | merges |", o.reps);
  for (const char* name : kFormNames) std::printf(" whole sort, %s |", name);
  std::printf(" whole CF sort | whole CUB merge sort |\n|---|---:|---:|---:|---:|---:|");
  for (int i = 0; i < kForms; ++i) std::printf("---:|");
  std::printf("---:|---:|\n");
  for (const auto& line : profile_summary()) std::printf("%s\n", line.c_str());
  if (failures) std::printf("\n%d FAIL(s)\n", failures);
  return failures ? 1 : 0;
}

}  // namespace
