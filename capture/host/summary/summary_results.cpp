#include "capture/host/summary/summary_results.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/report/replay_report.hpp"

namespace bankcheck::capture {

WorstInstruction worst_instruction(const InstructionSummary& row) {
  WorstInstruction w;
  w.present = true;
  w.site = row.site;
  w.op = row.op;
  w.width = row.width;
  w.addr.assign(32, kInactive);
  const bool copy = row.worst->source.has_value();
  if (copy) w.source.assign(32, kInactive);
  for (unsigned l = 0; l < 32; ++l) {
    if (((row.worst->mask >> l) & 1u) == 0) continue;
    w.addr[l] = row.worst->addr[l];
    if (copy) w.source[l] = (*row.worst->source)[l];
  }
  return w;
}

namespace {

/// One summary row into its site's totals, and its unmodelled executions into the site's and the run's counts.
void add_row(report::SiteRow& site, const InstructionSummary& row,
             report::Unmodelled& run_unmodelled) {
  site.site = row.site;
  site.op = std::string(op_name(row.op));
  site.width = row.width;
  const CostColumn& c = row.costs;
  site.totals += CostTotals{row.executions - c.unmodelled, row.lanes - c.unmodelled_lanes, c.wavefronts, c.ideal,
                            c.degree};
  if (c.unmodelled == 0) return;
  for (report::UnmodelledCount* u : {&site.unmodelled[report::kind_name(row.op, row.width)],
                                     &run_unmodelled[report::kind_name(row.op, row.width)]}) {
    u->instructions += c.unmodelled;
    u->lane_accesses += c.unmodelled_lanes;
  }
}

}  // namespace

report::Results summary_results(const std::vector<InstructionSummary>& rows, const BankModel& model,
                                const std::function<std::string(const std::string&)>& sass_of,
                                const std::string& capture_dir,
                                const std::function<report::SourceLine(const std::string&)>& source_of) {
  report::Results r;
  r.command = "capture";
  r.model = model.name();
  r.model_description = model.describe();
  r.timing = shared_timing(model.name());
  r.warp = model.geometry().warp;
  r.inputs.push_back({{"kind", "capture-summary"}, {"path", capture_dir}});

  std::map<std::tuple<std::string, Op, unsigned>, report::SiteRow> sites;
  std::map<std::uint64_t, bool> launches;
  const InstructionSummary* worst = nullptr;
  std::uint64_t disagreements = 0;
  for (const InstructionSummary& row : rows) {
    launches[row.launch] = true;
    add_row(sites[{row.site, row.op, row.width}], row, r.unmodelled);
    if (!row.worst) continue;
    const WorstInstruction kept = worst_instruction(row);
    const RequestCost cpu = model.cost(kept.request());
    if (cpu.wavefronts != row.worst->wavefronts || cpu.conflicts() != row.worst->excess) ++disagreements;
    if (row.worst->excess > 0 && (worst == nullptr || row.worst->excess > worst->worst->excess)) worst = &row;
  }
  for (auto& [key, site] : sites) {
    site.sass = sass_of ? sass_of(site.site) : "";
    if (source_of) site.source = source_of(site.site);
    r.totals += site.totals;
    r.sites.push_back(std::move(site));
  }
  std::stable_sort(r.sites.begin(), r.sites.end(), [](const report::SiteRow& a, const report::SiteRow& b) {
    return a.totals.conflicts() > b.totals.conflicts();
  });
  r.header = {"capture  " + capture_dir + " (summary of " + std::to_string(launches.size()) +
                  " launches, costed on the GPU per instruction)",
              "model  " + model.describe()};
  if (disagreements > 0)
    r.notes.push_back(std::to_string(disagreements) +
                      " worst records cost differently on the CPU than on the GPU: the summary cannot be trusted");
  if (worst != nullptr) {
    WorstInstruction w = worst_instruction(*worst);
    w.cost = model.cost(w.request());
    const auto& b = worst->worst->block;
    r.worst = report::worst_row(model, w,
                                "launch " + std::to_string(worst->launch) + " block " + std::to_string(b[0]) + "," +
                                    std::to_string(b[1]) + "," + std::to_string(b[2]) + " warp " +
                                    std::to_string(worst->worst->warp));
  }
  if (r.worst && source_of) r.worst->source = source_of(r.worst->site);
  r.extra["mode"] = "summary";
  r.extra["launches_summarized"] = launches.size();
  r.extra["worst_record_disagreements"] = disagreements;
  return r;
}

}  // namespace bankcheck::capture
