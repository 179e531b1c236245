// bankcheck verify: check the papers' claims (proofs/claim_selection.hpp,
// proofs/verifier.hpp) and print the certificate (proofs/certificate.hpp).
#include <csignal>
#include <ctime>

#include <atomic>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "model/bank_model.hpp"
#include "proofs/certificate.hpp"
#include "proofs/claim_selection.hpp"
#include "proofs/claims_registry.hpp"
#include "sim/parallel/cluster.hpp"
#include "sim/trace/atomic_file.hpp"
#include "sim/report/progress.hpp"

namespace bankcheck::cli {
namespace {

struct VerifyArgs {
  proofs::ClaimSelection selection;
  bool list = false;
  std::string w, E;
  bool exhaustive = false;
  std::uint64_t sample = 0;
  std::optional<std::uint64_t> inputs;  ///< unset: 64, bounded by the work of a point (CheckOptions::input_work)
  std::uint64_t seed = 1;
  std::string model;
  bool json = false, csv = false;
  std::string output, format;
  unsigned threads = 0;
  double time_limit = 0;
  bool quiet = false, brute_force = false;
};

/// Set by SIGINT or SIGTERM: the run starts no further point and reports
/// what it checked, marked partial. A second signal more than a second after
/// the first ends the process as usual; one that comes with the first (a
/// signal sent to the process and again to its group, as `timeout` does) is
/// the same request.
std::atomic<bool> stop_requested{false};
std::atomic<long long> first_stop_ns{0};

long long monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

extern "C" void request_stop(int signal_number) {
  const long long now = monotonic_ns();
  if (!stop_requested.exchange(true)) {
    first_stop_ns.store(now);
    return;
  }
  if (now - first_stop_ns.load() > 1000000000LL) {
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
  }
}

void stop_on_signals() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::string models_text(const proofs::Claim& c) {
  std::string s;
  for (const std::string& m : c.models) s += (s.empty() ? "" : ", ") + m;
  return s.empty() ? "any (model-independent)" : s;
}

void print_list() {
  for (const auto& c : proofs::all_claims())
    std::cout << c.id << "  [" << c.paper << ", " << c.lemma << "; " << c.category << "; models " << models_text(c)
              << "; default w " << c.domain.w_lo << ".." << c.domain.w_hi << ", E " << c.domain.E_lo << ".."
              << c.domain.E_hi << "]\n    " << c.statement << "\n    hypotheses: " << c.hypotheses << "\n";
  std::cout << "\nmutations (deliberately broken; each should report a counterexample):\n";
  for (const auto& c : proofs::mutation_claims()) std::cout << c.id << "\n    " << c.statement << "\n";
  // The counts the docs quote (tests/proofs/claims_registry_test.cpp holds them to this).
  std::cout << "\n" << proofs::all_claims().size() << " claims (";
  const auto papers = proofs::paper_names();
  for (std::size_t i = 0; i < papers.size(); ++i) {
    std::size_t n = 0;
    for (const auto& c : proofs::all_claims()) n += proofs::paper_name(c.id) == papers[i];
    std::cout << (i ? ", " : "") << papers[i] << " " << n;
  }
  std::cout << ") and " << proofs::mutation_claims().size() << " mutations\n";
}

void run(const VerifyArgs& a) {
  if (a.list) {
    print_list();
    return;
  }
  for (const std::string& name : a.selection.names)
    if (name.ends_with(".json") || name.ends_with(".md") || name.ends_with(".csv"))
      throw std::invalid_argument("'" + name + "' is a file name, not a claim: --json and --csv print to stdout; "
                                  "write a file with -o " + name);
  proofs::VerifyRequest req;
  if (!a.w.empty()) req.w = proofs::parse_range(a.w, "--w");
  if (!a.E.empty()) req.E = proofs::parse_range(a.E, "--E");
  if (!a.model.empty()) {
    (void)make_preset(a.model);  // an unknown name throws, listing the presets
    req.model = a.model;
  }
  req.options.mode = a.exhaustive ? proofs::Mode::exhaustive : a.sample > 0 ? proofs::Mode::sample : proofs::Mode::automatic;
  req.options.inputs = a.inputs.value_or(64);
  if (!a.inputs && req.options.mode != proofs::Mode::exhaustive) req.options.input_work = proofs::kDefaultInputWork;
  req.options.seed = a.seed;
  req.options.brute_force = a.brute_force;
  req.sample_points = a.sample;
  req.threads = a.threads;
  req.time_limit = a.time_limit;
  req.stop = &stop_requested;
  stop_on_signals();
  const auto stdout_format = a.json ? proofs::CertificateFormat::json
                             : a.csv ? proofs::CertificateFormat::csv
                                     : proofs::CertificateFormat::markdown;
  std::optional<proofs::CertificateFormat> file_format;
  if (!a.output.empty()) {
    file_format = proofs::certificate_format(a.format, a.output, stdout_format);
    // Counterexample traces go next to the certificate.
    const auto dir = std::filesystem::path(a.output).parent_path();
    req.options.artifact_dir = dir.empty() ? "." : dir.string();
  } else if (!a.format.empty()) {
    throw std::invalid_argument("--format chooses the format of -o FILE; without -o use --json or --csv");
  }
  // Under mpirun the ranks share the points (proofs/verifier.hpp); rank 0 prints and writes.
  const Cluster& cluster = Cluster::instance();
  req.cluster = &cluster;
  auto bar = std::make_shared<report::ProgressBar>("points", a.quiet || !cluster.root());
  req.progress = [bar](const proofs::VerifyProgress& p) {
    bar->update(p.done_points, p.total_points,
                p.total_work ? static_cast<double>(p.done_work) / static_cast<double>(p.total_work) : 1.0);
  };

  const proofs::VerifyReport report = proofs::verify(a.selection, req);
  bar->finish();
  exit_code() = report.exit_code();
  if (!cluster.root()) return;
  std::cout << proofs::render_certificate(report, req, stdout_format);
  if (file_format) {
    AtomicFile out(a.output);
    out.write(proofs::render_certificate(report, req, *file_format));
    out.commit();
  }
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "check the papers' claims; exit 0 if all hold, 1 if one fails inside its "
                                           "hypotheses, 3 if one is undecided (a bounded search reached "
                                           "neither way) or the run stopped early (partial), 2 for bad input "
                                           "or when nothing was checked");
  cmd->add_option("claims", args->selection.names,
                  "claim ids (exact), paper names (spaa, hipc, karsin, sigmod, ac, sym) or globs (spaa.lemma2.*); "
                  "default: all");
  cmd->add_flag("--prefix", args->selection.prefix, "also select the claims whose id starts with NAME.");
  cmd->add_flag("--list", args->list, "list the registry and exit");
  cmd->add_option("--w", args->w, "w range A..B, 1..1048576 (overrides every claim's default)");
  cmd->add_option("--E", args->E, "E range A..B, 1..1048576 (overrides every claim's default)");
  auto* ex = cmd->add_flag("--exhaustive", args->exhaustive, "every input at every point (refused when too large)");
  auto* sa = add_integer_option<std::uint64_t>(*cmd, "--sample", args->sample, 1, std::uint64_t{1} << 40,
                                               "check N sampled points per claim (and --inputs per point)");
  ex->excludes(sa);
  add_integer_option<std::uint64_t>(*cmd, "--inputs", args->inputs, std::uint64_t{1}, std::uint64_t{1} << 32,
                                    "sampled inputs per point (default 64, fewer at points whose inputs are large: "
                                    "docs/claims.md; given, exactly N)");
  add_integer_option<std::uint64_t>(*cmd, "--seed", args->seed, 0, ~std::uint64_t{0}, "random seed (default 1)");
  cmd->add_option("--model", args->model,
                  "check only the claims stated for this model (dmm, sm90, kepler-4B, kepler-8B); the others are "
                  "reported 'not applicable'. Default: each claim under its own model");
  auto* js = cmd->add_flag("--json", args->json, "print the certificate as JSON");
  auto* cs = cmd->add_flag("--csv", args->csv, "print the certificate as CSV");
  js->excludes(cs);
  cmd->add_option("-o,--output", args->output,
                  "also write the certificate to FILE (format from --format or the extension .json/.csv/.md); "
                  "counterexample traces go next to it");
  cmd->add_option("--format", args->format, "format of -o FILE: markdown, json or csv");
  add_integer_option<unsigned>(*cmd, "--threads", args->threads, 1, 1024, "worker threads (default: all cores)");
  cmd->add_flag("--quiet", args->quiet, "no progress on stderr");
  add_real_option(*cmd, "--time-limit", args->time_limit, 1e-6, 1e6,
                  "start no point after SECONDS (1e-6..1e6); the certificate then says partial and the exit status is 3");
  cmd->add_flag("--brute-force", args->brute_force,
                "run every claim's brute-force check (the oracle of the fast paths; slower)");
  cmd->callback([args] { run(*args); });
}

}  // namespace bankcheck::cli
