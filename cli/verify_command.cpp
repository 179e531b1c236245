// bankcheck verify: check the papers' claims (proofs/claims_registry.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "model/bank_model.hpp"
#include "proofs/certificate.hpp"
#include "proofs/claims_registry.hpp"
#include "proofs/verifier.hpp"

namespace bankcheck::cli {
namespace {

struct VerifyArgs {
  std::vector<std::string> ids;
  bool list = false;
  std::string w, E;
  bool exhaustive = false;
  std::uint64_t sample = 0;
  std::uint64_t inputs = 64;
  std::uint64_t seed = 1;
  std::string model = "dmm";
  std::string json;
  std::string markdown;
  unsigned threads = 0;
  bool quiet = false;
};

// An id selects itself, or every claim whose id starts with "<id>.".
std::vector<const proofs::Claim*> select(const std::vector<std::string>& ids) {
  std::vector<const proofs::Claim*> out;
  const auto& all = proofs::all_claims();
  if (ids.empty()) {
    for (const auto& c : all) out.push_back(&c);
    return out;
  }
  for (const std::string& id : ids) {
    bool any = false;
    for (const auto& c : all)
      if (c.id == id || c.id.rfind(id + ".", 0) == 0) {
        if (std::find(out.begin(), out.end(), &c) == out.end()) out.push_back(&c);
        any = true;
      }
    if (!any)
      if (const proofs::Claim* m = proofs::find_claim(id)) {  // a mutation, by exact id
        out.push_back(m);
        any = true;
      }
    if (!any) throw std::invalid_argument("unknown claim '" + id + "'; `bankcheck verify --list` shows the " +
                                          std::to_string(all.size()) + " claim ids and the mutations");
  }
  return out;
}

void print_list() {
  for (const auto& c : proofs::all_claims())
    std::cout << c.id << "  [" << c.paper << ", " << c.lemma << "; " << c.category << "; default w " << c.domain.w_lo
              << ".." << c.domain.w_hi << ", E " << c.domain.E_lo << ".." << c.domain.E_hi << "]\n    " << c.statement
              << "\n    hypotheses: " << c.hypotheses << "\n";
  std::cout << "\nmutations (deliberately broken; each should report a counterexample):\n";
  for (const auto& c : proofs::mutation_claims()) std::cout << c.id << "\n    " << c.statement << "\n";
}

void run(const VerifyArgs& a) {
  if (a.list) {
    print_list();
    return;
  }
  if (a.exhaustive && a.sample > 0) throw std::invalid_argument("--exhaustive and --sample exclude each other");
  const auto names = preset_names();
  if (std::find(names.begin(), names.end(), a.model) == names.end()) (void)make_preset(a.model);  // throws, naming them
  if (a.inputs == 0) throw std::invalid_argument("--inputs must be >= 1 (got 0)");

  proofs::VerifyRequest req;
  if (!a.w.empty()) req.w = proofs::parse_range(a.w, "--w");
  if (!a.E.empty()) req.E = proofs::parse_range(a.E, "--E");
  req.options.mode = a.exhaustive ? proofs::Mode::exhaustive : a.sample > 0 ? proofs::Mode::sample : proofs::Mode::automatic;
  req.options.inputs = a.inputs;
  req.options.seed = a.seed;
  req.options.model = a.model;
  req.sample_points = a.sample;
  req.threads = a.threads;
  if (!a.json.empty()) {
    const auto dir = std::filesystem::path(a.json).parent_path();
    req.options.artifact_dir = dir.empty() ? "." : dir.string();
  }
  const bool tty = isatty(STDERR_FILENO) && !a.quiet;
  if (tty)
    req.progress = [](std::uint64_t done, std::uint64_t total) {
      const int width = 40;
      const int filled = total ? static_cast<int>(width * done / total) : width;
      std::fprintf(stderr, "\r[%.*s%*s] %llu/%llu points", filled, "########################################",
                   width - filled, "", static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
      if (done == total) std::fprintf(stderr, "\n");
      std::fflush(stderr);
    };

  const auto claims = select(a.ids);
  const proofs::VerifyReport report = proofs::verify(claims, req);
  const std::string md = proofs::certificate_markdown(report);
  std::cout << md;
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    if (!out) throw std::invalid_argument("cannot write --json file '" + a.json + "'");
    out << proofs::certificate_json(report, req).dump(2) << "\n";
  }
  if (!a.markdown.empty()) {
    std::ofstream out(a.markdown);
    if (!out) throw std::invalid_argument("cannot write --markdown file '" + a.markdown + "'");
    out << md;
  }
  exit_code() = report.exit_code();
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "check the papers' claims; exit 0 if all hold, 1 if one fails inside its "
                                           "hypotheses, 2 for bad input");
  cmd->add_option("claims", args->ids, "claim ids (or prefixes such as spaa.lemma2); default: all");
  cmd->add_flag("--list", args->list, "list the registry and exit");
  cmd->add_option("--w", args->w, "w range A..B (overrides every claim's default)");
  cmd->add_option("--E", args->E, "E range A..B (overrides every claim's default)");
  auto* ex = cmd->add_flag("--exhaustive", args->exhaustive, "every input at every point (refused when too large)");
  auto* sa = cmd->add_option("--sample", args->sample, "check N sampled points per claim (and --inputs per point)");
  ex->excludes(sa);
  cmd->add_option("--inputs", args->inputs, "sampled inputs per point (default 64)")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", args->seed, "random seed (default 1)");
  cmd->add_option("--model", args->model, "bank model preset for replayed claims: dmm, sm90, kepler-4B, kepler-8B");
  cmd->add_option("--json", args->json, "write the JSON certificate here (counterexample traces go next to it)");
  cmd->add_option("--markdown", args->markdown, "also write the markdown table here");
  cmd->add_option("--threads", args->threads, "worker threads (default: all cores)");
  cmd->add_flag("--quiet", args->quiet, "no progress bar");
  cmd->callback([args] { run(*args); });
}

}  // namespace bankcheck::cli
