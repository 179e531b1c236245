// The search: exhaustive mode must find the true maximum (checked against a
// plain enumeration here), annealing must find known optima of easy
// landscapes and the paper's maximum where a bound pins it, and the grouped
// paper-step cost must match hand counts.
#include "sim/inputs/adversary_search.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace bankcheck::inputs;

TEST_CASE("grouped paper-step cost by hand (w = 2, E = 2, one group of 4)") {
  const GroupedLabels shape{2, 2, 4};
  // Outputs A0 A1 | B0 B1: thread 0 reads A0 (cell 0) then A1 (1); thread 1 reads B0 (2) then B1 (3).
  // Step 0: cells 0, 2 -> both in bank 0: 2-way. Step 1: cells 1, 3 -> bank 1: 2-way. Total 4.
  CHECK(grouped_paper_cost(shape, {0, 0, 1, 1}) == 4);
  // A0 B0 | A1 B1: step 0 reads cells 0 and 1 (banks 0, 1): 1; step 1 reads 2 and 3: 1. Total 2.
  CHECK(grouped_paper_cost(shape, {0, 1, 0, 1}) == 2);
}

TEST_CASE("exhaustive label search returns the maximum of a plain enumeration") {
  for (unsigned w : {2u, 4u})
    for (unsigned E : {2u, 3u}) {
      for (unsigned group : {2 * E, w * E}) {
        if ((w * E) % group != 0 || group % 2 != 0) continue;
        CAPTURE(w);
        CAPTURE(E);
        CAPTURE(group);
        const GroupedLabels shape{w, E, group};
        auto cost = [&](const std::vector<std::uint8_t>& l) { return grouped_paper_cost(shape, l); };
        const auto r = search_labels(w * E, group, cost, {}, SearchBudget{10, 1, ~std::uint64_t{0}});
        REQUIRE(r.exhaustive);
        std::uint64_t best = 0;
        const unsigned n = w * E;
        for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
          std::vector<std::uint8_t> l(n);
          bool balanced = true;
          for (unsigned k = 0; k < n; ++k) l[k] = (mask >> k) & 1;
          for (unsigned g = 0; g < n; g += group)
            balanced &= std::count(l.begin() + g, l.begin() + g + group, 1) == group / 2;
          if (balanced) best = std::max(best, cost(l));
        }
        CHECK(r.cost == best);
        CHECK(cost(r.from_b) == r.cost);
      }
    }
}

TEST_CASE("vector search: exhaustive maximum, and annealing on a one-peak landscape") {
  auto peak = [](const std::vector<std::uint64_t>& v) {
    std::uint64_t s = 0;
    for (std::size_t i = 0; i < v.size(); ++i) s += 100 - (v[i] > 7 ? v[i] - 7 : 7 - v[i]);  // best: every lane 7
    return s;
  };
  const auto ex = search_vectors(3, 10, peak, SearchBudget{10, 1, ~std::uint64_t{0}});
  CHECK(ex.exhaustive);
  CHECK(ex.cost == 300);
  CHECK(ex.values == std::vector<std::uint64_t>{7, 7, 7});
  const auto an = search_vectors(12, 16, peak, SearchBudget{10, 3, 200000}, 1000);
  CHECK_FALSE(an.exhaustive);
  CHECK(an.cost == 1200);
}

TEST_CASE("split search on one warp-wide group finds the maximum, E^2 (E <= w/2)") {
  // What it must find, from the paper and a counting bound, not from the code:
  // a step reads w of the warp's wE distinct cells [0, wE), and a bank holds
  // only E of them, so a step costs at most E and a merge at most E^2; SPAA
  // 2025 Theorem 8 (E <= w/2) constructs a merge that costs E^2. So the
  // maximum is E^2, and a search that stops short of it fails here. Where E
  // does not divide w (8, 3 and 10, 4) the search's starting labeling costs
  // less (3 and 8), so these cases test the search itself.
  struct Case {
    unsigned w, E;
  };
  for (Case c : {Case{8, 4}, Case{8, 3}, Case{10, 4}}) {
    CAPTURE(c.w);
    CAPTURE(c.E);
    const GroupedLabels shape{c.w, c.E, c.w * c.E};
    const auto r = search_splits(shape, SearchBudget{2, 5, 200000});
    CHECK(r.cost == grouped_paper_cost(shape, r.from_b));
    CHECK(std::count(r.from_b.begin(), r.from_b.end(), 1) == c.w * c.E / 2);
    CHECK(r.cost == c.E * c.E);
  }
}

TEST_CASE("bad shapes are rejected with the reason") {
  CHECK_THROWS_AS(grouped_paper_cost(GroupedLabels{4, 3, 5}, std::vector<std::uint8_t>(12)), std::invalid_argument);
  CHECK_THROWS_AS(search_labels(12, 5, [](const auto&) { return std::uint64_t{0}; }, {}, SearchBudget{}),
                  std::invalid_argument);
}
