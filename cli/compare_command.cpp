// `bankcheck compare --ncu REPORT.csv TRACE... [--json|--csv] [-o FILE]`:
// the model's wavefronts per captured instruction against Nsight Compute's
// (capture/host/ncu/compare.hpp), printed by capture/host/ncu/compare_report.hpp, with the layouts `suggest`
// offers for the compared launches' conflicting buffers (proofs/capture_suggestion.hpp). Exit 0 when every instruction of every
// captured launch is `yes`, 1 when any row is another verdict or a launch
// could not be compared (each listed with its reason), 2 on bad input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "capture/host/launch/launch_table.hpp"
#include "capture/host/ncu/compare.hpp"
#include "capture/host/ncu/compare_report.hpp"
#include "capture/host/ncu/ncu_launches.hpp"
#include "capture/host/ncu/ncu_table.hpp"
#include "capture/host/ring/function_map.hpp"
#include "cli/commands.hpp"
#include "proofs/capture_suggestion.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

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

std::string read_input_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The layouts `suggest` offers for the buffers of compared launches with a conflicting row, each keeping
/// the conflicting instructions that compare has rows for.
std::vector<report::LayoutOffer> offers(const capture::CompareResult& result, const std::vector<std::string>& traces,
                                        const BankModel& model) {
  std::vector<report::LayoutOffer> out;
  for (const std::string& t : traces) {
    const auto dir = std::filesystem::path(t).parent_path();
    for (const capture::LaunchRow& row : capture::read_launch_table((dir / "launches.csv").string())) {
      if (row.trace != std::filesystem::path(t).filename().string()) continue;
      const auto mine = [&](const capture::CompareRow& r) { return r.launch == row.id && r.conflicting(); };
      if (std::none_of(result.rows.begin(), result.rows.end(), mine)) continue;  // nothing to offer: no search
      auto trace = open_trace(t);
      for (report::LayoutOffer& o : proofs::layout_offers(proofs::suggest_from_trace(*trace, model))) {
        std::erase_if(o.conflicting, [&](const std::string& site) {
          const auto ref = capture::parse_site_name(site);
          return !ref || ref->function != row.kernel || std::none_of(result.rows.begin(), result.rows.end(), [&](const capture::CompareRow& r) {
            return mine(r) && r.offset == ref->offset;
          });
        });
        o.launch = row.id, o.kernel = row.demangled;
        if (!o.conflicting.empty()) out.push_back(std::move(o));
      }
    }
  }
  return out;
}

void run(const CompareOptions& o) {
  report::ResultOutput out(o.out, compare_inputs(o));  // refuses to overwrite an input before reading any
  const auto ncu = capture::parse_ncu_source(read_input_text(o.ncu), o.ncu);
  std::vector<capture::NcuLaunchShape> shapes;
  if (!o.ncu_launches.empty()) shapes = capture::parse_ncu_launches(read_input_text(o.ncu_launches), o.ncu_launches);
  const BankModel model = make_preset(o.model);
  auto result = capture::compare_with_ncu(ncu, o.traces, model, shapes);
  result.offers = offers(result, o.traces, model);
  if (o.json) capture::write_compare_json(out.stream(), result, {o.ncu, model.name(), ncu.deduplicated});
  else if (o.csv) capture::write_compare_csv(out.stream(), result);
  else capture::write_compare_text(out.stream(), result, model.name());
  out.commit();
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
