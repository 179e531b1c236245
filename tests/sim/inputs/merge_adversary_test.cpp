// Checks of the Section 4 (SPAA'25) worst-case merge construction against the
// paper's own numbers and against a self-contained brute force over the DMM
// cost (max distinct cells in one bank), independent of the bank model code.
#include "sim/inputs/merge_adversary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

#include "tests/support/theorem8.hpp"

using namespace bankcheck::inputs;

namespace {

using bankcheck::test::theorem8_per_warp;  // the paper's closing formula (Theorem 8 over d subproblems)

/// DMM brute force: step j, thread t reads the j-th item it outputs; A at [0,|A|), B right after.
std::uint64_t brute_paper_steps(const std::vector<std::uint8_t>& from_b, unsigned w, unsigned E) {
  const std::size_t na = std::count(from_b.begin(), from_b.end(), 0);
  std::vector<std::size_t> pos(from_b.size());
  std::size_t ca = 0, cb = na;
  for (std::size_t k = 0; k < from_b.size(); ++k) pos[k] = from_b[k] ? cb++ : ca++;
  std::uint64_t total = 0;
  for (unsigned j = 0; j < E; ++j) {
    std::map<std::size_t, std::set<std::size_t>> bank;
    for (unsigned t = 0; t < w; ++t) bank[pos[t * E + j] % w].insert(pos[t * E + j]);
    std::size_t worst = 0;
    for (auto& [b, cells] : bank) worst = std::max(worst, cells.size());
    total += worst;
  }
  return total;
}

}  // namespace

TEST_CASE("Figure 4 (w = 12, E = 5): the sequence T assigns the cells the figure shows") {
  const auto p = section4_parameters(12, 5);
  const std::vector<MergeSplit> expected = {{2, 3}, {5, 0}, {5, 0}, {1, 4}, {0, 5}, {1, 4},
                                            {5, 0}, {5, 0}, {2, 3}, {0, 5}, {5, 0}, {5, 0}};
  CHECK(section4_t(p) == expected);
  CHECK(section4_s(p) == std::vector<MergeSplit>{{2, 3}, {1, 4}, {1, 4}, {2, 3}});
}

TEST_CASE("T has w/d tuples of E items and fills whole columns; the warp reaches Theorem 8") {
  for (unsigned w = 2; w <= 40; ++w)
    for (unsigned E = 2; E <= w; ++E) {
      CAPTURE(w);
      CAPTURE(E);
      const auto p = section4_parameters(w, E);
      const unsigned d = std::gcd(w, E);
      const auto t = section4_t(p);
      REQUIRE(t.size() == w / d);
      unsigned a = 0;
      for (const auto& s : t) {
        CHECK(s.from_a + s.from_b == E);
        a += s.from_a;
      }
      CHECK(a == (E / d + 1) / 2 * w);  // ceil(E/2d) columns of A
      for (bool a_major : {true, false}) {
        const auto splits = worst_warp_splits(p, a_major);
        REQUIRE(splits.size() == w);
        const auto labels = labels_from_splits(splits, w);
        CHECK(splits_from_labels(labels, E) == splits);
        const std::uint64_t got = brute_paper_steps(labels, w, E);
        CHECK(got >= theorem8_per_warp(w, E));
        if (2 * E <= w) CHECK(got == theorem8_per_warp(w, E));  // Case 1: exactly E^2, the most E steps can cost
        // The bank model (dmm preset) agrees with the brute force.
        const auto model = bankcheck::make_preset("dmm", w);
        const std::size_t na = std::count(labels.begin(), labels.end(), 0);
        CHECK(merge_warp_cost(model, {labels, E, 0, na}, 4, MergeReads::paper_steps).total_wavefronts == got);
      }
    }
}

TEST_CASE("exhaustive maximum over every labeling of a tiny warp is no more than E^2 and the construction's") {
  struct Case {
    unsigned w, E;
  };
  for (Case c : {Case{3, 2}, Case{3, 3}, Case{4, 2}, Case{4, 3}, Case{4, 4}, Case{5, 3}, Case{6, 2}, Case{6, 3}}) {
    CAPTURE(c.w);
    CAPTURE(c.E);
    const unsigned n = c.w * c.E;
    std::uint64_t best = 0;
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
      std::vector<std::uint8_t> labels(n);
      for (unsigned k = 0; k < n; ++k) labels[k] = (mask >> k) & 1;
      best = std::max(best, brute_paper_steps(labels, c.w, c.E));
    }
    const auto p = section4_parameters(c.w, c.E);
    const std::uint64_t built = brute_paper_steps(labels_from_splits(worst_warp_splits(p, true), c.w), c.w, c.E);
    MESSAGE("w=" << c.w << " E=" << c.E << " exhaustive max " << best << ", construction " << built
                 << ", Theorem 8 " << theorem8_per_warp(c.w, c.E));
    CHECK(best <= std::uint64_t{c.E} * c.E);
    CHECK(built <= best);
    CHECK(built >= theorem8_per_warp(c.w, c.E));
  }
}

TEST_CASE("merge lists follow the labeling") {
  const std::vector<std::uint8_t> labels = {0, 1, 1, 0, 1};
  const auto lists = merge_lists_from_labels(labels);
  CHECK(lists.a == std::vector<std::int64_t>{0, 3});
  CHECK(lists.b == std::vector<std::int64_t>{1, 2, 4});
}

TEST_CASE("parameters outside 1 < E <= w name the constraint and the nearest valid value") {
  CHECK_THROWS_WITH_AS(section4_parameters(32, 1), doctest::Contains("nearest valid value: 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(section4_parameters(32, 40), doctest::Contains("nearest valid value: 32"),
                       std::invalid_argument);
}
