// CF-Merge's gather (SPAA 2025 Algorithm 1): gathers exactly A_t ∪ B_t and is
// conflict free in the DMM for merge-path splits and random valid splits,
// coprime and not; the two mutations (no reversal, no circular shift) are not.
// The kernel's forms (CfTileLayout, cf_gather_rounds) give the same slots, and
// the register merge of the gathered items sorts them for every E.
#include "sim/algorithms/merge/cf_merge.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace cf_merge_test {

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
          CHECK(site(r, "cf-merge.gather")->cost.conflicts() == 0);
          CHECK(site(r, "cf-merge.scatter")->cost.conflicts() == 0);
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
  CHECK(site(no_rev, "cf-merge.gather")->cost.conflicts() > 0);
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

TEST_CASE("cf_gather_rounds: the same slots as Algorithm 1 written out, for CfLayout and CfTileLayout") {
  // Algorithm 1 literally: k = a_i mod E; round j reads A_i[(j-k) mod E] if that is < |A_i|,
  // else B_i[(k-j-1) mod E] (lines 3-8).
  auto mod = [](long x, long m) { return ((x % m) + m) % m; };
  for (int w : {8, 16, 32})
    for (int E : {1, 3, 4, 8, 12, 15, 16, 17}) {
      if (E > w) continue;
      CfLayout L;
      L.w = w; L.E = E; L.threads = 2 * w; L.a_count = 3 * w + 1;
      for (long a_i = 0; a_i < 40; a_i += 3)
        for (long a_len = 0; a_len <= E; ++a_len) {
          const long b_i = 5;
          std::vector<long> got(E, -1), want(E, -1);
          cf_gather_slots(L, a_i, a_len, b_i, [&](long j, long slot) { got[j] = slot; });
          const long k = a_i % E;
          for (long j = 0; j < E; ++j)
            want[j] = mod(j - k, E) < a_len ? L.rho(mod(j - k, E) + a_i) : L.rho(L.b_slot(mod(k - j - 1, E) + b_i));
          CHECK(got == want);
        }
    }
  // CfTileLayout<w, E, whole> is CfLayout's ρ for a whole block
  auto same_rho = [](auto tile_layout, int w, int E, int threads) {
    CfLayout L;
    L.w = w; L.E = E; L.threads = threads; L.a_count = 7;
    tile_layout.offset = 0; tile_layout.count = threads * E; tile_layout.a_count = 7; tile_layout.total = threads * E;
    bool same = true;
    for (int p = 0; p < threads * E; ++p)
      same = same && tile_layout.rho(p) == L.rho(p) && tile_layout.b_slot(p) == L.b_slot(p);
    return same;
  };
  CHECK(same_rho(CfTileLayout<32, 16, true>{}, 32, 16, 64));
  CHECK(same_rho(CfTileLayout<32, 16, false>{}, 32, 16, 64));
  CHECK(same_rho(CfTileLayout<16, 8, true>{}, 16, 8, 32));
  CHECK(same_rho(CfTileLayout<32, 12, true>{}, 32, 12, 64));
  CHECK(same_rho(CfTileLayout<32, 15, true>{}, 32, 15, 64));
  CHECK(same_rho(CfTileLayout<8, 6, false>{}, 8, 6, 16));
}

namespace {
/// The register merge on every split, rotation and partial fill tried: keys
/// ascending, the valid items a permutation of A_i ∪ B_i (values with them).
template <int E>
bool merge_ok(std::mt19937& g, int trials) {
  for (int trial = 0; trial < trials; ++trial) {
    int a_len = static_cast<int>(g() % (E + 1)), b_len = E - a_len;
    const bool partial = g() % 3 == 0;
    if (partial) {
      int drop = static_cast<int>(g() % (E + 1));
      while (drop-- > 0) {
        if (a_len > 0 && (g() & 1)) --a_len;
        else if (b_len > 0) --b_len;
        else if (a_len > 0) --a_len;
      }
    }
    const int range = 1 + static_cast<int>(g() % 8);  // many duplicates
    std::vector<int> A(a_len), B(b_len);
    for (auto& x : A) x = static_cast<int>(g() % range);
    for (auto& x : B) x = static_cast<int>(g() % range);
    std::sort(A.begin(), A.end());
    std::sort(B.begin(), B.end());
    const unsigned k = static_cast<unsigned>(g() % E);
    int keys[E], vals[E];
    bool valid[E];
    for (int j = 0; j < E; ++j) {  // round j of Algorithm 1
      const int t = ((j - static_cast<int>(k)) % E + E) % E;
      valid[j] = true;
      if (t < a_len) { keys[j] = A[t]; vals[j] = 1000 + t; }
      else if (E - 1 - t < b_len) { keys[j] = B[E - 1 - t]; vals[j] = 2000 + E - 1 - t; }
      else { keys[j] = -1; vals[j] = -1; valid[j] = false; }
    }
    std::vector<std::pair<int, int>> want;
    for (int i = 0; i < a_len; ++i) want.push_back({A[i], 1000 + i});
    for (int i = 0; i < b_len; ++i) want.push_back({B[i], 2000 + i});
    auto less = [](int x, int y) { return x < y; };
    if (a_len + b_len < E) cf_merge_gathered<E, true>(keys, vals, valid, k, less);
    else cf_merge_gathered<E, false>(keys, vals, valid, k, less);
    std::vector<std::pair<int, int>> got;
    for (int j = 0; j < a_len + b_len; ++j) {
      if (!valid[j] || (!got.empty() && keys[j] < got.back().first)) return false;
      got.push_back({keys[j], vals[j]});
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (got != want) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("cf_merge_gathered: the gather's cyclic bitonic order merges for every E") {
  std::mt19937 g(7);
  CHECK(merge_ok<1>(g, 200));
  CHECK(merge_ok<2>(g, 500));
  CHECK(merge_ok<3>(g, 1000));
  CHECK(merge_ok<4>(g, 1000));
  CHECK(merge_ok<5>(g, 2000));
  CHECK(merge_ok<7>(g, 2000));
  CHECK(merge_ok<8>(g, 3000));
  CHECK(merge_ok<12>(g, 3000));
  CHECK(merge_ok<15>(g, 3000));
  CHECK(merge_ok<16>(g, 3000));
  CHECK(merge_ok<17>(g, 3000));
  CHECK(merge_ok<31>(g, 2000));
  CHECK(merge_ok<32>(g, 2000));
  // Compare-exchanges: E/2 log2 E for powers of two (Batcher), fewer than
  // Section 5's E(E-1)/2 odd-even transposition for every E > 3.
  CHECK(cf_merge_plan<16>().count == 32);
  CHECK(cf_merge_plan<8>().count == 12);
  CHECK(cf_merge_plan<15>().count == 28);
  CHECK(cf_merge_plan<17>().count == 33);
}

}  // namespace cf_merge_test
