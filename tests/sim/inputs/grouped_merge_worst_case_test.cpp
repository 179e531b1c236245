// The grouped-merge worst case (sim/inputs/grouped_merge_worst_case.hpp) against
// an independent brute force: every balanced labeling of every group of a
// tiny warp, counted step by step with a map of bank -> cells (the DMM rule
// written out again here, not the library's counter).
#include "sim/inputs/grouped_merge_worst_case.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

using namespace bankcheck::inputs;

namespace {

/// Paper-step DMM cost of one warp's labeling: step j reads thread t's j-th
/// merged output; group g's A starts at element g*mE, its B at g*mE + mE/2 (+ b_offset).
std::uint64_t brute_cost(const GroupedMergeShape& s, const std::vector<std::uint8_t>& from_b) {
  const unsigned G = s.group();
  std::vector<std::uint64_t> pos;
  for (unsigned g = 0; g < s.warp / s.merge_threads; ++g) {
    std::uint64_t a = std::uint64_t{g} * G, b = a + G / 2 + s.b_offset;
    for (unsigned k = 0; k < G; ++k) pos.push_back(from_b[g * G + k] ? b++ : a++);
  }
  std::uint64_t total = 0;
  for (unsigned j = 0; j < s.items; ++j) {
    std::map<std::uint64_t, std::set<std::uint64_t>> cells;
    for (unsigned t = 0; t < s.warp; ++t) cells[pos[t * s.items + j] % s.warp].insert(pos[t * s.items + j]);
    std::size_t worst = 0;
    for (const auto& [bank, c] : cells) worst = std::max(worst, c.size());
    total += worst;
  }
  return total;
}

/// Maximum of brute_cost over all labelings whose groups are balanced.
std::uint64_t brute_maximum(const GroupedMergeShape& s) {
  const unsigned G = s.group(), groups = s.warp / s.merge_threads;
  std::vector<std::uint8_t> one(G, 0);
  std::fill(one.begin() + G / 2, one.end(), 1);
  std::vector<std::vector<std::uint8_t>> digits(groups, one);
  std::uint64_t best = 0;
  while (true) {
    std::vector<std::uint8_t> labels;
    for (const auto& d : digits) labels.insert(labels.end(), d.begin(), d.end());
    best = std::max(best, brute_cost(s, labels));
    unsigned g = 0;
    while (g < groups && !std::next_permutation(digits[g].begin(), digits[g].end())) ++g;
    if (g == groups) break;
  }
  return best;
}

bool balanced(const GroupedMergeShape& s, const std::vector<std::uint8_t>& from_b) {
  const unsigned G = s.group();
  for (std::size_t base = 0; base < from_b.size(); base += G)
    if (std::count(from_b.begin() + base, from_b.begin() + base + G, 1) != G / 2) return false;
  return from_b.size() == std::size_t{s.warp} * s.items;
}

}  // namespace

TEST_CASE("the exact grouped worst case equals the brute-force maximum over all labelings") {
  // (w, E, m) with at most ~10^6 labelings for the brute force.
  struct Case {
    unsigned w, E, m;
  };
  for (Case c : {Case{2, 2, 1}, Case{2, 2, 2}, Case{4, 2, 1}, Case{4, 2, 2}, Case{4, 3, 2}, Case{4, 4, 1},
                 Case{4, 2, 4}, Case{4, 3, 4}, Case{4, 4, 2}, Case{6, 2, 2}, Case{6, 3, 2}, Case{6, 2, 3},
                 Case{8, 2, 2}, Case{8, 3, 2}, Case{8, 2, 4}, Case{8, 2, 8}, Case{8, 3, 4}}) {
    const GroupedMergeShape s{c.w, c.E, c.m};
    CAPTURE(c.w);
    CAPTURE(c.E);
    CAPTURE(c.m);
    const GroupedWorstCase r = grouped_worst_case(s, SearchBudget{10, 1, ~std::uint64_t{0}});
    REQUIRE(r.exact);
    CHECK(balanced(s, r.from_b));
    CHECK(brute_cost(s, r.from_b) == r.cost);   // the labeling really costs what is reported
    CHECK(r.cost == brute_maximum(s));          // and nothing costs more
    CHECK(r.cost <= std::uint64_t{c.E} * c.E);  // E cells per bank in the warp's span
  }
}

