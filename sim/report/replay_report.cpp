#include "sim/report/replay_report.hpp"

#include <algorithm>

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
      if (!site_selected[i.site]) return;
      InstructionRow row;
      row.index = i.index;
      row.location = location_of(o.trace_name, source.position());
      row.site = source.sites().name(i.site);
      row.op = std::string(op_name(i.request.op));
      row.width = i.request.width;
      row.active = i.active;
      row.cost = i.cost;
      if (o.bank_words) row.bank_words = model.bank_words(i.request);
      writer.instruction(row);
    };
  } else if (progress.enabled()) {  // no per-instruction call unless it shows something
    observer = [&](const InstructionCost&) { progress.tick(); };
  }
  const ReplaySummary summary = replay(source, model, observer);
  progress.finish();

  Results r;
  r.command = "replay";
  r.model = summary.model;
  r.model_description = model.describe();
  r.warp = summary.warp;
  r.inputs.push_back({{"kind", "trace"}, {"path", o.trace_name}});
  r.selected_sites = o.sites;
  r.fail_on_conflicts = o.fail_on_conflicts;
  r.header = {"trace  " + o.trace_name + " (warp " + std::to_string(summary.warp) + ")",
              "model  " + model.describe()};
  WorstInstruction worst;
  for (const auto& s : summary.sites) {
    if (!selected(s.site)) continue;
    r.totals += s.totals;
    r.sites.push_back({s.site, s.totals, {}});
    if (worst.worse(s.worst)) worst = s.worst;
  }
  if (worst.present) r.worst = worst_row(model, worst, location_of(o.trace_name, worst.position));
  writer.finish(r);
  return r;
}

}  // namespace bankcheck::report
