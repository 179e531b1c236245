// bankcheck draw: the papers' bank-grid picture of one round of an algorithm
// (sim/draw/bank_grid.hpp), rendered through Graphviz.
#include <charconv>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/draw/bank_grid.hpp"

namespace bankcheck::cli {
namespace {

struct DrawOptions {
  std::string algorithm;
  std::vector<std::string> params;  // NAME=VALUE
  std::string round = "0";
  std::string output;
  std::string label = "address";
  std::string input = "random";
  std::uint64_t seed = 1;
  std::string model = "dmm";
  unsigned warp_index = 0;
  int phase = -1;  // -1: --round counts every round
  bool all_warps = false;
  bool list_rounds = false;
  std::string title;
};

Params parse_params(const std::vector<std::string>& given) {
  Params p;
  for (const auto& kv : given) {
    const auto eq = kv.find('=');
    std::int64_t value = 0;
    const char* first = kv.data() + (eq == std::string::npos ? 0 : eq + 1);
    const char* last = kv.data() + kv.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (eq == std::string::npos || eq == 0 || ec != std::errc() || ptr != last || first == last)
      throw std::invalid_argument("parameter '" + kv + "' must be NAME=INTEGER (e.g. w=12)");
    p[kv.substr(0, eq)] = value;
  }
  return p;
}

void draw(const DrawOptions& o) {
  const AlgorithmSpec& spec = find_algorithm(o.algorithm);
  const Params params = resolve_params(spec, parse_params(o.params));
  const auto w = param(params, "w");
  const BankModel model = make_preset(o.model, static_cast<unsigned>(w));
  GridRecorder recorder;
  const AlgorithmOutcome outcome = spec.drive(params, InputChoice::parse(o.input, o.seed), recorder);
  if (outcome.output_checked && !outcome.output_ok)
    throw std::runtime_error(o.algorithm + ": output check failed (" + outcome.check + "); not drawing it");
  if (o.list_rounds) {
    const auto& rounds = recorder.rounds();
    std::size_t in_phase = 0;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      in_phase = r > 0 && rounds[r].phase == rounds[r - 1].phase ? in_phase + 1 : 0;
      std::cout << "round " << r << " (--phase " << rounds[r].phase << " --round " << in_phase << "): "
                << rounds[r].name << " k=" << rounds[r].k << "\n";
    }
    return;
  }
  if (o.output.empty()) throw std::invalid_argument("draw needs -o FILE.svg|.png|.dot (or --list-rounds)");

