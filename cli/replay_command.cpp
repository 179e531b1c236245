// `bankcheck replay`: stream a trace (text, binary or '-') through a bank
// model and report totals, sites and optionally every instruction
// (sim/report/replay_report.hpp does the work; this file parses and prints).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "capture/host/sass/sass_table.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "sim/parallel/cluster.hpp"
#include "sim/report/directory_replay.hpp"
#include "sim/report/replay_report.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/source_line.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct ReplayOptions {
  std::string file;
  ModelOptions model;
  std::optional<unsigned> warp;
  bool per_instruction = false;
  bool per_bank = false;
  std::string sass;  ///< sass.csv of a capture; default: the one beside the trace, if any
  unsigned threads = 1;
  OutputOptions output;
  GateOptions gate;
};

/// The --site list with each FILE:LINE replaced by the captured sites whose line info names it.
/// @throws std::invalid_argument for a FILE:LINE that names no instruction of the table.
std::vector<std::string> sites_by_line(const std::vector<std::string>& sites, const capture::SassTable& sass,
                                       const std::string& sass_path) {
  std::vector<std::string> out;
  for (const std::string& site : sites) {
    const auto wanted = report::parse_file_line(site);
    if (!wanted) {
      out.push_back(site);
      continue;
    }
    const auto found = sass.sites_at(*wanted);
    if (found.empty())
      throw std::invalid_argument("--site " + site + ": no instruction of " + sass_path +
                                  " has this source line (nor was inlined at it); sites are FUNCTION+0xOFFSET or "
                                  "FILE:LINE of a capture with line info (nvcc -lineinfo)");
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

/// `replay DIR`: every trace of the folder, split over the ranks of an MPI job.
void run_replay_directory(const ReplayOptions& o) {
  if (o.per_instruction || o.per_bank)
    throw std::invalid_argument("--per-instruction and --per-bank take one trace file, not a folder");
  const auto files = report::trace_files(o.file);
  const Cluster& cluster = Cluster::instance();
  // The model's warp: the first trace's (every file must agree; replay checks each).
  const BankModel model = o.model.make(o.warp ? *o.warp : open_trace(files.front())->warp());
  report::ReplayReportOptions ro{o.file, o.gate.sites, false, false, o.gate.fail_on_conflicts, {}, o.threads, {}, {}};
  const auto results = report::replay_directory(o.file, files, model, ro, cluster);
  if (!results) return;  // not rank 0: rank 0 prints
  report::ResultOutput out(o.output.file, files);
  report::ResultsWriter writer(out.stream(), o.output.format(), false);
  writer.finish(*results);
  out.commit();
  exit_code() = report::exit_code_of(*results);
  if (exit_code() != kOk) std::cerr << "bankcheck replay: " << report::exit_reason(*results) << "\n";
}

void run_replay(const ReplayOptions& o) {
  o.model.check();  // a bad flag is reported before the trace is opened
  if (o.file != "-" && std::filesystem::is_directory(o.file)) return run_replay_directory(o);
  if (Cluster::instance().size() > 1)
    throw std::invalid_argument("under MPI, replay takes a folder of traces (replay DIR), which the ranks share; "
                                "a single trace is replayed on one process with --threads");
  report::ResultOutput out(o.output.file, {o.file});
  auto source = open_trace(o.file);
  const std::string trace_name = o.file == "-" ? "<stdin>" : o.file;
  if (o.warp && *o.warp != source->warp())
    throw std::invalid_argument("--warp " + std::to_string(*o.warp) + " disagrees with the trace " + trace_name +
                                ", which has warp " + std::to_string(source->warp()));
  const BankModel model = o.model.make(source->warp());
  // A captured trace's sites are FUNCTION+0xOFFSET; their SASS and source
  // lines are in the capture's sass.csv (docs/capture.md), found beside the trace.
  std::string sass_path = o.sass;
  if (sass_path.empty() && o.file != "-") {
    const auto beside = std::filesystem::path(o.file).parent_path() / "sass.csv";
    if (std::filesystem::exists(beside)) sass_path = beside.string();
  }
  std::optional<capture::SassTable> sass;
  if (!sass_path.empty()) sass = capture::SassTable::read(sass_path);
  report::ReplayReportOptions ro{trace_name, sass ? sites_by_line(o.gate.sites, *sass, sass_path) : o.gate.sites,
                                 o.per_instruction, o.per_bank, o.gate.fail_on_conflicts, {}, o.threads, {}, {}};
  if (sass) {
    if (o.per_instruction || o.per_bank)
      ro.sass_of = [&sass](const std::string& site) {
        const std::string* text = sass->find(site);
        return text ? *text : std::string();
      };
    ro.source_of = [&sass](const std::string& site) {
      const report::SourceLine* line = sass->source(site);
      return line ? *line : report::SourceLine{};
    };
  }
  report::ResultsWriter writer(out.stream(), o.output.format(), o.per_instruction || o.per_bank);
  report::Progress progress(o.output.progress_stream(), "replay", OutputOptions::progress_delay());
  const report::Results r = report::replay_report(*source, model, ro, writer, progress);
  out.commit();
  exit_code() = report::exit_code_of(r);
  if (exit_code() != kOk) std::cerr << "bankcheck replay: " << report::exit_reason(r) << "\n";
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto o = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand("replay", "Replay a trace (text, binary or '-') through a bank model and count "
                                           "wavefronts and conflicts, in total and per site");
  cmd->add_option("file", o->file,
                  "trace file (.trace text or .bktrace binary, told by content), '-' for stdin, or a folder of traces "
                  "(one report; under mpirun the ranks share its files)")
      ->required();
  o->model.add_to(*cmd);
  add_warp_option(*cmd, o->warp, " the trace must have (checked, not assumed)");
  cmd->add_flag("--per-instruction", o->per_instruction,
                "also a row per instruction, naming its trace line (FILE:LINE) or byte offset");
  cmd->add_option("--sass", o->sass,
                  "the capture's sass.csv, for the SASS and source lines of the rows and --site FILE:LINE (default: "
                  "sass.csv beside the trace, when there is one)")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--per-bank", o->per_bank,
                "rows per instruction with the words each bank served (bank:words); implies --per-instruction");
  add_threads_option(*cmd, o->threads);
  o->output.add_to(*cmd);
  o->gate.add_to(*cmd);
  cmd->footer("Exit status: 0 success; 1 --fail-on-conflicts exceeded; 2 bad usage, a malformed trace (FILE:LINE), "
              "or nothing to check (an empty trace, or no instruction of the --site sites).");
  cmd->callback([o] { run_replay(*o); });
}

}  // namespace bankcheck::cli
