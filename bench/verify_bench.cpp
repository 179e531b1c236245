// bench.verify: the claims checker's fast paths against its brute-force
// oracle on one workload, in one run. Default: every SPAA 2025 claim over
// w = 1..64, E = 1..128 (what `bankcheck verify spaa --w 1..64 --E 1..128`
// checks), then the default registry (`bankcheck verify`). Prints, per
// claim, the median thread seconds of each path and their ratio, whether the
// verdicts (status, cases, first counterexample and finding) agree, and the
// medians of wall and CPU seconds (CPU: the machine is shared, so wall time
// alone says little).
//   bench.verify [--w A..B] [--E A..B] [--reps N] [--brute-reps M] [--threads T] [NAME ...]
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "proofs/claim_selection.hpp"
#include "proofs/claims_registry.hpp"
#include "proofs/verifier.hpp"

namespace {

using namespace bankcheck::proofs;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Timed {
  std::vector<VerifyReport> reports;
  std::vector<double> wall, cpu;
};

Timed time_runs(const std::vector<const Claim*>& claims, VerifyRequest req, bool brute, unsigned reps) {
  req.options.brute_force = brute;
  Timed t;
  for (unsigned i = 0; i < reps; ++i) {
    const double cpu0 = cpu_seconds();
    t.reports.push_back(verify(claims, req));
    t.cpu.push_back(cpu_seconds() - cpu0);
    t.wall.push_back(t.reports.back().seconds);
  }
  return t;
}

std::string verdict(const ClaimReport& r) {
  std::string s = status_name(r.status) + "/" + std::to_string(r.cases_within + r.cases_beyond);
  if (r.counterexample) s += "/" + r.counterexample->detail;
  if (r.finding) s += "/" + r.finding->detail;
  return s;
}

double ratio(double slow, double fast) { return fast > 0 ? slow / fast : 0; }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.verify: fast paths against the brute-force oracle"};
  std::string w = "1..64", E = "1..128";
  unsigned reps = 3, brute_reps = 1, threads = 0;
  std::vector<std::string> names = {"spaa"};
  app.add_option("--w", w, "w range (default 1..64)");
  app.add_option("--E", E, "E range (default 1..128)");
  app.add_option("--reps", reps, "runs of the fast paths (default 3)")->check(CLI::Range(1u, 100u));
  app.add_option("--brute-reps", brute_reps, "runs of the brute force (default 1; 0 = skip)")->check(CLI::Range(0u, 100u));
  app.add_option("--threads", threads, "worker threads (default: all cores)");
  app.add_option("names", names, "claims (verify's names; default spaa)");
  CLI11_PARSE(app, argc, argv);

  VerifyRequest req;
  req.w = parse_range(w, "--w");
  req.E = parse_range(E, "--E");
  req.threads = threads;
  req.options.input_work = kDefaultInputWork;  // what `bankcheck verify` samples without --inputs
  const auto claims = select_claims(ClaimSelection{names, false});
  std::printf("workload: verify %s --w %s --E %s, %zu claims; %u fast run(s), %u brute-force run(s)\n",
              names.front().c_str(), w.c_str(), E.c_str(), claims.size(), reps, brute_reps);
  const Timed fast = time_runs(claims, req, false, reps);
  const Timed brute = time_runs(claims, req, true, brute_reps);
  std::printf("%-28s %12s %12s %9s  %s\n", "claim", "fast_s", "brute_s", "ratio", "same verdict");
  bool all_same = true;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    std::vector<double> f, b;
    for (const auto& r : fast.reports) f.push_back(r.claims[i].seconds);
    for (const auto& r : brute.reports) b.push_back(r.claims[i].seconds);
    bool same = true;
    for (const auto& r : fast.reports) same = same && verdict(r.claims[i]) == verdict(fast.reports[0].claims[i]);
    for (const auto& r : brute.reports) same = same && verdict(r.claims[i]) == verdict(fast.reports[0].claims[i]);
    all_same = all_same && same;
    std::printf("%-28s %12.3f %12.3f %9.1f  %s (%s)\n", claims[i]->id.c_str(), median(f), median(b),
                ratio(median(b), median(f)), same ? "yes" : "NO", status_name(fast.reports[0].claims[i].status).c_str());
  }
  std::printf("fast:  wall %.2f s, cpu %.2f s (medians of %u), %u threads, exit %d\n", median(fast.wall),
              median(fast.cpu), reps, fast.reports[0].threads, fast.reports[0].exit_code());
  if (brute_reps > 0)
    std::printf("brute: wall %.2f s, cpu %.2f s (medians of %u); ratio wall %.1f, cpu %.1f\n", median(brute.wall),
                median(brute.cpu), brute_reps, ratio(median(brute.wall), median(fast.wall)),
                ratio(median(brute.cpu), median(fast.cpu)));
  std::printf("verdicts %s\n", brute_reps == 0 ? "(no brute-force run)" : all_same ? "identical" : "DIFFER");

  // The default registry, fast paths: `bankcheck verify`.
  std::vector<const Claim*> every;
  for (const Claim& c : all_claims()) every.push_back(&c);
  VerifyRequest defaults;
  defaults.threads = threads;
  defaults.options.input_work = kDefaultInputWork;
  const Timed registry = time_runs(every, defaults, false, reps);
  std::printf("default registry (%zu claims): wall %.2f s, cpu %.2f s (medians of %u), exit %d\n", every.size(),
              median(registry.wall), median(registry.cpu), reps, registry.reports[0].exit_code());
  return all_same ? 0 : 1;
}