  BankGridOptions go;
  if (o.round == "all") {
    go.round = BankGridOptions::kAllRounds;
    if (o.phase >= 0) {  // every round of one phase
      const auto& rounds = recorder.rounds();
      go.rounds.assign(rounds.size(), false);
      bool any = false;
      for (std::size_t i = 0; i < rounds.size(); ++i)
        if (rounds[i].phase == static_cast<unsigned>(o.phase)) go.rounds[i] = any = true;
      if (!any) throw std::invalid_argument("phase " + std::to_string(o.phase) + " has no rounds");
    }
  } else {
    // A round, a range A-B or a comma list of either; counted within --phase when given.
    const auto& rounds = recorder.rounds();
    std::vector<std::size_t> in_phase;  // global index of each round counted by --round
    for (std::size_t i = 0; i < rounds.size(); ++i)
      if (o.phase < 0 || rounds[i].phase == static_cast<unsigned>(o.phase)) in_phase.push_back(i);
    auto number = [&](std::string_view text) {
      std::size_t r = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
      if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
        throw std::invalid_argument("--round must be a number, a range A-B, a comma list of those, or 'all' (got '" +
                                    o.round + "')");
      if (r >= in_phase.size())
        throw std::invalid_argument("--round must be in [0, " + std::to_string(in_phase.size()) + ")" +
                                    (o.phase >= 0 ? " within phase " + std::to_string(o.phase) : std::string()) +
                                    " (got " + std::string(text) + ")");
      return r;
    };
    go.rounds.assign(rounds.size(), false);
    std::string_view rest = o.round;
    std::size_t picked = 0;
    while (true) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const auto dash = item.find('-');
      const std::size_t lo = number(item.substr(0, dash));
      const std::size_t hi = dash == std::string_view::npos ? lo : number(item.substr(dash + 1));
      if (hi < lo) throw std::invalid_argument("--round range " + std::string(item) + " is empty");
      for (std::size_t r = lo; r <= hi; ++r) go.rounds[in_phase[r]] = true;
      picked = in_phase[lo];
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    go.round = picked;
  }
  go.label = o.label == "thread" ? GridLabel::thread : GridLabel::address;
  go.warp_index = o.all_warps ? BankGridOptions::kAllWarps : o.warp_index;
  go.title = o.title;
  if (go.title.empty()) {
    go.title = o.algorithm;
    for (const auto& [name, value] : params) go.title += " " + name + "=" + std::to_string(value);
    go.title += (o.phase >= 0 ? ", phase " + std::to_string(o.phase) : std::string()) +
                (o.round == "all" ? ", all rounds" : ", round " + o.round);
  }
  const BankGrid grid = build_bank_grid(model, recorder.trace(), go);
  render_bank_grid(grid, o.output);
  std::cout << o.algorithm << ": "
            << (o.round == "all" ? (o.phase >= 0 ? "all rounds of phase " + std::to_string(o.phase) : "all rounds")
                                 : "round " + o.round + (o.phase >= 0 ? " of phase " + std::to_string(o.phase) : ""))
            << " of "
            << grid.rounds << " (" << model.name() << "): " << grid.round_wavefronts << " wavefronts, "
            << grid.round_conflicts << " conflicts; wrote " << o.output << "\n";
}

}  // namespace

void add_draw_command(CLI::App& app) {
  auto opts = std::make_shared<DrawOptions>();
  auto* cmd = app.add_subcommand("draw", "draw the banks of shared memory in one round of an algorithm (Graphviz)");
  cmd->footer(
      "A grid with one row per bank and one column per row of shared memory, as in SPAA 2025 Figs. 1-4 and\n"
      "HiPC 2015 Figs. 4-6. Cells touched in the round are green, those in a conflicting bank red; cells\n"
      "touched in other rounds are tinted by site. A round is the k-th execution of one site in one phase\n"
      "(over all warps): see --list-rounds.\n"
      "Example: bankcheck draw strided w=12 stride=6 u=12 --label address -o stride6.svg");
  cmd->add_option("algorithm", opts->algorithm, "algorithm name (`bankcheck run --list` lists them)")
      ->required();
  cmd->add_option("params", opts->params, "algorithm parameters NAME=VALUE (e.g. w=12 E=5)");
  cmd->add_option("--round", opts->round, "rounds to highlight: N, A-B or a comma list (numbers of --list-rounds, or counted within --phase), or 'all' (of --phase if given)")
      ->capture_default_str();
  cmd->add_option("--phase", opts->phase, "count --round within this phase (default: over all phases)");
  cmd->add_option("-o,--output", opts->output, "output file: .svg, .png or .dot");
  cmd->add_option("--label", opts->label, "cell labels")
      ->check(CLI::IsMember({"address", "thread"}))
      ->capture_default_str();
  cmd->add_option("--input", opts->input, "random, worst, or a file of integers")->capture_default_str();
  cmd->add_option("--seed", opts->seed, "seed of the random input")->capture_default_str();
  cmd->add_option("--model", opts->model, "bank model preset (warp = the algorithm's w)")->capture_default_str();
  cmd->add_option("--warp", opts->warp_index, "warp of block 0 to draw")->capture_default_str();
  cmd->add_flag("--all-warps", opts->all_warps, "draw the accesses of every warp of block 0");
  cmd->add_flag("--list-rounds", opts->list_rounds, "list the rounds and their sites, draw nothing");
  cmd->add_option("--title", opts->title, "title above the grid (default: algorithm, parameters, round)");
  cmd->callback([opts] { draw(*opts); });
}

}  // namespace bankcheck::cli
