#include "proofs/claims_registry.hpp"

#include <set>

#include "proofs/algorithm_claims.hpp"
#include <stdexcept>
#include <string>

namespace bankcheck::proofs {

const std::vector<Claim>& all_claims() {
  static const std::vector<Claim> claims = [] {
    std::vector<Claim> all;
    for (auto group : {spaa_gather_lemma_claims, spaa_worst_case_claims, symbolic_claims, algorithm_claims})
      for (Claim& c : group()) all.push_back(std::move(c));
    std::set<std::string> ids;
    for (const Claim& c : all)
      if (!ids.insert(c.id).second) throw std::logic_error("duplicate claim id " + c.id);
    return all;
  }();
  return claims;
}

const std::vector<Claim>& mutation_claims() {
  static const std::vector<Claim> claims = {
      spaa_gather_claim(1, false, true),  spaa_gather_claim(1, true, false), spaa_gather_claim(2, true, false),
      pbs_cf_conflict_free_claim(2),      ac_scan_conflict_free_claim("sm1")};
  return claims;
}

const Claim* find_claim(std::string_view id) {
  for (const Claim& c : all_claims())
    if (c.id == id) return &c;
  for (const Claim& c : mutation_claims())
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace bankcheck::proofs
