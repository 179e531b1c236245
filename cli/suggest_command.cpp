// `bankcheck suggest OUT/`: per captured launch and shared-memory buffer,
// the XOR map of the buffer's byte offsets with the fewest wavefronts
// (proofs/capture_suggestion.hpp), each instruction's fit, before and after;
// this file reads the capture's tables, calls the library and prints.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "capture/host/launch/launch_table.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "model/shared_timing.hpp"
#include "proofs/capture_suggestion.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/results.hpp"
#include "sim/report/source_line.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace suggest_capture {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

struct SuggestCaptureOptions {
  std::string input;
  ModelOptions model;
  OutputOptions output;
};

struct LaunchResult {
  capture::LaunchRow row;
  proofs::LaunchSuggestion s;
};

struct Capture {
  std::vector<LaunchResult> launches;
  std::optional<capture::SassTable> sass;
  std::optional<SharedTiming> timing;
  std::vector<std::string> notes;

  std::string source(const std::string& site) const {
    const report::SourceLine* l = sass ? sass->source(site) : nullptr;
    return l ? report::source_text(*l) : std::string(report::kNoLineInfo);
  }
  /// Cycles of an SM's shared-memory pipe saved (the measured cycles a wavefront); 0 without a timing.
  double saved_cycles(std::uint64_t before, std::uint64_t after) const {
    return timing ? (static_cast<double>(before) - static_cast<double>(after)) * timing->cycles_per_wavefront : 0.0;
  }
  /// The same as text, or "" without a measured timing.
  std::string saved(std::uint64_t before, std::uint64_t after) const {
    if (!timing) return "";
    std::ostringstream os;
    os << saved_cycles(before, after);
    return os.str();
  }
};

Capture read_capture(const std::string& dir, const BankModel& model) {
  if (!fs::is_directory(dir) || !fs::exists(fs::path(dir) / "launches.csv"))
    throw std::invalid_argument(dir + ": not a capture folder (no launches.csv; bankcheck capture -o)");
  Capture c;
  if (fs::exists(fs::path(dir) / "sass.csv")) c.sass = capture::SassTable::read((fs::path(dir) / "sass.csv").string());
  else c.notes.push_back("no sass.csv in the capture: no source lines");
  c.timing = shared_timing(model.name());
  if (!c.timing) c.notes.push_back("model " + model.name() + " has no measured timing: no cycles saved");
  for (const capture::LaunchRow& row : capture::read_launch_table((fs::path(dir) / "launches.csv").string())) {
    if (row.trace.empty()) continue;
    if (!row.complete()) c.notes.push_back("launch " + std::to_string(row.id) + " " + row.status + ": partial");
    auto trace = open_trace((fs::path(dir) / row.trace).string());
    c.launches.push_back({row, proofs::suggest_from_trace(*trace, model)});
  }
  if (c.launches.empty())
    throw std::invalid_argument(dir + ": no launch has a trace (a --summary capture keeps no lanes: capture without "
                                      "--summary to suggest layouts)");
  return c;
}

proofs::FitEvidence evidence(const proofs::LaunchSuggestion& s) {
  return s.deduplicated ? proofs::FitEvidence::lanes_per_record : proofs::FitEvidence::every_execution;
}

std::string fixed_cpp(const proofs::BufferSuggestion& b) {
  return b.map.is_identity() ? std::string("b") : b.map.cpp("b");
}

