// bench.verify: the verifier's headline workload, timed. All SPAA 2025
// Section 3-4 number-theoretic lemmas for every 1 <= E <= w <= 256 and the
// end-to-end gather claim (sim/algorithms/merge/cf_merge.hpp) for every 1 <= E <= w <= 64,
// on all cores. Prints wall time, CPU time and each claim's thread time.
#include <sys/resource.h>

#include <cstdio>
#include <string>
#include <vector>

#include "proofs/claims_registry.hpp"
#include "proofs/verifier.hpp"

namespace {
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}
}  // namespace

int main() {
  using namespace bankcheck::proofs;
  std::vector<const Claim*> claims;
  for (const Claim& c : all_claims())
    if ((c.paper == "SPAA 2025" && c.category == "number theory") || c.id == "spaa.gather.warp") claims.push_back(&c);
  VerifyRequest req;  // default domains: lemmas 1 <= E <= w <= 256, gather 1 <= E <= w <= 64
  const double cpu0 = cpu_seconds();
  const VerifyReport report = verify(claims, req);
  const double cpu = cpu_seconds() - cpu0;
  std::printf("%-26s %10s %14s %10s %8s\n", "claim", "points", "cases", "thread_s", "status");
  for (const ClaimReport& r : report.claims)
    std::printf("%-26s %10llu %14llu %10.3f %8s\n", r.claim->id.c_str(),
                static_cast<unsigned long long>(r.points_within + r.points_beyond),
                static_cast<unsigned long long>(r.cases_within + r.cases_beyond), r.seconds,
                status_name(r.status).c_str());
  std::printf("claims %zu, threads %u, wall %.3f s, cpu %.3f s, exit %d\n", report.claims.size(), report.threads,
              report.seconds, cpu, report.exit_code());
  return 0;
}
