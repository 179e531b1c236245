// The CUB-style pairwise merge: output == std::merge on many shapes; the
// blocked store of E items per thread at stride E is gcd(w, E)-way in the DMM.
#include "sim/algorithms/merge/pairwise_merge.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <numeric>

#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;

TEST_CASE("pairwise merge output is the stable merge (powers of two and not, 4- and 8-byte keys)") {
  for (std::int64_t w : {4, 12, 32})
    for (std::int64_t E : {1, 2, 3, 7, 8, 15, 16})
      for (std::int64_t u : {w, 2 * w + 3})
        for (std::int64_t kb : {4, 8}) {
          CAPTURE(w); CAPTURE(E); CAPTURE(u); CAPTURE(kb);
          const auto model = make_preset("dmm", static_cast<unsigned>(w));
          auto r = run_algorithm("merge", {{"w", w}, {"E", E}, {"u", u}, {"key_bytes", kb}, {"blocks", 5}},
                                 InputChoice::parse("random", 11), model);
          CHECK(r.outcome.output_ok);
          // Blocked store: round i writes slots t*E + i; lanes t, t + w/d collide: d-way
          // (d = gcd(w, E)) in every full warp — computed here from the layout alone.
          const std::int64_t d = std::gcd(w, E);
          for (const auto& s : r.sites)
            if (s.site == "merge.store_tile") CHECK(s.cost.worst_degree == static_cast<std::uint32_t>(d));
        }
}

TEST_CASE("extreme splits (all of A or none) and a file input") {
  const auto model = make_preset("dmm", 32);
  for (std::int64_t a : {0, 32 * 5, 64 * 5})
    CHECK(run_algorithm("merge", {{"E", 5}, {"u", 64}, {"a_size", a}}, InputChoice::parse("random", 2), model)
              .outcome.output_ok);
  CHECK_THROWS_WITH_AS(run_algorithm("merge", {{"E", 0}}, InputChoice::parse("random", 1), model),
                       doctest::Contains("E (items per thread)"), std::invalid_argument);
  // --input worst is SPAA Section 4's construction: 1 < E <= w and whole warps.
  CHECK(run_algorithm("merge", {}, InputChoice::parse("worst", 1), model).outcome.output_ok);
  CHECK_THROWS_WITH_AS(run_algorithm("merge", {{"E", 1}}, InputChoice::parse("worst", 1), model),
                       doctest::Contains("1 < E <= w"), std::invalid_argument);
}

TEST_CASE("hand-computed trace: w = 2, E = 2, u = 2, every item from A") {
  // Tile A = {0,1,2,3}, B empty, keys_shared has 5 slots. Thread 0: split 0, a = 0,
  // b = 4; thread 1: split 2, a = 2, b = 4. init_a reads cells 0 and 2 (bank 0
  // twice: 2 wavefronts); init_b reads cell 4 twice (multicast: 1); the one
  // refill reads cells 1 and 3 (bank 1 twice: 2). Total 5 = E² + 1
  // (docs/formula-findings.md, item 12).
  const auto model = make_preset("dmm", 2);
  const std::string path = bankcheck::test::scratch("pairwise_merge_allA.txt");
  std::ofstream(path) << "0 1 2 3\n";
  auto r = run_algorithm("merge", {{"w", 2}, {"E", 2}, {"u", 2}, {"a_size", 4}}, InputChoice::parse(path, 1), model);
  CHECK(r.outcome.output_ok);
  std::map<std::string, std::uint64_t> wf;
  for (const auto& s : r.sites) wf[s.site] = s.cost.wavefronts;
  CHECK(wf["merge.init_a"] == 2);
  CHECK(wf["merge.init_b"] == 1);
  CHECK(wf["merge.merge_read"] == 2);
  CHECK(wf["merge.path_a"] == 0);  // diagonal 0 and (|B| = 0) diagonal 2 need no probe
}