void print_buffer(const Capture& c, const proofs::BufferSuggestion& b, std::ostream& os) {
  os << "  buffer at " << b.base << ", " << b.bytes << " bytes: ";
  if (!b.suggested) os << b.why_not << "\n";
  else {
    os << b.verdict << "\n    wavefronts " << b.before << " -> " << b.after << " (ideal " << b.ideal << ")";
    if (c.timing) os << ", " << c.saved(b.before, b.after) << " cycles of the SM's shared-memory pipe saved";
    os << "\n    map on the byte offset b from the buffer's start: " << fixed_cpp(b) << "\n    CuTe: "
       << proofs::cute_form(b.map) << "\n    searched: " << b.candidates << " maps and " << b.evaluations
       << " descent steps; " << b.notes << "\n";
  }
  os << "    " << std::left << std::setw(34) << "instruction" << std::setw(8) << "op" << std::right << std::setw(11)
     << "executions" << std::setw(9) << "before" << std::setw(9) << "after" << std::setw(9) << "ideal" << "  source\n";
  for (const auto& i : b.instructions) {
    // a site as long as its column still gets one space before the op
    os << "    " << std::left << std::setw(34) << (i.site.size() >= 34 ? i.site + " " : i.site) << std::setw(8)
       << (std::string(op_name(i.op)) + "." + std::to_string(i.width)) << std::right << std::setw(11) << i.executions;
    if (i.modelled) os << std::setw(9) << i.before << std::setw(9) << i.after << std::setw(9) << i.ideal;
    else os << std::setw(27) << "not modelled";
    os << "  " << c.source(i.site) << "\n      fit: " << i.fit << "\n";
  }
}

void print_text(const Capture& c, const std::string& dir, std::ostream& os) {
  os << "suggest " << dir << ": " << c.launches.size() << " traced launch" << (c.launches.size() == 1 ? "" : "es") << "\n";
  for (const LaunchResult& l : c.launches) {
    os << "\nlaunch " << l.row.id << " " << l.row.demangled << ": " << l.s.records << " shared-memory records";
    if (l.s.deduplicated) os << " (" << l.s.distinct << " distinct: a deduplicated trace)";
    os << ", " << l.s.buffers.size() << " buffer" << (l.s.buffers.size() == 1 ? "" : "s") << "\n  fits on the "
       << proofs::evidence_name(evidence(l.s)) << "\n";
    for (const auto& b : l.s.buffers) print_buffer(c, b, os);
  }
  for (const std::string& n : c.notes) os << "note: " << n << "\n";
}

Json instruction_json(const Capture& c, const proofs::SuggestedInstruction& i) {
  const report::SourceLine* line = c.sass ? c.sass->source(i.site) : nullptr;
  const std::string* sass = c.sass ? c.sass->find(i.site) : nullptr;
  const auto num = [&](std::uint64_t v) { return i.modelled ? Json(v) : Json(nullptr); };
  return Json{{"site", i.site}, {"sass", sass ? Json(*sass) : Json(nullptr)},
              {"source", report::source_json(line ? *line : report::SourceLine{})},
              {"op", op_name(i.op)}, {"width", i.width}, {"executions", i.executions}, {"range", {i.lo, i.hi}},
              {"fits", i.fits}, {"fit", i.fit}, {"evidence", proofs::evidence_name(i.evidence)}, {"modelled", i.modelled}, {"before", num(i.before)},
              {"after", num(i.after)}, {"ideal", num(i.ideal)},
              {"saved_cycles", i.modelled && c.timing ? Json(c.saved_cycles(i.before, i.after)) : Json(nullptr)}};
}

Json buffer_json(const Capture& c, const proofs::BufferSuggestion& b) {
  Json j{{"base", b.base}, {"bytes", b.bytes}, {"suggested", b.suggested},
         {"why_not", b.suggested ? Json(nullptr) : Json(b.why_not)}};
  j["verdict"] = b.suggested ? Json(b.verdict) : Json(nullptr);
  j["map"] = b.suggested ? Json{{"cpp", fixed_cpp(b)}, {"terms", b.map.text()}, {"cute", proofs::cute_form(b.map)}}
                         : Json(nullptr);
  for (const char* k : {"before", "after", "ideal"}) j[k] = nullptr;
  if (b.suggested) j["before"] = b.before, j["after"] = b.after, j["ideal"] = b.ideal;
  j["saved_cycles"] = b.suggested && c.timing ? Json(c.saved_cycles(b.before, b.after)) : Json(nullptr);
  j["searched"] = {{"maps", b.candidates}, {"descent_steps", b.evaluations}, {"notes", b.notes}};
  j["instructions"] = Json::array();
  for (const auto& i : b.instructions) j["instructions"].push_back(instruction_json(c, i));
  return j;
}

