#include "proofs/certificate.hpp"

#include <cstdio>
#include <sstream>

namespace bankcheck::proofs {
namespace {

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

}  // namespace

nlohmann::json certificate_json(const VerifyReport& report, const VerifyRequest& request) {
  nlohmann::json j;
  j["tool"] = "bankcheck verify";
  j["options"] = {{"mode", mode_name(request.options.mode)},
                  {"inputs", request.options.inputs},
                  {"inputs_limit", request.options.inputs_limit},
                  {"seed", request.options.seed},
                  {"model", request.options.model},
                  {"sample_points", request.sample_points}};
  j["seconds"] = report.seconds;
  j["threads"] = report.threads;
  j["exit_code"] = report.exit_code();
  j["claims"] = nlohmann::json::array();
  for (const ClaimReport& r : report.claims) {
    nlohmann::json c = {{"id", r.claim->id},
                        {"paper", r.claim->paper},
                        {"lemma", r.claim->lemma},
                        {"statement", r.claim->statement},
                        {"hypotheses", r.claim->hypotheses},
                        {"category", r.claim->category},
                        {"w", {{"lo", r.w.lo}, {"hi", r.w.hi}}},
                        {"E", {{"lo", r.E.lo}, {"hi", r.E.hi}}},
                        {"points_within", r.points_within},
                        {"points_beyond", r.points_beyond},
                        {"cases_within", r.cases_within},
                        {"cases_beyond", r.cases_beyond},
                        {"status", status_name(r.status)},
                        {"seconds", r.seconds}};
    if (r.counterexample) c["counterexample"] = counterexample_json(*r.counterexample);
    if (r.finding) c["finding"] = counterexample_json(*r.finding);
    j["claims"].push_back(std::move(c));
  }
  return j;
}

std::string certificate_markdown(const VerifyReport& report) {
  std::ostringstream out;
  out << "| claim | paper | lemma | w | E | points (in/beyond) | cases (in/beyond) | status | seconds |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (const ClaimReport& r : report.claims)
    out << "| " << r.claim->id << " | " << r.claim->paper << " | " << cell(r.claim->lemma) << " | " << range_text(r.w)
        << " | " << range_text(r.E) << " | " << r.points_within << " / " << r.points_beyond << " | " << r.cases_within
        << " / " << r.cases_beyond << " | " << status_name(r.status) << " | " << seconds_text(r.seconds) << " |\n";
  for (const ClaimReport& r : report.claims) {
    if (r.counterexample)
      out << "\n**" << r.claim->id << " fails** at w=" << r.counterexample->point.w << ", E=" << r.counterexample->point.E
          << ": " << r.counterexample->detail << "\n  reproduce: `" << r.counterexample->reproduce << "`\n";
    if (r.finding)
      out << "\n**" << r.claim->id << " finding** (beyond the hypotheses) at w=" << r.finding->point.w
          << ", E=" << r.finding->point.E << ": " << r.finding->detail << "\n  reproduce: `" << r.finding->reproduce
          << "`\n";
  }
  out << "\n" << report.claims.size() << " claims, " << seconds_text(report.seconds) << " s on " << report.threads
      << " threads; exit code " << report.exit_code() << "\n";
  return out.str();
}

}  // namespace bankcheck::proofs
