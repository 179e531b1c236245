#include "sim/report/replay_report.hpp"

#include <algorithm>
#include <functional>

#include "sim/replay/parallel_replay.hpp"
#include "sim/replay/replay.hpp"

namespace bankcheck::report {

std::string location_of(const std::string& file, const RecordPosition& position) {
  switch (position.unit) {
    case RecordPosition::Unit::line: return file + ":" + std::to_string(position.value);
    case RecordPosition::Unit::byte: return file + ":byte " + std::to_string(position.value);
    case RecordPosition::Unit::none: break;
  }
  return {};
}

std::string captured_at(const TraceLocation& w) {
  return "launch " + std::to_string(w.launch) + " block " + std::to_string(w.block[0]) + "," +
         std::to_string(w.block[1]) + "," + std::to_string(w.block[2]) + " warp " + std::to_string(w.warp);
}

std::string kind_name(Op op, unsigned width) { return std::string(op_name(op)) + " " + std::to_string(width); }

namespace {

/// The row --per-instruction / --bank-words prints of one costed instruction.
InstructionRow instruction_row(const InstructionCost& i, TraceSource& source, const BankModel& model,
                               const ReplayReportOptions& o) {
  InstructionRow row;
  row.index = i.index;
  row.location = location_of(o.trace_name, source.position());
  if (i.location) row.location += (row.location.empty() ? "" : " ") + captured_at(*i.location);
  row.site = source.sites().name(i.site);
  row.op = std::string(op_name(i.request.op));
  row.width = i.request.width;
  row.active = i.active;
  row.cost = i.cost;
  if (is_global(i.request.op)) row.global = i.global;
  else if (o.bank_words && i.cost.modelled) row.bank_words = model.bank_words(i.request);  // no rule, no banks
  if (o.sass_of) row.sass = o.sass_of(row.site);
  if (o.source_of) row.source = o.source_of(row.site);
  return row;
}

/// The results document of a replay summary, its sites filtered by `selected`.
Results replay_results(const ReplaySummary& summary, const BankModel& model, const ReplayReportOptions& o,
                        const std::function<bool(const std::string&)>& selected) {
  Results r;
  r.command = "replay";
  r.model = summary.model;
  r.model_description = model.describe();
  r.timing = shared_timing(model.name());
  r.warp = summary.warp;
  r.page_elements = summary.warp;
  r.inputs.push_back({{"kind", "trace"}, {"path", o.trace_name}});
  r.selected_sites = o.sites;
  r.fail_on_conflicts = o.fail_on_conflicts;
  r.kernel_counter_known = true;
  r.header = {"trace  " + o.trace_name + " (warp " + std::to_string(summary.warp) + ")",
              "model  " + model.describe()};
  WorstInstruction worst;
  for (const auto& s : summary.sites) {
    if (!selected(s.site)) continue;
    if (s.global.instructions > 0) {
      r.global += s.global;
      r.global_sites.push_back({s.site, s.global});
    }
    if (s.totals.instructions == 0 && s.unmodelled == 0) continue;  // a site of global instructions only
    r.totals += s.totals;
    Unmodelled site_unmodelled;
    if (s.unmodelled > 0) site_unmodelled["(all kinds)"] = {s.unmodelled, 0};
    r.sites.push_back({s.site, s.totals, site_unmodelled, {}, 0, {}, {}});
    if (o.source_of) r.sites.back().source = o.source_of(s.site);
    if (worst.worse(s.worst)) worst = s.worst;
  }
  // Kinds the model has no rule for: counted apart, never as conflict-free
  // (with a --site filter they are the whole trace's, as replay counts them).
  for (const UnmodelledKind& k : summary.unmodelled) {
    UnmodelledCount& c = r.unmodelled[kind_name(k.op, k.width)];
    c.instructions += k.instructions;
    c.lane_accesses += k.lane_accesses;
  }
  if (worst.present) r.worst = worst_row(model, worst, location_of(o.trace_name, worst.position));
  if (r.worst && o.source_of) r.worst->source = o.source_of(r.worst->site);
  return r;
}

}  // namespace

Results replay_report(TraceSource& source, const BankModel& model, const ReplayReportOptions& o,
                      ResultsWriter& writer, Progress& progress) {
  const bool rows = o.per_instruction || o.bank_words;
  auto selected = [&](const std::string& site) {
    return o.sites.empty() || std::find(o.sites.begin(), o.sites.end(), site) != o.sites.end();
  };
  // Whether each site id is selected, decided once per id.
  std::vector<std::int8_t> site_selected;  // -1 undecided, 0 no, 1 yes
  InstructionObserver observer;
  if (rows) {
    observer = [&](const InstructionCost& i) {
      progress.tick();
      if (i.site >= site_selected.size()) site_selected.resize(std::size_t{i.site} + 1, -1);
      if (site_selected[i.site] < 0) site_selected[i.site] = selected(source.sites().name(i.site)) ? 1 : 0;
      if (site_selected[i.site]) writer.instruction(instruction_row(i, source, model, o));
    };
  }
  // Without rows the records are costed on every worker thread; the reader reports progress.
  const ReplaySummary summary =
      rows ? replay(source, model, observer)
           : replay_parallel(source, model, o.threads, [&](std::uint64_t n) { progress.advance_to(n); });
  progress.finish();
  Results r = replay_results(summary, model, o, selected);
  if (o.amend) o.amend(r);
  writer.finish(r);
  return r;
}

}  // namespace bankcheck::report
