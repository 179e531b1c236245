#pragma once
// The registry of every executable claim. Each paper's claims live in
// proofs/claims/<paper>_claims.cpp (declared in proofs/claims/claim_groups.hpp)
// and are listed once in proofs/claims_registry.cpp. A claim id starts with its
// paper's short name (spaa, hipc, karsin, sigmod, ac, sym), which selects the
// paper's claims as a whole.
#include <string>
#include <string_view>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// Every claim, in `verify --list` order. Ids are unique.
const std::vector<Claim>& all_claims();

/// Deliberately broken variants of the algorithms (mutation knobs), each
/// expected to yield a counterexample: not in all_claims(), selected by exact id.
const std::vector<Claim>& mutation_claims();

/// The claim with this id (registry first, then mutations), or nullptr.
const Claim* find_claim(std::string_view id);

/// The paper a claim id belongs to: its part before the first '.'.
std::string_view paper_name(std::string_view id);

/// The paper short names, in registry order.
std::vector<std::string> paper_names();

}  // namespace bankcheck::proofs
