#include "proofs/certificate.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <optional>
#include <sstream>

#include "sim/report/csv.hpp"

namespace bankcheck::proofs {
namespace {

using report::csv_field;

std::string mode_name(Mode m) {
  switch (m) {
    case Mode::automatic: return "automatic";
    case Mode::exhaustive: return "exhaustive";
    case Mode::sample: return "sample";
  }
  return "?";
}

nlohmann::json counterexample_json(const Counterexample& c) {
  return {{"w", c.point.w}, {"E", c.point.E}, {"detail", c.detail}, {"reproduce", c.reproduce}};
}

std::string range_text(const Range& r) {
  return r.lo == r.hi ? std::to_string(r.lo) : std::to_string(r.lo) + ".." + std::to_string(r.hi);
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// Markdown cells may not contain '|'.
std::string cell(std::string s) {
  for (char& c : s)
    if (c == '|') c = '/';
  return s;
}

std::string models_text(const Claim& c) {
  std::string s;
  for (const std::string& m : c.models) s += (s.empty() ? "" : ", ") + m;
  return s.empty() ? "any model" : s;
}

std::string model_text(const ClaimReport& r) {
  if (r.status == Status::not_applicable) return "n/a (" + models_text(*r.claim) + ")";
  return r.model.empty() ? "any" : r.model;
}

}  // namespace

std::string certificate_csv(const VerifyReport& report) {
  std::ostringstream out;
  out << "claim,paper,lemma,model,w_lo,w_hi,E_lo,E_hi,points_within,points_beyond,points_outside,cases_within,"
         "cases_beyond,status,seconds,counterexample_w,counterexample_E,detail,reproduce,points_undecided,points_unchecked\n";
  for (const ClaimReport& r : report.claims) {
    const std::optional<Counterexample>& shown = r.counterexample ? r.counterexample
                                                 : r.error        ? r.error
                                                 : r.undecided    ? r.undecided
                                                                  : r.finding;
    out << csv_field(r.claim->id) << ',' << csv_field(r.claim->paper) << ',' << csv_field(r.claim->lemma) << ','
        << csv_field(model_text(r)) << ',' << r.w.lo << ',' << r.w.hi << ',' << r.E.lo << ',' << r.E.hi << ','
        << r.points_within << ',' << r.points_beyond << ',' << r.points_outside << ',' << r.cases_within << ',' << r.cases_beyond << ','
        << csv_field(status_name(r.status)) << ',' << seconds_text(r.seconds) << ',';
    if (shown)
      out << shown->point.w << ',' << shown->point.E << ',' << csv_field(shown->detail) << ',' << csv_field(shown->reproduce);
    else
      out << ",,,";
    out << ',' << r.points_undecided << ',' << r.points_unchecked << '\n';
  }
  return out.str();
}

nlohmann::json certificate_json(const VerifyReport& report, const VerifyRequest& request) {
  nlohmann::json j;
  j["tool"] = "bankcheck verify";
  j["options"] = {{"mode", mode_name(request.options.mode)},
                  {"inputs", request.options.inputs},
                  {"inputs_limit", request.options.inputs_limit},
                  {"seed", request.options.seed},
                  {"model", request.model ? nlohmann::json(*request.model) : nlohmann::json(nullptr)},
                  {"brute_force", request.options.brute_force},
                  {"sample_points", request.sample_points}};
  j["seconds"] = report.seconds;
  j["threads"] = report.threads;
  j["ranks"] = report.ranks;
  j["exit_code"] = report.exit_code();
  j["partial"] = !report.stopped.empty();
  if (!report.stopped.empty()) j["stopped"] = report.stopped;
  j["claims"] = nlohmann::json::array();
  for (const ClaimReport& r : report.claims) {
    nlohmann::json c = {{"id", r.claim->id},
                        {"paper", r.claim->paper},
                        {"lemma", r.claim->lemma},
                        {"statement", r.claim->statement},
                        {"hypotheses", r.claim->hypotheses},
                        {"category", r.claim->category},
                        {"model", r.model.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.model)},
                        {"models", r.claim->models},
                        {"w", {{"lo", r.w.lo}, {"hi", r.w.hi}}},
                        {"E", {{"lo", r.E.lo}, {"hi", r.E.hi}}},
                        {"points_within", r.points_within},
                        {"points_beyond", r.points_beyond},
                        {"points_outside", r.points_outside},
                        {"cases_within", r.cases_within},
                        {"cases_beyond", r.cases_beyond},
                        {"points_undecided", r.points_undecided},
                        {"points_unchecked", r.points_unchecked},
                        {"status", status_name(r.status)},
                        {"seconds", r.seconds}};
    if (r.counterexample) c["counterexample"] = counterexample_json(*r.counterexample);
    if (r.error) c["error"] = counterexample_json(*r.error);
    if (r.finding) c["finding"] = counterexample_json(*r.finding);
    if (r.undecided) c["undecided"] = counterexample_json(*r.undecided);
    j["claims"].push_back(std::move(c));
  }
  return j;
}

std::string certificate_markdown(const VerifyReport& report) {
  std::ostringstream out;
  out << "| claim | paper | lemma | model | w | E | points (in/beyond/outside) | cases (in/beyond) | status | seconds |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ClaimReport& r : report.claims)
    out << "| " << r.claim->id << " | " << r.claim->paper << " | " << cell(r.claim->lemma) << " | " << model_text(r)
        << " | " << range_text(r.w) << " | " << range_text(r.E) << " | " << r.points_within << " / " << r.points_beyond
        << " / " << r.points_outside << " | " << r.cases_within << " / " << r.cases_beyond << " | " << status_name(r.status) << " | "
        << seconds_text(r.seconds) << " |\n";
  for (const ClaimReport& r : report.claims) {
    if (r.counterexample)
      out << "\n**" << r.claim->id << " fails** at w=" << r.counterexample->point.w << ", E=" << r.counterexample->point.E
          << ": " << r.counterexample->detail << "\n  reproduce: `" << r.counterexample->reproduce << "`\n";
    if (r.error)
      out << "\n**" << r.claim->id << " fails** at w=" << r.error->point.w << ", E=" << r.error->point.E << ": "
          << r.error->detail << "\n  reproduce: `" << r.error->reproduce << "`\n";
    if (r.undecided)
      out << "\n**" << r.claim->id << " undecided** at " << r.points_undecided << " point(s), first w="
          << r.undecided->point.w << ", E=" << r.undecided->point.E << ": " << r.undecided->detail
          << "\n  reproduce: `" << r.undecided->reproduce << "`\n";
    if (r.finding)
      out << "\n**" << r.claim->id << " finding** (beyond the hypotheses) at w=" << r.finding->point.w
          << ", E=" << r.finding->point.E << ": " << r.finding->detail << "\n  reproduce: `" << r.finding->reproduce
          << "`\n";
  }
  for (const ClaimReport& r : report.claims) {
    if (r.status == Status::not_applicable)
      out << "\n" << r.claim->id << " is not applicable: it is stated for " << models_text(*r.claim) << ", not " << r.model
          << "\n";
    if (r.status == Status::vacuous)
      out << "\n" << r.claim->id << " is vacuous: no point of its grid lies in its domain (" << r.points_outside
          << " outside), so nothing was checked"
          << (r.model.empty() || r.model == "dmm" ? "" : " (" + r.model + " exists only at w = 32)") << "\n";
  }
  if (!report.stopped.empty()) {
    std::uint64_t unchecked = 0;
    for (const ClaimReport& r : report.claims) unchecked += r.points_unchecked;
    out << "\nPARTIAL: the run stopped (" << report.stopped << ") with " << unchecked
        << " points unchecked; the table counts the points checked before\n";
  }
  const std::string ranks = report.ranks > 1 ? " x " + std::to_string(report.ranks) + " ranks" : "";
  out << "\n" << report.claims.size() << " claims, " << seconds_text(report.seconds) << " s on " << report.threads
      << " threads" << ranks << "; exit code " << report.exit_code() << "\n";
  return out.str();
}

}  // namespace bankcheck::proofs

namespace bankcheck::proofs {

CertificateFormat certificate_format(const std::string& format, const std::string& path, CertificateFormat fallback) {
  std::string name = format;
  if (name.empty()) {
    const std::string ext = std::filesystem::path(path).extension().string();
    name = ext == ".json" ? "json" : ext == ".csv" ? "csv" : ext == ".md" || ext == ".markdown" ? "markdown" : "";
  }
  if (name.empty()) return fallback;
  if (name == "markdown" || name == "md") return CertificateFormat::markdown;
  if (name == "json") return CertificateFormat::json;
  if (name == "csv") return CertificateFormat::csv;
  throw std::invalid_argument("--format must be markdown, json or csv (got '" + format + "')");
}

std::string render_certificate(const VerifyReport& report, const VerifyRequest& request, CertificateFormat format) {
  switch (format) {
    case CertificateFormat::json: return certificate_json(report, request).dump(2) + "\n";
    case CertificateFormat::csv: return certificate_csv(report);
    case CertificateFormat::markdown: break;
  }
  return certificate_markdown(report);
}

}  // namespace bankcheck::proofs
