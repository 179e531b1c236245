#include "sim/replay/replay.hpp"

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

ReplaySummary replay(TraceSource& source, const BankModel& model, const InstructionObserver& observer) {
  const unsigned warp = source.warp();
  if (warp != model.geometry().warp)
    throw std::invalid_argument("the trace has warp " + std::to_string(warp) + " but the model '" + model.name() +
                                "' has warp " + std::to_string(model.geometry().warp));
  ReplaySummary summary;
  summary.model = model.name();
  summary.warp = warp;
  // Per-site totals indexed by site id (sources number sites densely); the
  // grand total is their checked sum at the end, so each instruction is
  // added once.
  std::vector<CostTotals> by_site;
  std::vector<std::uint64_t> unmodelled_by_site;
  // Unmodelled counts per (op, width): widths 0..16 index directly.
  constexpr unsigned kWidths = 17;
  std::array<UnmodelledKind, kOpCount * kWidths> unmodelled{};
  std::vector<WorstInstruction> worst_of_site;
  TraceRecord record;
  std::uint64_t index = 0;
  while (source.next(record)) {
    const RequestCost cost = model.cost(record.request);
    const unsigned active = active_lanes(record.request);
    if (!cost.modelled) [[unlikely]] {
      UnmodelledKind& kind = unmodelled[static_cast<unsigned>(record.request.op) * kWidths +
                                        std::min(record.request.width, kWidths - 1)];
      kind.op = record.request.op;
      kind.width = record.request.width;
      ++kind.instructions;
      kind.lane_accesses += active;
      if (record.site >= unmodelled_by_site.size()) unmodelled_by_site.resize(std::size_t{record.site} + 1);
      ++unmodelled_by_site[record.site];
      if (observer) observer(InstructionCost{index, record.site, record.request, active, cost, record.location});
      ++index;
      continue;
    }
    if (record.site >= by_site.size()) {
      by_site.resize(std::size_t{record.site} + 1);
      worst_of_site.resize(by_site.size());
    }
    by_site[record.site].add(active, cost);
    WorstInstruction& w = worst_of_site[record.site];
    if (cost.degree >= 2 && cost.degree > w.cost.degree) {  // rare: copy only on a new maximum
      w.present = true;
      w.index = index;
      w.position = source.position();
      w.site = source.sites().name(record.site);
      w.op = record.request.op;
      w.width = record.request.width;
      w.addr.assign(record.request.addr.begin(), record.request.addr.end());
      w.cost = cost;
    }
    if (observer) observer(InstructionCost{index, record.site, record.request, active, cost, record.location});
    ++index;
  }
  const SiteTable& sites = source.sites();
  by_site.resize(std::max(by_site.size(), unmodelled_by_site.size()));
  unmodelled_by_site.resize(by_site.size());
  worst_of_site.resize(by_site.size());
  for (std::uint32_t id = 0; id < by_site.size(); ++id) {
    if (by_site[id].instructions == 0 && unmodelled_by_site[id] == 0) continue;
    summary.totals += by_site[id];
    if (summary.worst.worse(worst_of_site[id])) summary.worst = worst_of_site[id];
    summary.sites.push_back({sites.name(id), by_site[id], std::move(worst_of_site[id]), unmodelled_by_site[id]});
  }
  for (const UnmodelledKind& kind : unmodelled)
    if (kind.instructions > 0) summary.unmodelled.push_back(kind);
  return summary;
}

std::uint64_t ReplaySummary::unmodelled_instructions() const {
  std::uint64_t n = 0;
  for (const UnmodelledKind& kind : unmodelled) n += kind.instructions;
  return n;
}

}  // namespace bankcheck
