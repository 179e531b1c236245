#include "cli/report_input.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "capture/host/summary/summary_results.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {

namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": not JSON: " + e.what());
  }
}

/// The capture's lookups: a site's kernel (demangled, from launches.csv), SASS and line (sass.csv).
struct CaptureLookups {
  std::map<std::string, std::string> demangled;  ///< mangled -> demangled
  std::optional<capture::SassTable> sass;
  html::SiteInfo info() const {
    html::SiteInfo i;
    i.kernel_of = [this](const std::string& site) {
      const auto ref = capture::parse_site_name(site);
      const auto it = ref ? demangled.find(ref->function) : demangled.end();
      return it == demangled.end() ? (ref ? ref->function : std::string()) : it->second;
    };
    if (!sass) return i;
    i.sass_of = [this](const std::string& site) {
      const std::string* text = sass->find(site);
      return text ? *text : std::string();
    };
    i.source_of = [this](const std::string& site) {
      const report::SourceLine* line = sass->source(site);
      return line ? *line : report::SourceLine{};
    };
    return i;
  }
};

/// --summary: one instruction per (kernel, site), its worst record the worst over the launches.
void add_summary(html::ReportInput& input, const fs::path& dir, const html::SiteInfo& info, const BankModel& model) {
  for (const capture::InstructionSummary& row : capture::read_summary_table((dir / "summary.csv").string())) {
    const std::string kernel = info.kernel_of(row.site);
    html::ReportInstruction* r = nullptr;
    for (auto& i : input.instructions)
      if (i.kernel == kernel && i.site == row.site) r = &i;
    if (r == nullptr) {
      input.instructions.push_back({});
      r = &input.instructions.back();
      r->kernel = kernel, r->site = row.site, r->op = std::string(op_name(row.op)), r->width = row.width;
      if (info.sass_of) r->sass = info.sass_of(row.site);
      if (info.source_of) r->source = info.source_of(row.site);
    }
    const capture::CostColumn& c = row.costs;
    r->totals += CostTotals{row.executions - c.unmodelled, row.lanes - c.unmodelled_lanes, c.wavefronts, c.ideal,
                            c.degree};
    r->unmodelled += c.unmodelled;
    if (row.worst && (!r->worst.present || row.worst->excess > r->worst.cost.conflicts())) {
      r->worst = capture::worst_instruction(row);
      r->worst.cost = model.cost(r->worst.request());  // as capture's summary results cost it (summary_results.cpp)
    }
  }
}

}  // namespace

html::ReportInput capture_report_input(const std::string& dir_name, const BankModel& model) {
  const fs::path dir(dir_name);
  html::ReportInput input;
  input.title = "capture " + dir_name;
  CaptureLookups lookups;
  const auto launches = capture::read_launch_table((dir / "launches.csv").string());
  for (const capture::LaunchRow& row : launches) lookups.demangled[row.kernel] = row.demangled;
  if (fs::exists(dir / "sass.csv")) lookups.sass = capture::SassTable::read((dir / "sass.csv").string());
  else input.notes.push_back("no sass.csv in the capture: no SASS and no source lines");
  const html::SiteInfo info = lookups.info();
  const bool summary = fs::exists(dir / "summary.csv");
  for (const capture::LaunchRow& row : launches) {
    if (row.status == capture::kStatusSkipped) continue;
    ++input.launches[row.demangled];
    auto& notes = input.kernel_notes[row.demangled];
    if (!row.untraced.empty()) notes.push_back("launch " + std::to_string(row.id) + " not traced: " + row.untraced);
    if (!row.complete()) notes.push_back("launch " + std::to_string(row.id) + " " + row.status);
    if (summary || row.trace.empty()) continue;
    auto source = open_trace((dir / row.trace).string());
    html::add_trace(input.instructions, *source, model, row.demangled, info);
  }
  if (summary) {
    add_summary(input, dir, info, model);
    input.notes.push_back("a --summary capture: costs per instruction over its launches, the worst record of each");
  }
  return input;
}

html::ReportInput file_report_input(const std::string& path, const BankModel& model) {
  html::ReportInput input;
  if (fs::path(path).extension() == ".json") {
    const nlohmann::json doc = read_json(path);
    input.title = "results " + path + " (" + doc.value("command", std::string("?")) + ")";
    input.instructions = html::instructions_of_results(doc, path);
    input.notes.push_back("a results document holds no lanes: no bank grids (report the trace or capture for them)");
    return input;
  }
  input.title = "trace " + path;
  auto source = open_trace(path);
  html::add_trace(input.instructions, *source, model, path, {});
  return input;
}

void join_compare(html::ReportInput& input, const std::string& compare_json) {
  const nlohmann::json doc = read_json(compare_json);
  if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array())
    throw std::invalid_argument(compare_json + ": not `bankcheck compare --json` output (no rows)");
  std::map<std::pair<std::string, std::uint64_t>, html::ReportInstruction*> by_offset;
  for (auto& i : input.instructions)
    if (const auto ref = capture::parse_site_name(i.site)) by_offset[{i.kernel, ref->offset}] = &i;
  std::size_t unmatched = 0;
  for (const auto& row : doc["rows"]) {
    const auto it = by_offset.find({row["kernel"].get<std::string>(), row["offset"].get<std::uint64_t>()});
    if (it == by_offset.end()) {
      ++unmatched;
      continue;
    }
    html::ReportInstruction& i = *it->second;
    const std::string verdict = row["verdict_text"].get<std::string>();
    // Launches of one kernel meet one instruction: a verdict other than yes is the one shown.
    if (i.verdict.empty() || i.verdict.rfind("yes", 0) == 0) i.verdict = verdict;
    i.measured_wavefronts = i.measured_wavefronts.value_or(0) + row.value("measured_wavefronts", std::uint64_t{0});
  }
  if (unmatched > 0)
    input.notes.push_back(std::to_string(unmatched) + " rows of " + compare_json +
                          " name no captured instruction (not traced by the capture, or another capture)");
}

}  // namespace bankcheck::cli
