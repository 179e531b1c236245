// HiPC'15 worst-case PBS query sets, checked with a self-contained DMM count
// (distinct cells of the fullest bank per round) against the proofs' claims.
#include "sim/inputs/pbs_adversary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

using namespace bankcheck::inputs;

namespace {

/// Degree of each round of one warp under the DMM (w banks, one key per cell).
std::vector<std::size_t> brute_degrees(std::uint64_t keys, unsigned w, const std::vector<std::uint64_t>& lanes) {
  std::vector<std::vector<std::uint64_t>> probes;
  for (auto q : lanes) probes.push_back(pbs_probes(keys, q));
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < probes[0].size(); ++k) {
    std::map<std::uint64_t, std::set<std::uint64_t>> bank;
    for (auto& p : probes) bank[p[k] % w].insert(p[k]);
    std::size_t worst = 0;
    for (auto& [b, cells] : bank) worst = std::max(worst, cells.size());
    out.push_back(worst);
  }
  return out;
}

}  // namespace

TEST_CASE("Algorithm 1 probes by hand (K = 16, q = 11): 8, 12, 10, 11, then the check at 11") {
  CHECK(pbs_probes(16, 11) == std::vector<std::uint64_t>{8, 12, 10, 11, 12});
  CHECK(pbs_rounds(16) == 5);
}

TEST_CASE("Corollary 4.1: round k is min(2^(k-1), w)-way, every later round w-way") {
  // w = 2, K = 4, C = 1 is the one case we found where the min() clamp of
  // Algorithm 1 moves the last lane off its bank; the claim is for w >= 4 here.
  for (unsigned w : {4u, 8u, 16u, 32u})
    for (std::uint64_t mult : {1u, 2u, 3u, 4u, 6u, 8u})
      for (std::uint64_t c : {0u, 1u}) {
        const std::uint64_t keys = mult * w * w;
        if (c >= keys / w) continue;
        CAPTURE(w);
        CAPTURE(keys);
        CAPTURE(c);
        const auto set = corollary41_queries(keys, w, w, c);
        const auto deg = brute_degrees(keys, w, set.queries);
        for (std::size_t k = 0; k < deg.size(); ++k)
          CHECK(deg[k] == std::min<std::uint64_t>(std::uint64_t{1} << std::min<std::size_t>(k, 62), w));
        const auto model = bankcheck::make_preset("dmm", w);
        std::uint64_t sum = 0;
        for (auto d : deg) sum += d;
        CHECK(pbs_cost(model, keys, 4, set.queries).total_wavefronts == sum);
        // More queries: every warp repeats the pattern.
        CHECK(pbs_cost(model, keys, 8, corollary41_queries(keys, w, 3 * w, c).queries).total_wavefronts == 3 * sum);
      }
}

TEST_CASE("Lemma 4.2: from round r = 2 log w + 1 on, every round is w-way (K a power of two >= 2w^2)") {
  for (unsigned w : {2u, 4u, 8u, 16u})
    for (std::uint64_t keys : {2ull * w * w, 4ull * w * w, 16ull * w * w}) {
      CAPTURE(w);
      CAPTURE(keys);
      const auto model = bankcheck::make_preset("dmm", w);
      const auto set = lemma42_queries(model, keys, 4, w);
      const auto deg = brute_degrees(keys, w, set.queries);
      REQUIRE(set.first_full_round >= 1);
      for (std::size_t k = set.first_full_round - 1; k < deg.size(); ++k) CHECK(deg[k] == w);
    }
}

TEST_CASE("Lemma 4.2 with the clamps of Algorithm 1 and K not a power of two: what the construction reaches") {
  // The proof assumes 2^(r-1) distinct addresses in round r; the min/max clamps
  // of the pseudo-code merge some of them, so the rounds after r are checked
  // against the fullest bank of round r (the pigeonhole's own bound), not w.
  for (unsigned w : {4u, 8u, 16u})
    for (std::uint64_t keys : {2ull * w * w + 1, 3ull * w * w + 5, 5ull * w * w - 1, 16ull * w * w + 7}) {
      CAPTURE(w);
      CAPTURE(keys);
      const auto model = bankcheck::make_preset("dmm", w);
      const auto set = lemma42_queries(model, keys, 4, w);
      const auto deg = brute_degrees(keys, w, set.queries);
      std::size_t min_after = w;
      for (std::size_t k = set.first_full_round - 1; k < deg.size(); ++k) min_after = std::min(min_after, deg[k]);
      MESSAGE("w=" << w << " K=" << keys << " weakest round from r on: " << min_after << "-way");
      CHECK(min_after >= 2);
    }
}

TEST_CASE("out-of-domain parameters name the constraint and the nearest valid value") {
  CHECK_THROWS_WITH_AS(corollary41_queries(1000, 32, 32), doctest::Contains("nearest valid value: 1024"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(corollary41_queries(2100, 32, 32), doctest::Contains("nearest valid value: 2048"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(lemma42_queries(bankcheck::make_preset("dmm", 32), 100, 4, 32),
                       doctest::Contains("nearest valid value: 2048"), std::invalid_argument);
}

TEST_CASE("corollary41_index: lane i queries K[i*K/w + C], by hand; the query set repeats it per warp") {
  // w = 4, K = 32: K/w = 8, so lanes 0..3 with C = 3 query indices 3, 11, 19, 27.
  CHECK(corollary41_index(32, 4, 0, 3) == 3);
  CHECK(corollary41_index(32, 4, 1, 3) == 11);
  CHECK(corollary41_index(32, 4, 3, 3) == 27);
  static_assert(corollary41_index(1024, 32, 31, 0) == 992, "31 * 1024 / 32");
  const auto set = corollary41_queries(64, 4, 10, 2);  // K/w = 16
  CHECK(set.queries == std::vector<std::uint64_t>{2, 18, 34, 50, 2, 18, 34, 50, 2, 18});
}
