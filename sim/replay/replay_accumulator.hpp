#pragma once
// What replay keeps while it reads: per-site totals, the kinds the model did
// not cost, and each site's worst instruction. One accumulator serves the
// sequential replay; the parallel one gives each worker its own and merges
// them (sim/replay/parallel_replay.hpp). Internal to the replay layer.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/replay/replay.hpp"

namespace bankcheck {

class ReplayAccumulator {
 public:
  /// Cost one record; `position()` says where it is in the file, asked only
  /// for a site's new worst instruction (rare), so the hot path pays nothing.
  /// @pre index increases over the records this accumulator sees.
  /// A gld/gst record goes to the global-access model instead of the banks;
  /// its cost is then last_global() and the returned cost is not modelled.
  /// `repeat`: the executions the record stands for (a deduplicated trace's repeat record), each
  /// counted; the first of them is `index`.
  /// @return the cost, for an observer.
  template <class Position>
  RequestCost add(const BankModel& model, std::uint64_t index, std::uint32_t site, const WarpRequest& request,
                  unsigned active, Position&& position, std::uint64_t repeat = 1);
  /// Add another accumulator's records (of other indices). @throws std::overflow_error as CostTotals does.
  void merge(const ReplayAccumulator& other);
  /// The summary, naming sites from `sites`.
  ReplaySummary summary(const SiteTable& sites, const BankModel& model, unsigned warp) const;
  /// The global cost of the last record added, if it was gld/gst.
  const GlobalCost& last_global() const { return last_global_; }

 private:
  void add_global(std::uint32_t site, const WarpRequest& request, unsigned active, std::uint64_t repeat);
  static void add_count(std::uint64_t& total, std::uint64_t value) {
    if (__builtin_add_overflow(total, value, &total)) throw std::overflow_error("replay: unmodelled counts exceed 2^64-1");
  }
  std::vector<GlobalTotals> global_by_site_;
  GlobalCost last_global_;
  static constexpr unsigned kWidths = 17;  // widths 0..16 index the unmodelled kinds directly
  std::vector<CostTotals> by_site_;
  std::vector<std::uint64_t> unmodelled_by_site_;
  std::vector<WorstInstruction> worst_of_site_;  // site names filled in by summary()
  std::array<UnmodelledKind, kOpCount * kWidths> unmodelled_{};
};

/// @throws std::invalid_argument when the trace's warp is not the model's.
void check_warps(const TraceSource& source, const BankModel& model);

template <class Position>
RequestCost ReplayAccumulator::add(const BankModel& model, std::uint64_t index, std::uint32_t site,
                                   const WarpRequest& request, unsigned active, Position&& position,
                                   std::uint64_t repeat) {
  if (is_global(request.op)) [[unlikely]] {
    add_global(site, request, active, repeat);
    return RequestCost{0, 0, 0, false};
  }
  const RequestCost cost = model.cost(request);
  if (!cost.modelled) [[unlikely]] {
    UnmodelledKind& kind = unmodelled_[static_cast<unsigned>(request.op) * kWidths +
                                       std::min(request.width, kWidths - 1)];
    kind.op = request.op;
    kind.width = request.width;
    std::uint64_t lanes;
    if (__builtin_mul_overflow(std::uint64_t{active}, repeat, &lanes)) throw std::overflow_error("replay: lane accesses exceed 2^64-1");
    add_count(kind.instructions, repeat);
    add_count(kind.lane_accesses, lanes);
    if (site >= unmodelled_by_site_.size()) unmodelled_by_site_.resize(std::size_t{site} + 1);
    add_count(unmodelled_by_site_[site], repeat);
    return cost;
  }
  if (site >= by_site_.size()) {
    by_site_.resize(std::size_t{site} + 1);
    worst_of_site_.resize(by_site_.size());
  }
  // The counters differ only where the merged phase conflicts, so a conflict-free cost is both.
  if (cost.conflicts() != 0 && model.kernel_counter_may_differ(request.op, request.width)) [[unlikely]]
    by_site_[site].add_with_kernel_counter(active, cost, model.kernel_counter_cost(request).wavefronts, repeat);
  else
    by_site_[site].add(active, cost, repeat);
  WorstInstruction& w = worst_of_site_[site];
  if (cost.degree >= 2 && cost.degree > w.cost.degree) {  // rare: copy only on a new maximum
    w.present = true;
    w.index = index;
    w.position = position();
    w.op = request.op;
    w.width = request.width;
    w.addr.assign(request.addr.begin(), request.addr.end());
    w.source.assign(request.source.begin(), request.source.end());
    w.cost = cost;
  }
  return cost;
}

}  // namespace bankcheck
