#pragma once
// cf_sort_table --profile: where the CF sort's time goes, kernel by kernel, at
// a power of two and just above it (2^24 and 2^24 + 12,345; the issue measured
// 1.00 against 1.22 ms there for u32 keys, CUB unmoved). A CUDA event follows
// every launch of the dispatch (its `marks`, kernels/cf_merge_sort.cuh); the
// time between two events is one launch's kernel plus its launch gap. Two
// forms of the sort: as shipped (a pass leaves a trailing lone run where it
// lies, sim/algorithms/merge/cf_merge_passes.hpp) and with every run copied
// in every pass, as CUB does. Beside them, in the same rounds: the whole CF
// sort without events, and CUB's merge sort. Random keys (a permutation of
// 0..n-1); every output is checked.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"
#include "kernels/cf_sort_bench_time.cuh"
#include "validate/cf_merge/sort_table_report.cuh"

namespace {

/// The dispatch's marks: an event recorded on the default stream after each launch.
class EventMarks {
 public:
  EventMarks() : events_(512) {
    for (auto& e : events_) CHECK_CUDA(cudaEventCreate(&e));
  }
  ~EventMarks() {
    for (auto& e : events_) cudaEventDestroy(e);
  }
  EventMarks(const EventMarks&) = delete;
  EventMarks& operator=(const EventMarks&) = delete;
  /// Before a sort: the start event.
  void start() {
    labels_.clear();
    CHECK_CUDA(cudaEventRecord(events_[0], 0));
  }
  void operator()(const char* stage, int pass) {
    if (labels_.size() + 1 >= events_.size()) {
      std::fprintf(stderr, "EventMarks: more than %zu launches\n", events_.size() - 1);
      std::exit(1);
    }
    labels_.push_back(pass < 0 ? std::string(stage) : std::string(stage) + ", pass " + std::to_string(pass));
    CHECK_CUDA(cudaEventRecord(events_[labels_.size()], 0));
  }
  /// After a sort (synchronized): each stage's ms, in launch order.
  std::vector<std::pair<std::string, float>> stages() const {
    std::vector<std::pair<std::string, float>> out;
    for (std::size_t i = 0; i < labels_.size(); ++i) {
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
      out.push_back({labels_[i], ms});
    }
    return out;
  }

 private:
  std::vector<cudaEvent_t> events_;
  std::vector<std::string> labels_;
};

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
  int count(const std::string& prefix) const {
    int c = 0;
    for (const auto& label : order) c += label.rfind(prefix, 0) == 0;
    return c;
  }
};

