#include "proofs/claim_selection.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <stdexcept>

#include "proofs/claims_registry.hpp"

namespace bankcheck::proofs {
namespace {

bool matches(const Claim& c, const std::string& name, bool prefix) {
  if (c.id == name || paper_name(c.id) == name) return true;
  if (is_glob(name)) return fnmatch(name.c_str(), c.id.c_str(), 0) == 0;
  return prefix && c.id.rfind(name + ".", 0) == 0;
}

std::string no_match_message(const std::string& name) {
  std::string under;
  for (const Claim& c : all_claims())
    if (c.id.rfind(name + ".", 0) == 0) under += (under.empty() ? "" : ", ") + c.id;
  std::string msg = "no claim is named '" + name + "'";
  if (!under.empty()) msg += " (names are exact; '" + name + ".*' or --prefix selects " + under + ")";
  std::string papers;
  for (const std::string& p : paper_names()) papers += (papers.empty() ? "" : ", ") + p;
  return msg + "; `bankcheck verify --list` shows the " + std::to_string(all_claims().size()) +
         " claim ids and the mutations; papers: " + papers;
}

}  // namespace

bool is_glob(const std::string& name) { return name.find_first_of("*?[") != std::string::npos; }

std::vector<const Claim*> select_claims(const ClaimSelection& selection) {
  std::vector<const Claim*> out;
  const auto& all = all_claims();
  if (selection.names.empty()) {
    for (const Claim& c : all) out.push_back(&c);
    return out;
  }
  std::vector<char> chosen(all.size(), 0);
  std::vector<const Claim*> mutations;
  for (const std::string& name : selection.names) {
    bool any = false;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (matches(all[i], name, selection.prefix)) {
        chosen[i] = 1;
        any = true;
      }
    if (!any)
      for (const Claim& m : mutation_claims())
        if (m.id == name) {
          if (std::find(mutations.begin(), mutations.end(), &m) == mutations.end()) mutations.push_back(&m);
          any = true;
        }
    if (!any) throw std::invalid_argument(no_match_message(name));
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    if (chosen[i]) out.push_back(&all[i]);
  out.insert(out.end(), mutations.begin(), mutations.end());
  return out;
}

VerifyReport verify(const ClaimSelection& selection, const VerifyRequest& request) {
  return verify(select_claims(selection), request);
}

}  // namespace bankcheck::proofs
