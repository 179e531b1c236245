// `bankcheck compare --ncu REPORT.csv TRACE... [--json|--csv] [-o FILE]`:
// the model's wavefronts per captured instruction against Nsight Compute's
// (capture/host/compare.hpp). Exit 0 when every instruction of every
// captured launch is `yes`, 1 when any row is another verdict or a launch
// could not be compared (each listed with its reason), 2 on bad input.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "capture/host/compare.hpp"
#include "capture/host/csv.hpp"
#include "capture/host/ncu_launches.hpp"
#include "capture/host/ncu_table.hpp"
#include "cli/commands.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/source_line.hpp"
#include "sim/trace/atomic_file.hpp"
#include "sim/trace/trace_error.hpp"

namespace bankcheck::cli {
namespace {

struct CompareOptions {
  std::string ncu, ncu_launches, out, model = "sm90";
  std::vector<std::string> traces;
  bool json = false, csv = false;
};

/// Every file compare reads: the ncu report and launch list, the traces and the launches.csv beside each.
std::vector<std::string> compare_inputs(const CompareOptions& o) {
  std::vector<std::string> inputs = {o.ncu};
  if (!o.ncu_launches.empty()) inputs.push_back(o.ncu_launches);
  for (const auto& t : o.traces) {
    inputs.push_back(t);
    inputs.push_back((std::filesystem::path(t).parent_path() / "launches.csv").string());
  }
  return inputs;
}

void run(const CompareOptions& o) {
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument(path + ": cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const auto ncu = capture::parse_ncu_source(read(o.ncu), o.ncu);
  std::vector<capture::NcuLaunchShape> shapes;
  if (!o.ncu_launches.empty()) shapes = capture::parse_ncu_launches(read(o.ncu_launches), o.ncu_launches);
  const BankModel model = make_preset(o.model);
  const auto result = capture::compare_with_ncu(ncu, o.traces, model, shapes);
  const auto counts = result.verdict_counts();

  std::ostringstream out;
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : result.rows) {
      nlohmann::json row = {{"launch", r.launch}, {"kernel", r.kernel}, {"offset", r.offset}, {"sass", r.sass},
                            {"executions", r.measured_executed}, {"model_executions", r.model_executed},
                            {"model_wavefronts", r.model_wavefronts}, {"measured_wavefronts", r.measured_wavefronts},
                            {"modelled", r.modelled}, {"equal", r.equal()}, {"runs_differ", r.runs_differ()},
                            {"verdict", capture::verdict_name(r.verdict())}, {"verdict_text", r.verdict_text()}};
      if (!r.detail.empty()) row["detail"] = r.detail;
      if (r.source) row["source"] = report::source_json(*r.source);
      if (r.global) {
        row["global"] = true;
        row["model_sectors"] = r.model_sectors;
        row["measured_sectors"] = r.measured_sectors;
        row["model_ideal_sectors"] = r.model_ideal_sectors;
        row["measured_ideal_sectors"] = r.measured_ideal_sectors;
      }
      rows.push_back(row);
    }
    nlohmann::json verdicts = nlohmann::json::object();
    for (unsigned v = 0; v < capture::kVerdicts; ++v)
      verdicts[capture::verdict_name(static_cast<capture::Verdict>(v))] = counts[v];
    nlohmann::json uncompared = nlohmann::json::array();
    for (const auto& u : result.uncompared)
      uncompared.push_back({{"launch", u.launch}, {"kernel", u.kernel}, {"reason", u.reason}});
    out << nlohmann::json{{"ncu", o.ncu}, {"model", model.name()}, {"all_equal", result.all_equal()},
                          {"ncu_blocks_printed_twice", ncu.deduplicated}, {"compared_launches", result.compared_launches},
                          {"verdicts", verdicts}, {"uncompared", uncompared}, {"rows", rows}, {"notes", result.notes}}
               .dump(2)
        << "\n";
  } else if (o.csv) {
    out << "launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal,detail,"
           "source\n";
    for (const auto& r : result.rows)
      out << capture::csv_line({std::to_string(r.launch), r.kernel, std::to_string(r.offset), r.sass,
                                std::to_string(r.measured_executed), std::to_string(r.model_executed),
                                std::to_string(r.global ? r.model_sectors : r.model_wavefronts),
                                std::to_string(r.global ? r.measured_sectors : r.measured_wavefronts), r.verdict_text(),
                                r.detail, r.source ? report::source_text(*r.source) : ""});
  } else {
    out << std::setw(6) << "launch" << "  " << std::setw(8) << "offset" << "  " << std::left << std::setw(40) << "sass"
        << std::right << "  " << std::setw(10) << "executions" << "  " << std::setw(10) << "model_wf" << "  "
        << std::setw(10) << "measured" << "  equal\n";
    for (const auto& r : result.rows) {
      std::ostringstream off;
      off << "0x" << std::hex << r.offset;
      out << std::setw(6) << r.launch << "  " << std::setw(8) << off.str() << "  " << std::left << std::setw(40)
          << r.sass.substr(0, 40) << std::right << "  " << std::setw(10) << r.measured_executed << "  " << std::setw(10)
          << (r.global ? r.model_sectors : r.model_wavefronts) << "  " << std::setw(10)
          << (r.global ? r.measured_sectors : r.measured_wavefronts) << "  " << r.verdict_text()
          << (r.detail.empty() ? "" : "  [" + r.detail + "]")
          << (r.source ? "  " + report::source_text(*r.source) : "") << "\n";
    }
    out << "\n" << counts[static_cast<unsigned>(capture::Verdict::yes)] << " of " << result.rows.size()
        << " instructions equal (model " << model.name() << ")\n";
    out << "verdicts:";
    for (unsigned v = 0; v < capture::kVerdicts; ++v)
      out << (v == 0 ? " " : ", ") << capture::verdict_name(static_cast<capture::Verdict>(v)) << " " << counts[v];
    out << "\n";
    if (counts[static_cast<unsigned>(capture::Verdict::executions_differ)] > 0)
      out << "executions differ: the capture and ncu's run executed those instructions a different number of times "
          << "(timing-dependent code such as spin-waits, or ncu counting predicated-off executions): their "
          << "totals are not comparable\n";
    out << "launches: " << result.compared_launches << " compared, " << result.uncompared.size() << " not compared\n";
    for (const auto& u : result.uncompared)
      out << "not compared: launch " << u.launch << " " << u.kernel.substr(0, 100) << ": " << u.reason << "\n";
    if (result.rows.empty())
      out << "nothing compared: no instruction of these launches touched shared (or traced global) memory; "
             "exit 1, never a vacuous match\n";
    for (const auto& n : result.notes) out << "note: " << n << "\n";
  }
  if (o.out.empty()) {
    std::cout << out.str();
  } else {
    AtomicFile file(o.out);
    file.write(out.str());
    file.commit();
  }
  exit_code() = result.all_equal() ? kOk : kClaimFails;
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "Compare the model's wavefronts per captured instruction with Nsight "
                                            "Compute's per-SASS table (exit 0: all equal, 1: some differ)");
  cmd->add_option("--ncu", o->ncu, "ncu --section SourceCounters --page source --print-source sass --csv output")
      ->required();
  cmd->add_option("--ncu-launches", o->ncu_launches,
                  "ncu -i REPORT --page raw --csv --metrics launch__grid_size output: check each pairing's grid and "
                  "block");
  cmd->add_option("traces", o->traces, "Captured traces (launch-N.bktrace, with launches.csv beside them)")->required();
  cmd->add_option("--model", o->model, "Preset model (default sm90)");
  cmd->add_option("-o,--out", o->out, "Write the table to this file (atomically) instead of stdout");
  auto* json = cmd->add_flag("--json", o->json, "Print JSON");
  auto* csv = cmd->add_flag("--csv", o->csv, "Print CSV");
  json->excludes(csv);
  cmd->callback([o] {
    try {
      if (!o->out.empty()) report::refuse_overwriting_inputs(o->out, compare_inputs(*o));
      run(*o);
    } catch (const TraceError& e) {
      std::cerr << e.what() << "\n";
      exit_code() = kBadInput;
    } catch (const std::invalid_argument& e) {
      std::cerr << "bankcheck compare: error: " << e.what() << "\n";
      exit_code() = kBadInput;
    }
  });
}

}  // namespace bankcheck::cli
