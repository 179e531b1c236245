#include "sim/algorithms/sigmod/css_tree.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace css_tree_test {

using namespace bankcheck;

namespace {
struct Run {
  test::TallyListener tally;
};
Run run(unsigned m, unsigned levels, bool pad, const std::vector<int>& queries, const BankModel& model) {
  CssTreeSearch<int> s;
  s.keys_per_node = m;
  s.levels = levels;
  s.pad = pad;
  s.threads = static_cast<unsigned>(queries.size());
  s.validate();
  std::vector<int> sorted(s.keys());
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<int>(3 * i + 1);  // 1, 4, 7, ...
  const auto tree = build_css_tree(sorted, m, levels);
  std::vector<std::uint32_t> rank(queries.size(), 12345);
  s.tree = tree.data();
  s.queries = queries.data();
  s.rank = rank.data();
  auto tally = test::tally(s, s.threads, model, s.shared_bytes());
  for (std::size_t t = 0; t < queries.size(); ++t) {
    CAPTURE(queries[t]);
    const auto expect = std::lower_bound(sorted.begin(), sorted.end(), queries[t]) - sorted.begin();
    REQUIRE(rank[t] == expect);
  }
  return {tally};
}
}  // namespace

TEST_CASE("css: ranks equal std::lower_bound") {
  const auto model = make_preset("dmm", 8);
  std::mt19937 rng(3);
  for (unsigned m : {1u, 3u, 8u})
    for (unsigned levels : {1u, 2u, 3u})
      for (bool pad : {false, true}) {
        std::vector<int> q(64);
        for (auto& v : q) v = static_cast<int>(rng() % 800) - 10;
        run(m, levels, pad, q, model);
      }
}

TEST_CASE("css: m = w, lanes in w distinct level-1 nodes: w-way unpadded, conflict-free padded") {
  // Lane t's query goes to child t of the root (between root keys t-1 and t). At the root
  // every lane reads the same key (multicast): m instructions, no conflict. At level 1 lane
  // t reads node t+1's key i at (t+1)*m + i: all in bank i, w distinct cells -> w-way, for
  // each of the m = w probes. Padded: (t+1)(m+1) + i -> banks (t+1+i) mod w, distinct.
  for (unsigned w : {4u, 8u, 16u}) {
    CAPTURE(w);
    const auto model = make_preset("dmm", w);
    const unsigned m = w;
    // Sorted keys are 3k+1; root key i is the (i+1)*(m+1)-1 th key.
    std::vector<int> q(w);
    for (unsigned t = 0; t < w; ++t) q[t] = static_cast<int>(3 * (t * (m + 1)) + 1);  // first key of child t
    auto plain = run(m, 2, false, q, model);
    const auto& probe = plain.tally.sites.at("css.probe");
    CHECK(probe.instructions == 2 * m);
    CHECK(probe.worst_degree == w);
    CHECK(probe.conflicts() == std::uint64_t{m} * (w - 1));
    auto padded = run(m, 2, true, q, model);
    CHECK(padded.tally.sites.at("css.probe").conflicts() == 0);
  }
}

TEST_CASE("css: parameters and tree sizes are checked") {
  CssTreeSearch<int> s;
  s.levels = 0;
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("levels must be in [1, 8]"), std::invalid_argument);
  CHECK_THROWS_AS(build_css_tree(std::vector<int>(5), 2, 2), std::invalid_argument);
}

}  // namespace css_tree_test
