#pragma once
// The certificate of a verify run: what was checked, how, and the outcome
// of each claim, as JSON (nlohmann-json), as a markdown table and as CSV.
#include <nlohmann/json.hpp>
#include <string>

#include "proofs/verifier.hpp"

namespace bankcheck::proofs {

/// JSON: {"tool", "options", "seconds", "threads", "exit_code", "claims": [...]};
/// each claim has id, paper, lemma, statement, hypotheses, grid, points
/// (within, beyond, outside the domain), cases, status, seconds and (when
/// present) counterexample / error / finding with reproduce.
nlohmann::json certificate_json(const VerifyReport& report, const VerifyRequest& request);

/// One markdown table row per claim, then the counterexamples and findings.
std::string certificate_markdown(const VerifyReport& report);

enum class CertificateFormat { markdown, json, csv };

/// The format of a certificate file: `format` when given ("markdown", "md",
/// "json", "csv"), else the extension of `path` (.json, .csv, .md, .markdown),
/// else `fallback`. @throws std::invalid_argument naming the allowed formats.
CertificateFormat certificate_format(const std::string& format, const std::string& path, CertificateFormat fallback);

/// The certificate in one of the formats (JSON indented, with a final newline).
std::string render_certificate(const VerifyReport& report, const VerifyRequest& request, CertificateFormat format);

/// One CSV row per claim (RFC 4180 quoting), with the counterexample (or
/// else the error, or else the finding) and its reproduction.
std::string certificate_csv(const VerifyReport& report);

}  // namespace bankcheck::proofs