TEST_CASE("one warp whose B part starts in the bank of its A part (a warp of a wide merge)") {
  // Gap = -wE/2 mod w, as for a warp inside a merge of >= 2 warps. The cells
  // per bank are no longer E, and the maximum can exceed E^2.
  struct Case {
    unsigned w, E, gap;
  };
  for (Case c : {Case{4, 3, 2}, Case{6, 3, 3}, Case{2, 1, 1}, Case{4, 1, 2}}) {
    const GroupedMergeShape s{c.w, c.E, c.w, c.gap};
    CAPTURE(c.w);
    CAPTURE(c.E);
    const GroupedWorstCase r = grouped_worst_case(s, SearchBudget{10, 1, ~std::uint64_t{0}});
    REQUIRE(r.exact);
    CHECK(balanced(s, r.from_b));
    CHECK(brute_cost(s, r.from_b) == r.cost);
    CHECK(r.cost == brute_maximum(s));
    MESSAGE("w = " << c.w << ", E = " << c.E << ", gap " << c.gap << ": maximum " << r.cost << ", E^2 = " << c.E * c.E);
  }
  // w = 6, E = 3 (E <= w/2, so Theorem 8 = E^2 = 9): the brute-force maximum above exceeds it.
  CHECK(brute_maximum({6, 3, 6, 3}) > 9);
  CHECK_THROWS_WITH_AS(check_grouped_merge_shape({8, 3, 4, 4}), doctest::Contains("m = w = 8"), std::invalid_argument);
}

TEST_CASE("for fixed targets the labeling's hits are counted right and are optimal") {
  // Hits recounted by hand from the labeling; optimality against every labeling of one tiny shape.
  const GroupedMergeShape s{4, 3, 2};
  for (unsigned t0 = 0; t0 < 4; ++t0)
    for (unsigned t2 = 0; t2 < 4; ++t2) {
      const std::vector<unsigned> targets = {t0, (t0 + 1) % 4, t2};
      const TargetedLabeling l = best_labeling_for_targets(s, targets);
      REQUIRE(balanced(s, l.from_b));
      auto hits_of = [&](const std::vector<std::uint8_t>& from_b) {
        std::uint64_t hits = 0;
        for (unsigned g = 0; g < 2; ++g) {
          std::uint64_t a = g * 6, b = a + 3;
          std::vector<std::uint64_t> pos;
          for (unsigned k = 0; k < 6; ++k) pos.push_back(from_b[g * 6 + k] ? b++ : a++);
          for (unsigned k = 0; k < 6; ++k) hits += pos[k] % 4 == targets[k % 3];
        }
        return hits;
      };
      CHECK(hits_of(l.from_b) == l.hits);
      std::vector<std::uint8_t> one = {0, 0, 0, 1, 1, 1}, two = one;
      std::uint64_t best = 0;
      do {
        do {
          std::vector<std::uint8_t> all = one;
          all.insert(all.end(), two.begin(), two.end());
          best = std::max(best, hits_of(all));
        } while (std::next_permutation(two.begin(), two.end()));
      } while (std::next_permutation(one.begin(), one.end()));
      CHECK(l.hits == best);
    }
}

TEST_CASE("shapes outside the domain name the constraint") {
  CHECK_THROWS_WITH_AS(check_grouped_merge_shape({32, 33, 2}), doctest::Contains("1..w = 32"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_grouped_merge_shape({32, 17, 3}), doctest::Contains("must divide w"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_grouped_merge_shape({32, 17, 1}), doctest::Contains("m E must be even"),
                       std::invalid_argument);
}
