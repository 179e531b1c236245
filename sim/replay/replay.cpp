#include "sim/replay/replay.hpp"

#include "sim/replay/replay_accumulator.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace bankcheck {

// The AVX2 clone compares four lanes at a time (SSE2 has no 64-bit compare).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
unsigned active_lanes(const WarpRequest& request) {
  const std::uint64_t* a = request.addr.data();
  const std::size_t size = request.addr.size();
  std::uint64_t n = 0;
  for (std::size_t l = 0; l < size; ++l) n += a[l] != kInactive;
  return static_cast<unsigned>(n);
}

void ReplayAccumulator::add_global(std::uint32_t site, const WarpRequest& request, unsigned active, std::uint64_t repeat) {
  last_global_ = global_cost(replay_global_geometry(static_cast<unsigned>(request.addr.size())), request);
  if (site >= global_by_site_.size()) global_by_site_.resize(std::size_t{site} + 1);
  global_by_site_[site].add(request.op == Op::gld, active, last_global_, repeat);
}

void ReplayAccumulator::merge(const ReplayAccumulator& other) {
  global_by_site_.resize(std::max(global_by_site_.size(), other.global_by_site_.size()));
  for (std::size_t s = 0; s < other.global_by_site_.size(); ++s) global_by_site_[s] += other.global_by_site_[s];
  const std::size_t n = std::max(by_site_.size(), other.by_site_.size());
  by_site_.resize(n);
  worst_of_site_.resize(n);
  for (std::size_t s = 0; s < other.by_site_.size(); ++s) {
    by_site_[s] += other.by_site_[s];
    if (worst_of_site_[s].worse(other.worst_of_site_[s])) worst_of_site_[s] = other.worst_of_site_[s];
  }
  unmodelled_by_site_.resize(std::max(unmodelled_by_site_.size(), other.unmodelled_by_site_.size()));
  for (std::size_t s = 0; s < other.unmodelled_by_site_.size(); ++s) unmodelled_by_site_[s] += other.unmodelled_by_site_[s];
  for (std::size_t k = 0; k < unmodelled_.size(); ++k)
    if (other.unmodelled_[k].instructions > 0) {
      unmodelled_[k].op = other.unmodelled_[k].op;
      unmodelled_[k].width = other.unmodelled_[k].width;
      unmodelled_[k].instructions += other.unmodelled_[k].instructions;
      unmodelled_[k].lane_accesses += other.unmodelled_[k].lane_accesses;
    }
}

ReplaySummary ReplayAccumulator::summary(const SiteTable& sites, const BankModel& model, unsigned warp) const {
  ReplaySummary summary;
  summary.model = model.name();
  summary.warp = warp;
  const std::size_t n = std::max({by_site_.size(), unmodelled_by_site_.size(), global_by_site_.size()});
  for (std::uint32_t id = 0; id < n; ++id) {
    const CostTotals totals = id < by_site_.size() ? by_site_[id] : CostTotals{};
    const std::uint64_t unmodelled = id < unmodelled_by_site_.size() ? unmodelled_by_site_[id] : 0;
    const GlobalTotals global = id < global_by_site_.size() ? global_by_site_[id] : GlobalTotals{};
    if (totals.instructions == 0 && unmodelled == 0 && global.instructions == 0) continue;
    // The grand total is the checked sum of the sites', so each instruction is added once.
    summary.totals += totals;
    summary.global += global;
    WorstInstruction worst = id < worst_of_site_.size() ? worst_of_site_[id] : WorstInstruction{};
    if (worst.present) worst.site = sites.name(id);
    if (summary.worst.worse(worst)) summary.worst = worst;
    summary.sites.push_back({sites.name(id), totals, std::move(worst), unmodelled, global});
  }
  for (const UnmodelledKind& kind : unmodelled_)
    if (kind.instructions > 0) summary.unmodelled.push_back(kind);
  return summary;
}

void check_warps(const TraceSource& source, const BankModel& model) {
  if (source.warp() != model.geometry().warp)
    throw std::invalid_argument("the trace has warp " + std::to_string(source.warp()) + " but the model '" +
                                model.name() + "' has warp " + std::to_string(model.geometry().warp));
}

ReplaySummary replay(TraceSource& source, const BankModel& model, const InstructionObserver& observer) {
  check_warps(source, model);
  // Without an observer a repeated record is costed once and counted its times; an observer sees
  // every execution (each a record to it), as in the trace before deduplication.
  if (!observer) source.keep_repeats();
  ReplayAccumulator acc;
  TraceRecord record;
  std::uint64_t index = 0;  // of the record's first execution
  while (source.next(record)) {
    const unsigned active = active_lanes(record.request);
    const RequestCost cost = acc.add(model, index, record.site, record.request, active,
                                     [&source] { return source.position(); }, record.repeat);
    if (observer)
      observer(InstructionCost{index, record.site, record.request, active, cost,
                               is_global(record.request.op) ? acc.last_global() : GlobalCost{}, record.location});
    if (__builtin_add_overflow(index, record.repeat, &index)) throw std::overflow_error("replay: more than 2^64-1 executions");
  }
  return acc.summary(source.sites(), model, source.warp());
}

std::uint64_t ReplaySummary::unmodelled_instructions() const {
  std::uint64_t n = 0;
  for (const UnmodelledKind& kind : unmodelled) n += kind.instructions;
  return n;
}

}  // namespace bankcheck
