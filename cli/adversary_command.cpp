// `bankcheck adversary NAME name=value ... -o FILE`: write the input a paper's
// construction gives and print what the model expects it to cost
// (proofs/adversary/constructions.hpp); with --search, look for a worse one
// (proofs/adversary/input_search.hpp).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "proofs/adversary/construction_params.hpp"
#include "proofs/adversary/constructions.hpp"
#include "proofs/adversary/input_search.hpp"
#include "sim/parallel/cluster.hpp"
#include "sim/report/progress.hpp"

namespace bankcheck::cli {
namespace {

struct AdversaryArgs {
  AlgorithmArgs algorithm;  ///< NAME and its name=value words
  std::string output, format, construction = "corollary";
  bool search = false, quiet = false;
  std::uint64_t seed = 1, iterations = 20000, pass_iterations = 3000, length = 0, chains = 1;
  double time_limit = 0;
};

void run(const AdversaryArgs& a) {
  const Params params = a.algorithm.parsed();
  const proofs::KeyFormat format = proofs::key_format(a.format, a.output);
  const Cluster& cluster = Cluster::instance();
  if (cluster.size() > 1 && !a.search)
    throw std::invalid_argument("under MPI only `adversary --search` shares its work (the ranks split --chains); "
                                "write a construction on one process");
  if (a.search) {
    report::ProgressBar bar("inputs", a.quiet || !cluster.root());
    proofs::InputSearchRequest r;
    r.algorithm = a.algorithm.algorithm;
    r.params = params;
    r.length = a.length;
    r.seed = a.seed;
    r.iterations = a.iterations;
    r.chains = a.chains;
    r.cluster = &cluster;
    r.time_limit = a.time_limit;
    r.output = a.output;
    r.format = format;
    r.key_bytes = params.count("key_bytes") ? static_cast<unsigned>(params.at("key_bytes")) : 4;
    r.progress = [&bar](std::uint64_t done, std::uint64_t total) {
      bar.update(done, total, static_cast<double>(done) / static_cast<double>(total));
    };
    const proofs::InputSearchReport report = proofs::search_worst_input(r);
    bar.finish();
    if (cluster.root()) std::cout << report.text;
    return;
  }
  report::ProgressBar bar("keys", a.quiet);
  proofs::ConstructionRequest r;
  r.name = a.algorithm.algorithm;
  r.params = params;
  r.pbs_construction = a.construction;
  r.output = a.output;
  r.format = format;
  r.seed = a.seed;
  r.pass_iterations = a.pass_iterations;
  r.time_limit = a.time_limit;
  r.progress = [&bar](std::uint64_t done, std::uint64_t total) {
    bar.update(done, total, static_cast<double>(done) / static_cast<double>(total));
  };
  const proofs::ConstructionReport report = proofs::write_construction(r);
  bar.finish();
  std::cout << report.text;
}

std::string construction_listing() {
  std::string out;
  for (const auto& c : proofs::constructions()) {
    out += c.name + ": " + c.description + "\n";
    for (const auto& p : c.params)
      out += "    " + p.name + " (default " + std::to_string(p.default_value) + ", " + std::to_string(p.lo) + ".." +
             std::to_string(p.hi) + "): " + p.help + "\n";
  }
  return out;
}

}  // namespace

void add_adversary_command(CLI::App& app) {
  auto args = std::make_shared<AdversaryArgs>();
  auto* cmd = app.add_subcommand(
      "adversary",
      "write a worst-case input (pbs, merge, merge-sort, cub-merge-sort, spaa-merge-sort; parameters as name=value, "
      "e.g. `adversary pbs K=4096 queries=64 -o q.txt`) and print its expected cost, or --search merge-warp or any "
      "algorithm of `bankcheck run --list` for a worse input. Files are text, one key per line (what `run --input` "
      "reads), unless --format bin or a .bin name asks for raw little-endian keys.\n\n" +
          construction_listing());
  cmd->add_option("NAME", args->algorithm.algorithm,
                  "construction, or with --search merge-warp or a registered algorithm")
      ->required();
  cmd->add_option("params", args->algorithm.params, "parameters as name=value (see above, or `bankcheck run --list`)")
      ->expected(0, -1);
  cmd->add_option("-o,--output", args->output, "file to write (atomically): the input, or with --search the best one");
  cmd->add_option("--format", args->format, "text (default; one key per line) or bin (raw little-endian keys)");
  cmd->add_option("--construction", args->construction,
                  "pbs: corollary (Corollary 4.1, K a multiple of w^2) or lemma (Lemma 4.2, K >= 2w^2)");
  cmd->add_flag("--search", args->search, "search for a worse input instead of writing the construction");
  add_integer_option<std::uint64_t>(*cmd, "--iterations", args->iterations, 1, std::uint64_t{1} << 40,
                                    "--search: inputs tried at most (default 20000; exhaustive when the space is no "
                                    "larger)");
  add_integer_option<std::uint64_t>(*cmd, "--chains", args->chains, 1, std::uint64_t{1} << 20,
                                    "--search: independent annealing chains sharing --iterations (default 1); the "
                                    "ranks of mpirun split them, and the result depends on the chains, not the ranks");
  add_integer_option<std::uint64_t>(*cmd, "--pass-iterations", args->pass_iterations, 1, std::uint64_t{1} << 40,
                                    "merge sorts: target sequences searched per in-block pass (default 3000)");
  add_real_option(*cmd, "--time-limit", args->time_limit, 0.001, 1e6,
                  "seconds: cut searches short (the result then depends on the machine's speed; the output says so)");
  add_integer_option<std::uint64_t>(*cmd, "--seed", args->seed, 0, ~std::uint64_t{0}, "seed of the searches (default 1)");
  add_integer_option<std::uint64_t>(*cmd, "--length", args->length, 1, std::uint64_t{1} << 24,
                                    "--search: integers per input (default: found from the parameters)");
  cmd->add_flag("--quiet", args->quiet, "no progress bar");
  cmd->callback([args] { run(*args); });
}

}  // namespace bankcheck::cli
