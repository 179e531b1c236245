// CF-Merge's gather (SPAA 2025 Algorithm 1): gathers exactly A_t ∪ B_t and is
// conflict free in the DMM for merge-path splits and random valid splits,
// coprime and not; the two mutations (no reversal, no circular shift) are not.
#include "sim/algorithms/merge/cf_merge.hpp"

#include <doctest/doctest.h>

#include <numeric>

#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

using namespace bankcheck;

namespace {
const SiteCost* site(const AlgorithmReport& r, const std::string& name) {
  for (const auto& s : r.sites)
    if (s.site == name) return &s;
  return nullptr;
}
}  // namespace

TEST_CASE("gather and scatter are conflict free and correct for every split tried") {
  for (std::int64_t w : {4, 6, 8, 9, 12, 32})
    for (std::int64_t E = 1; E <= w; ++E)
      for (std::int64_t random_splits : {0, 1})
        for (std::int64_t kb : {4, 8}) {
          if (w == 32 && E % 5 != 0 && E != 16 && E != 31) continue;  // keep the run short
          CAPTURE(w); CAPTURE(E); CAPTURE(random_splits); CAPTURE(kb);
          const auto model = make_preset("dmm", static_cast<unsigned>(w));
          auto r = run_algorithm("cf-merge",
                                 {{"w", w}, {"E", E}, {"u", 3 * w}, {"key_bytes", kb}, {"blocks", 6},
                                  {"random_splits", random_splits}, {"scatter", 1}},
                                 InputChoice::parse("random", 5), model);
          CHECK(r.outcome.output_ok);
          CHECK(site(r, "cf-merge.gather")->cost.conflicts == 0);
          CHECK(site(r, "cf-merge.scatter")->cost.conflicts == 0);
          CHECK(r.replayed_for_prediction == 0u);
        }
}

TEST_CASE("mutations: without the circular shift gcd(w,E) > 1 conflicts; without reversing B some do") {
  const auto model = make_preset("dmm", 32);
  auto no_shift = run_algorithm("cf-merge", {{"E", 16}, {"u", 64}, {"blocks", 4}, {"circular_shift", 0}},
                                InputChoice::parse("random", 1), model);
  CHECK(no_shift.outcome.output_ok);
  CHECK(site(no_shift, "cf-merge.gather")->cost.worst_degree == 16);  // R_j hits w/d = 2 banks, d = 16 lanes each
  auto no_rev = run_algorithm("cf-merge", {{"E", 15}, {"u", 64}, {"blocks", 4}, {"reverse_b", 0}},
                              InputChoice::parse("random", 1), model);
  CHECK(no_rev.outcome.output_ok);
  CHECK(site(no_rev, "cf-merge.gather")->cost.conflicts > 0);
  CHECK(site(no_rev, "cf-merge.gather")->cost.worst_degree == 2);  // Section 3.1: at most 2 per thread per round
}

TEST_CASE("layout: ρ is a permutation of every partition, π reverses B") {
  for (int w : {6, 8, 12})
    for (int E = 1; E <= w; ++E) {
      CfLayout L;
      L.w = w; L.E = E; L.threads = 2 * w; L.a_count = 5;
      std::vector<int> seen(L.size(), 0);
      for (long p = 0; p < L.size(); ++p) ++seen[L.rho(p)];
      CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
      CHECK(L.b_slot(0) == L.size() - 1);
    }
}
