#pragma once
// Which claims `verify NAME ...` checks. A name is matched exactly: a claim
// id (spaa.lemma1 is that claim alone, not spaa.lemma1.tight), a paper's
// short name (spaa: every SPAA claim), a glob with * ? [..] (spaa.lemma2.*),
// or, when asked for, an id prefix ending at a '.' boundary. Mutations are
// selected by their exact id only.
#include <string>
#include <vector>

#include "proofs/claim.hpp"
#include "proofs/verifier.hpp"

namespace bankcheck::proofs {

struct ClaimSelection {
  std::vector<std::string> names;  ///< empty: the whole registry
  bool prefix = false;             ///< also select ids that start with "<name>."
};

/// The selected claims in registry order, each once.
/// @throws std::invalid_argument for a name that selects nothing, naming the
///         ids it is a prefix of (if any) and how to list the registry.
std::vector<const Claim*> select_claims(const ClaimSelection& selection);

/// Selects, then verifies (proofs/verifier.hpp): what `bankcheck verify` runs.
VerifyReport verify(const ClaimSelection& selection, const VerifyRequest& request);

/// Whether `name` has glob characters (* ? [).
bool is_glob(const std::string& name);

}  // namespace bankcheck::proofs
