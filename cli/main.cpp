// bankcheck: thin command line over the bankcheck library.
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/standard_output.hpp"
#include "sim/parallel/cluster.hpp"
#include "cli/version.hpp"

namespace bankcheck::cli {
int& exit_code() {
  static int code = kOk;
  return code;
}
}  // namespace bankcheck::cli

int main(int argc, char** argv) {
  using namespace bankcheck::cli;
  // Under mpirun/srun the ranks share the work of the commands that can split
  // it (replay DIR, verify, adversary --search); any other command would run
  // whole on every rank.
  std::optional<bankcheck::ClusterSession> session;
  try {
    session.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bankcheck: error: " << e.what() << "\n";
    return kBadInput;
  }
  const bankcheck::Cluster& cluster = bankcheck::Cluster::instance();
  const std::string command = argc >= 2 ? argv[1] : "";
  if (cluster.size() > 1 && command != "replay" && command != "verify" && command != "adversary") {
    if (cluster.root())
      std::cerr << "bankcheck: error: under MPI (" << cluster.size()
                << " ranks) only `replay DIR`, `verify` and `adversary --search` share their work; run other "
                   "commands on one process\n";
    return kBadInput;
  }
  CLI::App app{"bankcheck: exact shared-memory bank-conflict counts, proofs and adversarial inputs"};
  app.require_subcommand(1);
  app.add_flag_callback(
      "--version",
      [] {
        std::cout << version_text();
        throw CLI::Success();
      },
      "print the version, the git revision and the build's CUDA version");
  app.footer(
      "Every command takes the same options for the same things (--model, --warp, --threads, --seed, --json, --csv,\n"
      "-o FILE, --quiet, --fail-on-conflicts); docs/cli.md lists them. Exit status: 0 success, 1 a check failed\n"
      "(a claim refuted, conflicts over --fail-on-conflicts), 2 bad usage or bad input.");
  add_replay_command(app);
  add_convert_command(app);
  add_run_command(app);
  add_trace_command(app);
  add_draw_command(app);
  add_verify_command(app);
  add_adversary_command(app);
  add_capture_command(app);
  add_compare_command(app);
  add_layout_command(app);
  add_report_command(app);
  add_suggest_command(app);
  // Every way out checks that what was printed reached standard output.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return checked_exit(code == 0 ? 0 : kBadInput);
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "bankcheck: error: " << e.what() << "\n";
    return checked_exit(kBadInput);
  }
  return checked_exit(exit_code());
}
