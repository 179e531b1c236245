// The claims of each paper (proofs/claims/claim_groups.hpp): the mutation
// knobs are caught, and every fast path agrees with its brute-force oracle.
#include "proofs/claims/claim_groups.hpp"

#include <doctest/doctest.h>

#include "model/global_access.hpp"

#include <string>
#include <vector>

#include "proofs/claims_registry.hpp"

using namespace bankcheck::proofs;

namespace {
PointResult at(const Claim& c, std::uint64_t w, std::uint64_t E) { return c.check({w, E}, CheckOptions{}); }
}  // namespace

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

TEST_CASE("mutations are caught: shifted PBS-CF offset, SM-1 staging, thread-major histograms") {
  CHECK_FALSE(at(pbs_cf_conflict_free_claim(1), 4, 64).counterexample);
  CHECK(at(pbs_cf_conflict_free_claim(2), 4, 64).counterexample);
  CHECK_FALSE(at(ac_scan_conflict_free_claim("sm2"), 8, 8).counterexample);
  CHECK(at(ac_scan_conflict_free_claim("sm1"), 8, 8).counterexample);  // chunk 8 words: GCD(8, 8) = 8-way
  // F = 8 partitions, w = 8, all keys in partition 0: lane t counts at t*8, all in bank 0.
  CHECK_FALSE(at(sigmod_split_claim("interleaved"), 8, 8).counterexample);
  const PointResult thread_major = at(sigmod_split_claim("thread_major"), 8, 8);
  REQUIRE(thread_major.counterexample);
  CHECK(thread_major.counterexample->detail.find("8-way") != std::string::npos);
}

TEST_CASE("Karsin's k-way conflict: k lanes on k cells of one bank cost k, on one cell 1") {
  const Claim k_way = karsin_claims().front();
  for (std::uint64_t w : {1u, 5u, 32u})
    for (std::uint64_t k = 1; k <= w; ++k) {
      const PointResult r = at(k_way, w, k);
      CHECK(r.cases == 6);
      CHECK_FALSE(r.counterexample);
    }
}

TEST_CASE("Karsin's pages (4.2.1): p pages cost p accesses; a misaligned contiguous warp two, an aligned one one") {
  const std::vector<Claim> claims = karsin_claims();
  REQUIRE(claims.size() == 3);
  const Claim& paged = claims[1];
  const Claim& misaligned = claims[2];
  CHECK(paged.id == "karsin.paged_access");
  CHECK(misaligned.id == "karsin.misaligned");
  for (std::uint64_t w : {1u, 2u, 7u, 32u})
    for (std::uint64_t e = 1; e <= w; ++e) {
      CAPTURE(w);
      CAPTURE(e);
      const PointResult p = at(paged, w, e);
      CHECK(p.cases == 15);
      CHECK_FALSE(p.counterexample);
      const PointResult m = at(misaligned, w, e);
      CHECK(m.cases == 10);
      CHECK_FALSE(m.counterexample);
    }
  // The claim can fail: with 16-byte pages a shifted 4-byte warp of 32 lanes is not two pages but nine.
  std::vector<std::uint64_t> shifted(32);
  for (std::uint64_t l = 0; l < 32; ++l) shifted[l] = 4 + 4 * l;
  const bankcheck::GlobalCost wrong =
      bankcheck::global_cost(bankcheck::GlobalGeometry{32, 128, 4}, bankcheck::WarpRequest{bankcheck::Op::gld, 4, shifted});
  CHECK(wrong.pages == 9);
}

TEST_CASE("every fast path gives the oracle's cases and first counterexample, point by point") {
  std::vector<Claim> claims;
  for (const Claim& c : all_claims())
    if (c.fast_check) claims.push_back(c);
  for (const Claim& c : mutation_claims())
    if (c.fast_check) claims.push_back(c);
  REQUIRE(claims.size() >= 6);  // thread block, theorem8.worst, three gathers, the gather mutations
  for (const Claim& c : claims)
    for (std::uint64_t w = 1; w <= 12; ++w)
      for (std::uint64_t E = 1; E <= 14; ++E) {
        if (c.region({w, E}) == Region::outside || (c.id == "spaa.gather.block" && w * E > 96)) continue;
        CAPTURE(c.id);
        CAPTURE(w);
        CAPTURE(E);
        const PointResult fast = c.fast_check({w, E}, CheckOptions{});
        const PointResult slow = c.check({w, E}, CheckOptions{});
        CHECK(fast.cases == slow.cases);
        REQUIRE(fast.counterexample.has_value() == slow.counterexample.has_value());
        if (fast.counterexample) CHECK(fast.counterexample->detail == slow.counterexample->detail);
      }
}

TEST_CASE("the gather's fast path prices other models too (sm90, w = 32, 8-byte keys: a finding)") {
  const Claim eight = spaa_gather_claims().back();
  REQUIRE(eight.id == "spaa.gather.warp_8B");
  CheckOptions o;
  o.model = "sm90";
  const PointResult fast = eight.fast_check({32, 2}, o), slow = eight.check({32, 2}, o);
  REQUIRE(slow.counterexample);  // docs/claims.md finding 6: round 0 is 2-way
  REQUIRE(fast.counterexample);
  CHECK(fast.counterexample->detail == slow.counterexample->detail);
  CHECK(fast.cases == slow.cases);
}
