#include "proofs/claims_registry.hpp"

#include <doctest/doctest.h>

#include <set>

#include "proofs/algorithm_claims.hpp"
#include "proofs/spaa_residues.hpp"

using namespace bankcheck::proofs;

namespace {
/// Check a claim at one point with the default options.
PointResult at(const Claim& c, std::uint64_t w, std::uint64_t E) { return c.check({w, E}, CheckOptions{}); }
}  // namespace

TEST_CASE("every claim is complete and ids are unique") {
  std::set<std::string> ids;
  for (const Claim& c : all_claims()) {
    CHECK(ids.insert(c.id).second);
    CHECK_FALSE(c.paper.empty());
    CHECK_FALSE(c.statement.empty());
    CHECK(c.check);
    CHECK(c.region);
    CHECK(c.exhaustive_cases);
  }
  CHECK(find_claim("spaa.lemma1") != nullptr);
  CHECK(find_claim("no.such.claim") == nullptr);
}

TEST_CASE("the number-theory lemmas hold at hand-picked points, including the paper's figures") {
  // Figure 2 (w = 12, E = 5), Figure 3 (w = 9, E = 6), Figure 8 (w = 6, E = 4).
  for (const char* id : {"spaa.lemma2.1", "spaa.lemma2.2", "spaa.corollary3", "spaa.round_formula", "spaa.shift_round"})
    for (auto [w, E] : {std::pair{12, 5}, {9, 6}, {6, 4}, {32, 17}, {32, 16}}) {
      const PointResult r = at(*find_claim(id), w, E);
      CHECK_MESSAGE(!r.counterexample, id, " at w=", w, " E=", E);
      CHECK(r.cases > 0);
    }
}

TEST_CASE("Lemma 1 is stated for coprime w, E; its converse catches d > 1") {
  const Claim& tight = *find_claim("spaa.lemma1.tight");
  CHECK(tight.region({12, 6}) == Region::within);
  CHECK(tight.region({12, 5}) == Region::skip);
  CHECK_FALSE(at(tight, 12, 6).counterexample);
}

TEST_CASE("the stepped rho of spaa.shift_round and spaa::circular_shift are one permutation") {
  // w = 9, E = 6 (Figure 3): partitions of 18 slots rotated by 0, 1, 2.
  CHECK(bankcheck::spaa::circular_shift(0, 9, 6) == 0);
  CHECK(bankcheck::spaa::circular_shift(18, 9, 6) == 19);
  CHECK(bankcheck::spaa::circular_shift(35, 9, 6) == 18);
  CHECK(bankcheck::spaa::circular_shift(36, 9, 6) == 38);
}

TEST_CASE("mutations are caught: no circular shift when gcd(w, E) > 1, no B reversal") {
  const Claim paper = spaa_gather_claim(1, true, true);
  const Claim no_shift = spaa_gather_claim(1, true, false);
  const Claim no_reversal = spaa_gather_claim(1, false, true);
  CHECK_FALSE(at(paper, 4, 2).counterexample);
  CHECK_FALSE(at(paper, 12, 5).counterexample);
  const PointResult s = at(no_shift, 4, 2);
  REQUIRE(s.counterexample);
  CHECK(s.counterexample->reproduce.find("bankcheck verify") == 0);
  CHECK_FALSE(at(no_shift, 5, 3).counterexample);  // coprime: the shift is the identity anyway
  CHECK(at(no_reversal, 5, 3).counterexample);
}

TEST_CASE("mutations are caught: shifted PBS-CF offset, SM-1 staging") {
  const Claim paper = pbs_cf_conflict_free_claim(1);
  const Claim shifted = pbs_cf_conflict_free_claim(2);
  CHECK_FALSE(at(paper, 4, 64).counterexample);
  CHECK(at(shifted, 4, 64).counterexample);
  CHECK_FALSE(at(ac_scan_conflict_free_claim("sm2"), 8, 8).counterexample);
  CHECK(at(ac_scan_conflict_free_claim("sm1"), 8, 8).counterexample);  // chunk 8 words: GCD(8, 8) = 8-way
}
