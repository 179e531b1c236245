// bankcheck run ALGO [name=value ...] [--input random|worst|FILE] [--seed S]
//               [--model NAME] [--per-round] [--json|--csv] [-o FILE] [--list]
// Runs the algorithm through the recorder, costs every warp instruction with
// the bank model (sim/algorithms/algorithm_registry.hpp), and reports the
// shared results (sim/report) with the output check and the paper's prediction.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/results_writer.hpp"

namespace bankcheck::cli {
namespace {

struct RunOptions {
  AlgorithmArgs args;
  ModelOptions model;
  bool per_round = false;
  OutputOptions output;
  GateOptions gate;
};

// Whether the prediction holds; nullopt when it is stated for another model.
std::optional<bool> prediction_holds(const AlgorithmReport& r) {
  if (!r.outcome.prediction || !r.replayed_for_prediction) return std::nullopt;
  const Prediction& p = *r.outcome.prediction;
  if (p.model != r.model) return std::nullopt;
  return p.holds(*r.replayed_for_prediction);
}

bool site_selected(const std::vector<std::string>& sites, const std::string& site) {
  return sites.empty() || std::find(sites.begin(), sites.end(), site) != sites.end();
}

/// The selected sites, the worst instruction and (--per-round) the rounds.
void add_run_sites(report::Results& out, const AlgorithmReport& r, const BankModel& model, const RunOptions& o) {
  WorstInstruction worst;
  std::string worst_location;
  for (const auto& s : r.sites) {
    if (!site_selected(o.gate.sites, s.site)) continue;
    if (s.global.instructions > 0) {
      out.global += s.global;
      out.global_sites.push_back({s.site, s.global});
    }
    if (s.cost.instructions == 0) continue;  // a site of global instructions only
    out.totals += s.cost;
    out.sites.push_back({s.site, s.cost, {}, {}, 0, {}, {}});
    if (worst.worse(s.worst)) {
      worst = s.worst;
      worst_location = s.worst_location;
    }
  }
  if (worst.present) out.worst = report::worst_row(model, worst, worst_location);
  if (o.per_round)
    for (const auto& x : r.rounds)
      if (site_selected(o.gate.sites, x.site)) out.rounds.push_back({x.phase, x.k, x.site, x.cost});
}

/// The run's own findings: the output check and the paper's prediction.
void add_run_findings(report::Results& out, const AlgorithmReport& r) {
  if (r.outcome.output_checked) {
    out.notes.push_back("output check: " + std::string(r.outcome.output_ok ? "ok" : "FAILED") + " (" +
                        r.outcome.check + ")" +
                        (r.outcome.output_ok ? "" : "; " + std::to_string(r.outcome.wrong) + " wrong, first " +
                                                         r.outcome.first_wrong));
    out.extra["output_check"] = {{"ok", r.outcome.output_ok}, {"check", r.outcome.check},
                                 {"wrong", r.outcome.wrong}, {"first_wrong", r.outcome.first_wrong}};
  }
  if (r.outcome.prediction) {
    const Prediction& p = *r.outcome.prediction;
    const auto holds = prediction_holds(r);
    std::string line = "  " + p.quantity + " " + p.relation_symbol() + " " + p.value.str() + " (model " + p.model + ")";
    if (r.replayed_for_prediction) line += ", replayed " + std::to_string(*r.replayed_for_prediction);
    line += holds ? (*holds ? ": holds" : ": DIFFERS") : ": not comparable under this model (use --model " + p.model + ")";
    out.notes.push_back("prediction: " + p.formula);
    out.notes.push_back(line);
    nlohmann::ordered_json j = {{"formula", p.formula}, {"quantity", p.quantity}, {"sites", p.sites},
                                {"value", p.value.str()},  // a string: cpp_int may exceed 64 bits
                                {"model", p.model},     {"relation", p.relation_symbol()},
                                {"bound", p.relation == Prediction::Relation::at_most}};
    if (r.replayed_for_prediction) j["replayed"] = *r.replayed_for_prediction;
    j["holds"] = holds ? nlohmann::ordered_json(*holds) : nlohmann::ordered_json(nullptr);
    out.extra["prediction"] = j;
  } else {
    out.notes.push_back("prediction: none for these parameters and input");
    out.extra["prediction"] = nullptr;
  }
}

/// The registry's report in the shared results schema, with the run's own findings.
report::Results results_of(const AlgorithmReport& r, const BankModel& model, const RunOptions& o) {
  report::Results out;
  out.command = "run";
  out.model = r.model;
  out.model_description = model.describe();
  out.timing = shared_timing(model.name());
  out.warp = model.geometry().warp;
  out.page_elements = out.warp;
  out.selected_sites = o.gate.sites;
  out.fail_on_conflicts = o.gate.fail_on_conflicts;
  nlohmann::ordered_json input = {{"kind", "algorithm"}, {"algorithm", r.algorithm}, {"params", r.params},
                                  {"input", r.input}};
  if (!r.worst_case.empty()) input["worst_case"] = r.worst_case;
  input["blocks"] = r.outcome.blocks;
  input["items"] = r.outcome.items;
  out.inputs.push_back(input);

  std::string params;
  for (const auto& [k, v] : r.params) params += " " + k + "=" + std::to_string(v);
  out.header = {"run    " + r.algorithm + params, "input  " + r.input + ", " + std::to_string(r.outcome.blocks) +
                                                        " blocks, " + std::to_string(r.outcome.items) + " items"};
  if (!r.worst_case.empty()) out.header.push_back("worst case: " + r.worst_case);
  out.header.push_back("model  " + model.describe());
  add_run_sites(out, r, model, o);
  add_run_findings(out, r);
  return out;
}

void run(const RunOptions& o) {
  o.model.check();
  report::ResultOutput out(o.output.file, {o.args.input});
  const AlgorithmSpec& spec = find_algorithm(o.args.algorithm);
  const Params p = resolve_params(spec, o.args.parsed());
  const BankModel model = o.model.make(static_cast<unsigned>(param(p, "w")));
  report::Progress progress(o.output.progress_stream(), "run " + spec.name, OutputOptions::progress_delay());
  report::ProgressSink ticks(progress, nullptr);
  const AlgorithmReport r =
      run_algorithm(spec.name, p, o.args.input_choice(), model, progress.enabled() ? &ticks : nullptr);
  progress.finish();
  const report::Results results = results_of(r, model, o);
  report::ResultsWriter writer(out.stream(), o.output.format(), false);
  writer.finish(results);
  out.commit();
  int code = report::exit_code_of(results);
  std::string reason = report::exit_reason(results);
  const auto holds = prediction_holds(r);
  if (code == kOk && ((r.outcome.output_checked && !r.outcome.output_ok) || (holds && !*holds))) {
    code = kClaimFails;
    reason = r.outcome.output_checked && !r.outcome.output_ok ? "the algorithm's output is wrong"
                                                              : "the paper's prediction does not hold";
  }
  exit_code() = code;
  if (code != kOk) std::cerr << "bankcheck run: " << reason << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run an algorithm, cost it with a bank model, compare with the paper");
  auto o = std::make_shared<RunOptions>();
  o->args.add_to(*cmd);
  o->model.add_to(*cmd, false);
  cmd->add_flag("--per-round", o->per_round, "also report each round (phase, site, k)");
  o->output.add_to(*cmd);
  o->gate.add_to(*cmd);
  cmd->footer("The papers state their predictions for the dmm model: `--model dmm` compares with them.\n"
              "Exit status: 0 success; 1 wrong output, a prediction that does not hold, or --fail-on-conflicts "
              "exceeded; 2 bad usage or input.");
  cmd->callback([o] { run(*o); });
  cmd->add_flag_callback(
      "--list",
      [] {
        std::cout << algorithm_listing();
        throw CLI::Success();
      },
      "list the algorithms and their parameters");
}

}  // namespace bankcheck::cli