Json to_json(const Capture& c, const std::string& dir, const BankModel& model) {
  Json j{{"schema_version", report::kSchemaVersion}, {"command", "suggest"}, {"model", model.name()},
         {"inputs", Json::array({Json{{"kind", "capture"}, {"path", dir}}})}};
  j["timing"] = c.timing ? Json{{"cycles_per_wavefront", c.timing->cycles_per_wavefront}, {"source", c.timing->source}}
                         : Json(nullptr);
  j["launches"] = Json::array();
  for (const LaunchResult& l : c.launches) {
    Json lj{{"launch", l.row.id}, {"kernel", l.row.demangled}, {"records", l.s.records},
            {"distinct_records", l.s.distinct}, {"deduplicated", l.s.deduplicated},
            {"fit_evidence", proofs::evidence_name(evidence(l.s))}, {"buffers", Json::array()}};
    for (const auto& b : l.s.buffers) lj["buffers"].push_back(buffer_json(c, b));
    j["launches"].push_back(lj);
  }
  j["notes"] = c.notes;
  return j;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (const char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

void print_csv(const Capture& c, std::ostream& os) {
  os << "launch,kernel,buffer_base,buffer_bytes,site,op,width,executions,fits,before,after,ideal,saved_cycles,map,"
        "verdict,source,evidence\n";
  for (const LaunchResult& l : c.launches)
    for (const auto& b : l.s.buffers)
      for (const auto& i : b.instructions) {
        os << l.row.id << "," << quoted(l.row.demangled) << "," << b.base << "," << b.bytes << "," << i.site << ","
           << op_name(i.op) << "," << i.width << "," << i.executions << "," << (i.fits ? "true" : "false") << ",";
        if (i.modelled) os << i.before << "," << i.after << "," << i.ideal << "," << c.saved(i.before, i.after);
        else os << ",,,";
        os << "," << quoted(b.suggested ? fixed_cpp(b) : "") << "," << quoted(b.suggested ? b.verdict : b.why_not)
           << "," << quoted(c.source(i.site)) << "," << quoted(proofs::evidence_name(i.evidence)) << "\n";
      }
}

void run_suggest(const SuggestCaptureOptions& o) {
  o.model.check();
  const BankModel model = o.model.make(32);
  const Capture c = read_capture(o.input, model);
  report::ResultOutput out(o.output.file, {o.input});
  const report::Format f = o.output.format();
  if (f == report::Format::json) out.stream() << std::setw(2) << to_json(c, o.input, model) << "\n";
  else if (f == report::Format::csv) print_csv(c, out.stream());
  else print_text(c, o.input, out.stream());
  out.commit();
}

}  // namespace suggest_capture

void add_suggest_command(CLI::App& app) {
  using namespace suggest_capture;
  auto o = std::make_shared<SuggestCaptureOptions>();
  auto* cmd = app.add_subcommand("suggest", "From a capture folder: per launch and shared-memory buffer, fit each "
                                            "instruction's addresses as a GF(2)-affine map and search the XOR map "
                                            "of the buffer's bytes with the fewest wavefronts (docs/capture.md)");
  cmd->add_option("input", o->input, "a capture folder with traces (bankcheck capture -o OUT, without --summary)")
      ->required()
      ->check(CLI::ExistingDirectory);
  o->model.add_to(*cmd);
  o->output.add_to(*cmd);
  cmd->footer("Exit status: 0 done (also when no buffer gets a suggestion); 2 bad usage or input.");
  cmd->callback([o] { run_suggest(*o); });
}

}  // namespace bankcheck::cli
