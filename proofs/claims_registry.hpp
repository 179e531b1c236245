#pragma once
// The registry of every executable claim, grouped by paper. Each group lives
// in its own source (proofs/<group>_claims.cpp) and is listed here once.
#include <string_view>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// SPAA 2025 Section 3 number theory: Lemmas 1, 2, 4, Corollary 3, the round
/// formula, the circular shift and the thread-block extension (Section 3.3).
std::vector<Claim> spaa_gather_lemma_claims();
/// SPAA 2025 Section 4: Lemmas 5-7, |T| = w/d, Theorem 8 and whether it is the worst.
std::vector<Claim> spaa_worst_case_claims();
/// Symbolic conflict degrees (affine maps, XOR swizzles) against the bank model.
std::vector<Claim> symbolic_claims();
/// Claims that run the algorithm code (SPAA gather, HiPC PBS, Aho-Corasick SM-2).
std::vector<Claim> algorithm_claims();

/// Every claim, in `verify --list` order. Ids are unique.
const std::vector<Claim>& all_claims();

/// Deliberately broken variants of the algorithms (mutation knobs), each
/// expected to yield a counterexample: not in all_claims(), selected by exact id.
const std::vector<Claim>& mutation_claims();

/// The claim with this id (registry first, then mutations), or nullptr.
const Claim* find_claim(std::string_view id);

}  // namespace bankcheck::proofs
