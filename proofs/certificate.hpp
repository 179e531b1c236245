#pragma once
// The certificate of a verify run: what was checked, how, and the outcome
// of each claim, as JSON (nlohmann-json) and as a markdown table.
#include <nlohmann/json.hpp>
#include <string>

#include "proofs/verifier.hpp"

namespace bankcheck::proofs {

/// JSON: {"tool", "options", "seconds", "threads", "exit_code", "claims": [...]};
/// each claim has id, paper, lemma, statement, hypotheses, grid, points, cases,
/// status, seconds and (when present) counterexample / finding with reproduce.
nlohmann::json certificate_json(const VerifyReport& report, const VerifyRequest& request);

/// One markdown table row per claim, then the counterexamples and findings.
std::string certificate_markdown(const VerifyReport& report);

}  // namespace bankcheck::proofs
