#include "proofs/claims_registry.hpp"

#include <set>
#include <stdexcept>

#include "proofs/claims/claim_groups.hpp"

namespace bankcheck::proofs {

const std::vector<Claim>& all_claims() {
  static const std::vector<Claim> claims = [] {
    std::vector<Claim> all;
    for (auto group : {
             spaa_section3_claims,      // SPAA 2025 Sections 3.1-3.2
             spaa_thread_block_claims,  // SPAA 2025 Section 3.3
             spaa_section4_claims,      // SPAA 2025 Section 4
             spaa_gather_claims,        // SPAA 2025 Algorithm 1, end to end
             hipc_pbs_claims,           // HiPC 2015 PBS-CF, PBS-CL
             hipc_worst_case_claims,    // HiPC 2015 Corollary 4.1, Lemma 4.2, A_PBS
             karsin_claims,             // Karsin 2015
             sigmod_claims,             // SIGMOD 2008
             aho_corasick_claims,       // Aho-Corasick SM (KIPS)
             symbolic_claims,           // closed forms against the bank model
         })
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
      pbs_cf_conflict_free_claim(2),      ac_scan_conflict_free_claim("sm1"), sigmod_split_claim("thread_major")};
  return claims;
}

const Claim* find_claim(std::string_view id) {
  for (const Claim& c : all_claims())
    if (c.id == id) return &c;
  for (const Claim& c : mutation_claims())
    if (c.id == id) return &c;
  return nullptr;
}

std::string_view paper_name(std::string_view id) { return id.substr(0, id.find('.')); }

std::vector<std::string> paper_names() {
  std::vector<std::string> names;
  for (const Claim& c : all_claims()) {
    const std::string name(paper_name(c.id));
    if (names.empty() || names.back() != name) names.push_back(name);
  }
  return names;
}

}  // namespace bankcheck::proofs
