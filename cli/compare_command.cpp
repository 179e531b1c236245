// `bankcheck compare --ncu REPORT.csv TRACE... [--json|--csv] [-o FILE]`:
// the model's wavefronts per captured instruction against Nsight Compute's
// (capture/host/compare.hpp). Exit 0 when every instruction matches, 1
// when any differs (or is not modelled), 2 on bad input.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "capture/host/compare.hpp"
#include "capture/host/csv.hpp"
#include "capture/host/ncu_table.hpp"
#include "cli/commands.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/atomic_file.hpp"
#include "sim/trace/trace_error.hpp"

namespace bankcheck::cli {
namespace {

struct CompareOptions {
  std::string ncu, out, model = "sm90";
  std::vector<std::string> traces;
  bool json = false, csv = false;
};

/// Every file compare reads: the ncu report, the traces and the launches.csv beside each.
std::vector<std::string> compare_inputs(const CompareOptions& o) {
  std::vector<std::string> inputs = {o.ncu};
  for (const auto& t : o.traces) {
    inputs.push_back(t);
    inputs.push_back((std::filesystem::path(t).parent_path() / "launches.csv").string());
  }
  return inputs;
}

std::string verdict(const capture::CompareRow& r) {
  if (!r.equal() && r.runs_differ()) return "no (executions differ)";
  if (r.global) return r.equal() ? "yes (sectors)" : "no (sectors)";
  if (!r.modelled) return "not modelled";
  return r.equal() ? "yes" : "no";
}

void run(const CompareOptions& o) {
  std::ifstream in(o.ncu, std::ios::binary);
  if (!in) throw std::invalid_argument(o.ncu + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  const auto ncu = capture::parse_ncu_source(text.str(), o.ncu);
  const BankModel model = make_preset(o.model);
  const auto result = capture::compare_with_ncu(ncu, o.traces, model);

  std::ostringstream out;
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : result.rows) {
      nlohmann::json row = {{"launch", r.launch}, {"kernel", r.kernel}, {"offset", r.offset}, {"sass", r.sass},
                            {"executions", r.measured_executed}, {"model_executions", r.model_executed},
                            {"model_wavefronts", r.model_wavefronts}, {"measured_wavefronts", r.measured_wavefronts},
                            {"modelled", r.modelled}, {"equal", r.equal()}, {"runs_differ", r.runs_differ()}};
      if (r.global) {
        row["global"] = true;
        row["model_sectors"] = r.model_sectors;
        row["measured_sectors"] = r.measured_sectors;
        row["model_ideal_sectors"] = r.model_ideal_sectors;
        row["measured_ideal_sectors"] = r.measured_ideal_sectors;
      }
      rows.push_back(row);
    }
    out << nlohmann::json{{"ncu", o.ncu}, {"model", model.name()}, {"all_equal", result.all_equal()},
                          {"ncu_blocks_printed_twice", ncu.deduplicated}, {"rows", rows}, {"notes", result.notes}}
               .dump(2)
        << "\n";
  } else if (o.csv) {
    out << "launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal\n";
    for (const auto& r : result.rows)
      out << capture::csv_line({std::to_string(r.launch), r.kernel, std::to_string(r.offset), r.sass,
                                std::to_string(r.measured_executed), std::to_string(r.model_executed),
                                std::to_string(r.global ? r.model_sectors : r.model_wavefronts),
                                std::to_string(r.global ? r.measured_sectors : r.measured_wavefronts), verdict(r)});
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
          << (r.global ? r.measured_sectors : r.measured_wavefronts) << "  " << verdict(r) << "\n";
    }
    std::size_t equal = 0, differ = 0;
    for (const auto& r : result.rows) {
      equal += r.equal();
      differ += !r.equal() && r.runs_differ();
    }
    out << "\n" << equal << " of " << result.rows.size() << " instructions equal (model " << model.name() << ")\n";
    if (differ > 0)
      out << differ << " of the others executed a different number of times in the capture and in ncu's run "
          << "(timing-dependent code such as spin-waits, or ncu counting predicated-off executions): their "
          << "totals are not comparable\n";
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
