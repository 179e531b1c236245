// `bankcheck report INPUT -o FILE.html [--compare COMPARE.json]`: one
// self-contained HTML page (sim/html/html_report.hpp) of a capture folder,
// a trace or a results document; this file parses and writes.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/report_input.hpp"
#include "sim/html/html_report.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct ReportOptions {
  std::string input, compare, out;
  ModelOptions model;
};

void run_report(const ReportOptions& o) {
  o.model.check();
  namespace fs = std::filesystem;
  std::vector<std::string> inputs = {o.input};
  if (!o.compare.empty()) inputs.push_back(o.compare);
  report::ResultOutput out(o.out, inputs);
  const bool capture = fs::is_directory(o.input);
  if (capture && !fs::exists(fs::path(o.input) / "launches.csv"))
    throw std::invalid_argument(o.input + ": a folder without launches.csv is not a capture (bankcheck capture -o)");
  if (!capture && !o.compare.empty())
    throw std::invalid_argument("--compare joins ncu's verdicts onto a capture folder's instructions; " + o.input +
                                " is not a folder");
  // A trace's own warp (a dmm trace of w = 12 is costed at 12); captures and results documents: 32.
  const bool trace = !capture && fs::path(o.input).extension() != ".json";
  const BankModel model = o.model.make(trace ? open_trace(o.input)->warp() : 32);
  html::ReportInput input = capture ? capture_report_input(o.input, model) : file_report_input(o.input, model);
  if (!o.compare.empty()) join_compare(input, o.compare);
  if (input.instructions.empty())
    throw std::invalid_argument(o.input + ": no shared-memory instruction to report");
  out.stream() << html::report_html(input, model);
  out.commit();
  std::size_t grids = 0;
  for (const auto& i : input.instructions) grids += i.worst.present ? 1 : 0;
  std::cerr << "bankcheck report: " << input.instructions.size() << " instructions (" << grids << " with a bank grid) "
            << "into " << out.name() << "\n";
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "Write one self-contained HTML page (no server, no network) of a capture, "
                                           "a trace or a results document: kernels by conflict cycles, source lines, "
                                           "SASS and the bank grid of each instruction's worst execution");
  cmd->add_option("input", o->input,
                  "a capture folder (full traces or --summary), a trace file (.trace, .bktrace) or a results document "
                  "(--json output of replay, layout or capture --summary)")
      ->required()
      ->check(CLI::ExistingPath);
  cmd->add_option("--compare", o->compare, "bankcheck compare --json output for the capture: verdicts beside ncu's counts")
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--out", o->out, "the HTML file to write (atomically)")->required();
  o->model.add_to(*cmd);
  cmd->footer("Exit status: 0 written; 2 bad usage or input (naming the file and line).");
  cmd->callback([o] { run_report(*o); });
}

}  // namespace bankcheck::cli
