// bankcheck run ALGO [name=value ...] [--input random|worst|FILE] [--seed S]
//               [--model NAME] [--per-round] [--csv|--json] [--list]
// Runs the algorithm through the recorder, replays every warp instruction
// through the bank model, and prints totals, per-site (and per-round) costs
// beside the paper's analytic prediction.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "model/bank_model.hpp"

namespace bankcheck::cli {

namespace {

nlohmann::json to_json(const CostTotals& c) {
  return {{"instructions", c.instructions}, {"lane_accesses", c.lane_accesses}, {"wavefronts", c.wavefronts},
          {"ideal", c.ideal}, {"conflicts", c.conflicts}, {"max_degree", c.worst_degree}};
}

std::string cost_columns(const CostTotals& c) {
  return std::to_string(c.instructions) + "," + std::to_string(c.lane_accesses) + "," +
         std::to_string(c.wavefronts) + "," + std::to_string(c.ideal) + "," + std::to_string(c.conflicts) + "," +
         std::to_string(c.worst_degree);
}

// Whether the prediction holds; nullopt when it is stated for another model.
std::optional<bool> prediction_holds(const AlgorithmReport& r) {
  if (!r.outcome.prediction || !r.replayed_for_prediction) return std::nullopt;
  const Prediction& p = *r.outcome.prediction;
  if (p.model != r.model) return std::nullopt;
  return p.holds(*r.replayed_for_prediction);
}

void print_text(const AlgorithmReport& r, bool per_round) {
  std::ostringstream params;
  for (const auto& [k, v] : r.params) params << " " << k << "=" << v;
  std::cout << r.algorithm << params.str() << "\ninput " << r.input << ", model " << r.model << "\n";
  if (!r.worst_case.empty()) std::cout << "worst case: " << r.worst_case << "\n";
  std::cout << "blocks " << r.outcome.blocks << ", items " << r.outcome.items << "\n";
  auto row = [](const std::string& name, const CostTotals& c) {
    std::cout << "  " << std::left << std::setw(28) << name << std::right << std::setw(14) << c.instructions
              << std::setw(16) << c.lane_accesses << std::setw(16) << c.wavefronts << std::setw(16) << c.conflicts
              << std::setw(8) << c.worst_degree << "\n";
  };
  std::cout << "  " << std::left << std::setw(28) << "site" << std::right << std::setw(14) << "instructions"
            << std::setw(16) << "lane_accesses" << std::setw(16) << "wavefronts" << std::setw(16) << "conflicts"
            << std::setw(8) << "degree" << "\n";
  for (const auto& s : r.sites) row(s.site, s.cost);
  row("total", r.total);
  if (per_round) {
    std::cout << "per round (phase, site, k):\n";
    for (const auto& round : r.rounds)
      row("p" + std::to_string(round.phase) + " " + round.site + " k=" + std::to_string(round.k), round.cost);
  }
  if (r.outcome.output_checked)
    std::cout << "output check: " << (r.outcome.output_ok ? "ok" : "FAILED") << " (" << r.outcome.check << ")"
              << (r.outcome.output_ok ? "" : "; " + std::to_string(r.outcome.wrong) + " wrong, first " +
                                               r.outcome.first_wrong)
              << "\n";
  if (r.outcome.prediction) {
    const Prediction& p = *r.outcome.prediction;
    std::cout << "prediction: " << p.formula << "\n  " << p.quantity << " " << p.relation_symbol() << " " << p.value
              << " (model " << p.model << ")";
    if (r.replayed_for_prediction) std::cout << ", replayed " << *r.replayed_for_prediction;
    const auto holds = prediction_holds(r);
    std::cout << (holds ? (*holds ? ": holds" : ": DIFFERS") : ": not comparable under this model") << "\n";
  } else {
    std::cout << "prediction: none for these parameters and input\n";
  }
}

void print_csv(const AlgorithmReport& r, bool per_round) {
  std::cout << "scope,phase,k,site,instructions,lane_accesses,wavefronts,ideal,conflicts,max_degree\n";
  for (const auto& s : r.sites) std::cout << "site,,," << s.site << "," << cost_columns(s.cost) << "\n";
  std::cout << "total,,,," << cost_columns(r.total) << "\n";
  if (per_round)
    for (const auto& round : r.rounds)
      std::cout << "round," << round.phase << "," << round.k << "," << round.site << "," << cost_columns(round.cost)
                << "\n";
}

void print_json(const AlgorithmReport& r, bool per_round) {
  nlohmann::json j;
  j["algorithm"] = r.algorithm;
  j["params"] = r.params;
  j["input"] = r.input;
  if (!r.worst_case.empty()) j["worst_case"] = r.worst_case;
  j["model"] = r.model;
  j["blocks"] = r.outcome.blocks;
  j["items"] = r.outcome.items;
  j["total"] = to_json(r.total);
  for (const auto& s : r.sites) j["sites"].push_back({{"site", s.site}, {"cost", to_json(s.cost)}});
  if (per_round)
    for (const auto& round : r.rounds)
      j["rounds"].push_back({{"phase", round.phase}, {"k", round.k}, {"site", round.site}, {"cost", to_json(round.cost)}});
  if (r.outcome.output_checked)
    j["output_check"] = {{"ok", r.outcome.output_ok}, {"check", r.outcome.check}, {"wrong", r.outcome.wrong},
                         {"first_wrong", r.outcome.first_wrong}};
  if (r.outcome.prediction) {
    const Prediction& p = *r.outcome.prediction;
    const auto holds = prediction_holds(r);
    j["prediction"] = {{"formula", p.formula}, {"quantity", p.quantity}, {"sites", p.sites},
                       {"value", p.value.str()},  // string: cpp_int may exceed 64 bits
                       {"model", p.model}, {"relation", p.relation_symbol()},
                       {"bound", p.relation == Prediction::Relation::at_most}};
    if (r.replayed_for_prediction) j["prediction"]["replayed"] = *r.replayed_for_prediction;
    j["prediction"]["holds"] = holds ? nlohmann::json(*holds) : nlohmann::json(nullptr);
  }
  std::cout << j.dump(2) << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run an algorithm, replay it through a bank model, compare with the paper");
  auto args = std::make_shared<AlgorithmArgs>();
  auto model = std::make_shared<std::string>("dmm");
  auto per_round = std::make_shared<bool>(false);
  auto csv = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  args->add_to(*cmd);
  cmd->add_option("--model", *model, "bank model preset: dmm, sm90, kepler-4B, kepler-8B")->capture_default_str();
  cmd->add_flag("--per-round", *per_round, "also print each round (phase, site, k)");
  auto* csv_flag = cmd->add_flag("--csv", *csv, "CSV output");
  cmd->add_flag("--json", *json, "JSON output")->excludes(csv_flag);
  cmd->callback([args, model, per_round, csv, json] {
    const Params given = args->parsed();
    const AlgorithmSpec& spec = find_algorithm(args->algorithm);
    const Params p = resolve_params(spec, given);
    const BankModel m = make_preset(*model, static_cast<unsigned>(param(p, "w")));
    const AlgorithmReport r = run_algorithm(args->algorithm, p, args->input_choice(), m);
    if (*json) print_json(r, *per_round);
    else if (*csv) print_csv(r, *per_round);
    else print_text(r, *per_round);
    const auto holds = prediction_holds(r);
    if ((r.outcome.output_checked && !r.outcome.output_ok) || (holds && !*holds)) exit_code() = kClaimFails;
  });
  auto* list = app.get_subcommand("run");
  list->add_flag_callback("--list", [] {
    std::cout << algorithm_listing();
    throw CLI::Success();
  }, "list the algorithms and their parameters");
}

}  // namespace bankcheck::cli