template <class Key, bool kPairs>
void profile_size(const TableOptions& o, std::uint64_t n) {
  using Value = ValueOf<Key>;
  using P = CfDefault<Key, kPairs>;
  using V = std::conditional_t<kPairs, Value, bankcheck::CfNoValue>;
  const std::string what = keys_label(sizeof(Key), kPairs) + ", n = " + size_label(n);
  std::fprintf(stderr, "# profile: %s\n", what.c_str());
  Buffer<Key> src(n), keys(n);
  Buffer<Value> vals(kPairs ? n : 0), src_vals(kPairs ? n : 0);
  Buffer<unsigned long long> wrong(1);
  fill_permutation<<<4096, 256>>>(src.get(), n, Feistel(n, 0x5eed0000ull + n));
  if (kPairs) fill_iota<<<1024, 256>>>(src_vals.get(), n);
  CHECK_CUDA(cudaDeviceSynchronize());
  V* v = nullptr;
  if constexpr (kPairs) v = vals.get();
  std::size_t bytes = 0;
  CHECK_CUDA((bankcheck::cf::detail::dispatch<P, Key, V>(nullptr, bytes, keys.get(), v, static_cast<std::int64_t>(n),
                                                          Less{}, 0)));
  Buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  Sorter<Key, kPairs> cub(Algo::cub_merge, static_cast<std::int64_t>(n), keys.get(), vals.get());
  Sorter<Key, kPairs> cf(Algo::cf_merge, static_cast<std::int64_t>(n), keys.get(), vals.get());
  Timer timer;
  EventMarks marks;
  StageTimes shipped, copied;
  std::vector<float> cub_ms, cf_ms;
  auto restore = [&] {
    CHECK_CUDA(cudaMemcpyAsync(keys.get(), src.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (kPairs) CHECK_CUDA(cudaMemcpyAsync(vals.get(), src_vals.get(), n * sizeof(Value), cudaMemcpyDeviceToDevice));
  };
  auto check = [&](const Key* out, const char* what) {
    CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
    count_wrong<<<1024, 256>>>(out, kPairs ? vals.get() : static_cast<Value*>(nullptr), src.get(), n, wrong.get(),
                               static_cast<const Key*>(nullptr), nullptr);
    if (wrong.download(1)[0] != 0) {
      ++failures;
      std::printf("FAIL %s %s n=%llu: output not sorted\n", what, keys_label(sizeof(Key), kPairs).c_str(),
                  static_cast<unsigned long long>(n));
    }
  };
  auto marked = [&](auto leave_lone_runs, StageTimes& into, bool timed) {
    restore();
    marks.start();
    CHECK_CUDA((bankcheck::cf::detail::dispatch<P, Key, V, decltype(leave_lone_runs)::value>(
        temp.get(), bytes, keys.get(), v, static_cast<std::int64_t>(n), Less{}, 0, marks)));
    CHECK_CUDA(cudaDeviceSynchronize());
    if (timed) into.add(marks.stages());
    check(keys.get(), "cf (events)");
  };
  for (int r = -1; r < o.reps; ++r) {
    const float t_cub = timer.ms(restore, [&] { cub.run(keys.get(), vals.get(), 0); });
    check(cub.result_keys, "cub-merge");
    const float t_cf = timer.ms(restore, [&] { cf.run(keys.get(), vals.get(), 0); });
    check(cf.result_keys, "cf-merge");
    marked(std::true_type{}, shipped, r >= 0);
    marked(std::false_type{}, copied, r >= 0);
    if (r >= 0) cub_ms.push_back(t_cub), cf_ms.push_back(t_cf);
  }
  const std::int64_t tiles = (static_cast<std::int64_t>(n) + P::kTile - 1) / P::kTile;
  std::printf("\n### %s: %lld tiles of %d, %d passes\n\n| stage | CF (ms) | CF, lone runs copied as CUB (ms) |\n"
              "|---|---:|---:|\n", what.c_str(), static_cast<long long>(tiles), P::kTile,
              bankcheck::cf_merge_pass_count(tiles));
  for (const auto& label : copied.order) {
    const double a = shipped.median(label);  // absent: the shipped sort has no such launch
    char cell[32] = "";
    if (a >= 0) std::snprintf(cell, sizeof cell, "%.4f", a);
    std::printf("| %s | %s | %.4f |\n", label.c_str(), cell, copied.median(label));
  }
  std::printf("| **sum of the stages** | %.4f | %.4f |\n", shipped.sum(""), copied.sum(""));
  std::printf("| whole CF sort, no events | %.4f | |\n| whole CUB merge sort | %.4f | |\n", Timer::median(cf_ms),
              Timer::median(cub_ms));
  // One summary line per size for the cross-size table printed last.
  char line[512];
  std::snprintf(line, sizeof line,
                "| %s | %lld | %d | %.4f | %.4f | %.4f | %.4f | %.4f (%d) | %.4f | %.4f | %.4f | %.4f |", what.c_str(),
                static_cast<long long>(tiles), bankcheck::cf_merge_pass_count(tiles), shipped.median("block sort"),
                shipped.sum("block sort, partial"), shipped.sum("partition"), shipped.sum("merge, pass"),
                shipped.sum("merge, partial"), shipped.count("merge, partial"), shipped.sum(""), copied.sum(""),
                Timer::median(cf_ms), Timer::median(cub_ms));
  profile_summary().push_back(line);
}

int run_profile(const TableOptions& o) {
  const std::uint64_t base = o.quick ? 1ull << 22 : 1ull << 24;
  for (std::uint64_t n : {base, base + 12345}) {
    profile_size<std::uint32_t, false>(o, n);
    profile_size<std::uint32_t, true>(o, n);
    profile_size<std::uint64_t, false>(o, n);
    profile_size<std::uint64_t, true>(o, n);
  }
  if (!o.quick)
    for (std::uint64_t n : {1ull << 26, (1ull << 26) + 12345}) profile_size<std::uint32_t, false>(o, n);
  std::printf("\n## CF stages summed (median of %d rounds after a warm-up, ms)\n\n"
              "| keys, n | tiles | passes | block sort | block sort, partial tile | partitions | merges "
              "| merges, partial tile (launches) | all stages | all stages, lone runs copied | whole CF sort "
              "| whole CUB merge sort |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", o.reps);
  for (const auto& line : profile_summary()) std::printf("%s\n", line.c_str());
  if (failures) std::printf("\n%d FAIL(s)\n", failures);
  return failures ? 1 : 0;
}

}  // namespace
