// bankcheck draw: the papers' bank-grid picture of rounds of an algorithm
// (sim/draw/bank_grid.hpp, sim/draw/round_selection.hpp), rendered through Graphviz.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "sim/draw/bank_grid.hpp"
#include "sim/draw/round_selection.hpp"
#include "sim/report/result_output.hpp"

namespace bankcheck::cli {
namespace {

struct DrawOptions {
  AlgorithmArgs args;
  ModelOptions model;
  std::string round = "0";
  std::optional<unsigned> phase;
  std::string output;
  std::string label = "address";
  std::optional<unsigned> warp_index;
  bool all_warps = false;
  bool list_rounds = false;
  std::string title;
};

void draw(const DrawOptions& o) {
  o.model.check();
  const AlgorithmSpec& spec = find_algorithm(o.args.algorithm);
  const Params params = resolve_params(spec, o.args.parsed());
  const BankModel model = o.model.make(static_cast<unsigned>(param(params, "w")));
  if (!o.list_rounds) {
    if (o.output.empty()) throw std::invalid_argument("draw needs -o FILE.svg|.png|.dot (or --list-rounds)");
    report::refuse_overwriting_inputs(o.output, {o.args.input});
  }
  GridRecorder recorder;
  const InputChoice input = o.args.input_choice();
  require_worst_case(spec, input);
  const AlgorithmOutcome outcome = spec.drive(params, input, recorder);
  if (outcome.output_checked && !outcome.output_ok)
    throw std::runtime_error(spec.name + ": output check failed (" + outcome.check + "); not drawing it");
  if (o.list_rounds) {
    std::cout << round_listing(recorder.rounds());
    return;
  }
  const RoundSelection selection = select_rounds(recorder.rounds(), o.phase, o.round);
  BankGridOptions go;
  go.rounds = selection.rounds;
  go.round = selection.first;
  go.label = o.label == "thread" ? GridLabel::thread : GridLabel::address;
  go.warp_index = o.all_warps ? BankGridOptions::kAllWarps : o.warp_index.value_or(0);
  go.title = o.title;
  if (go.title.empty()) {
    go.title = spec.name;
    for (const auto& [name, value] : params) go.title += " " + name + "=" + std::to_string(value);
    go.title += (o.phase ? ", phase " + std::to_string(*o.phase) : std::string()) +
                (o.round == "all" ? ", all rounds" : ", round " + o.round);
  }
  const BankGrid grid = build_bank_grid(model, recorder.trace(), go);
  render_bank_grid(grid, o.output);
  std::cout << spec.name << ": " << selection.description << " of " << grid.rounds << " rounds (" << model.name()
            << "): " << grid.round_wavefronts << " wavefronts, " << grid.round_conflicts << " conflicts; wrote "
            << o.output << "\n";
}

}  // namespace

void add_draw_command(CLI::App& app) {
  auto o = std::make_shared<DrawOptions>();
  auto* cmd = app.add_subcommand("draw", "draw the banks of shared memory in rounds of an algorithm (Graphviz)");
  cmd->footer(
      "A grid with one row per bank and one column per row of shared memory, as in SPAA 2025 Figs. 1-4 and\n"
      "HiPC 2015 Figs. 4-6. Cells touched in the round are green, those in a conflicting bank red; cells\n"
      "touched in other rounds are tinted by site. A round is the k-th execution of one site in one phase\n"
      "(over all warps): see --list-rounds. The papers draw the dmm model (any w); sm90 needs w = 32.\n"
      "Example: bankcheck draw strided w=12 stride=6 u=12 --model dmm -o stride6.svg");
  o->args.add_to(*cmd);
  o->model.add_to(*cmd, false);
  cmd->add_option("--round", o->round,
                  "rounds to highlight: N, A-B or a comma list (numbers of --list-rounds, or counted within --phase), "
                  "or 'all' (of --phase if given)")
      ->capture_default_str();
  add_integer_option<unsigned>(*cmd, "--phase", o->phase, 0, 1u << 20,
                               "count --round within this phase (default: over all phases)");
  cmd->add_option("-o,--output", o->output, "picture file, written atomically: .svg, .png or .dot")->type_name("FILE");
  cmd->add_option("--label", o->label, "cell labels: address or thread")
      ->check(CLI::IsMember({"address", "thread"}))
      ->capture_default_str();
  add_integer_option<unsigned>(*cmd, "--warp-index", o->warp_index, 0, kMaxWarp, "warp of block 0 to draw (default 0)");
  cmd->add_flag("--all-warps", o->all_warps, "draw the accesses of every warp of block 0");
  cmd->add_flag("--list-rounds", o->list_rounds, "list the rounds and their sites, draw nothing");
  cmd->add_option("--title", o->title, "title above the grid (default: algorithm, parameters, rounds)");
  cmd->callback([o] { draw(*o); });
}

}  // namespace bankcheck::cli
