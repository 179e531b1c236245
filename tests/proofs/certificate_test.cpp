#include "proofs/certificate.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace bankcheck::proofs;

namespace {
Claim toy(std::string id) {
  Claim c;
  c.id = std::move(id);
  c.paper = "test";
  c.lemma = "Lemma 1, part (a|b)";
  c.statement = "E != 3";
  c.domain = Domain{1, 4, 1, 4};
  c.region = [](const Point&) { return Region::within; };
  c.exhaustive_cases = [](const Point&) { return BigCount(1); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult r;
    r.cases = 1;
    if (p.E == 3) r.counterexample = counterexample_at(id, p, o, "E is 3, \"quoted\", with a comma");
    return r;
  };
  return c;
}
}  // namespace

TEST_CASE("the format comes from --format, else the file's extension, else the fallback") {
  CHECK(certificate_format("", "x/c.json", CertificateFormat::markdown) == CertificateFormat::json);
  CHECK(certificate_format("", "c.csv", CertificateFormat::markdown) == CertificateFormat::csv);
  CHECK(certificate_format("", "c.md", CertificateFormat::json) == CertificateFormat::markdown);
  CHECK(certificate_format("", "c.txt", CertificateFormat::json) == CertificateFormat::json);
  CHECK(certificate_format("csv", "c.json", CertificateFormat::markdown) == CertificateFormat::csv);
  CHECK_THROWS_AS(certificate_format("xml", "c.json", CertificateFormat::markdown), std::invalid_argument);
}

TEST_CASE("markdown, JSON and CSV carry the same claims, statuses and counterexamples") {
  const Claim c = toy("toy");
  VerifyRequest req;
  req.threads = 1;
  const VerifyReport report = verify({&c}, req);
  REQUIRE(report.claims[0].status == Status::fails);
  const std::string md = render_certificate(report, req, CertificateFormat::markdown);
  CHECK(md.find("| toy | test | Lemma 1, part (a/b) | dmm |") != std::string::npos);  // '|' is not a cell
  const auto j = nlohmann::json::parse(render_certificate(report, req, CertificateFormat::json));
  CHECK(j["claims"][0]["status"] == "FAILS");
  CHECK(j["claims"][0]["model"] == "dmm");
  CHECK(j["claims"][0]["counterexample"]["E"] == 3);
  const std::string csv = certificate_csv(report);
  CHECK(csv.rfind("claim,paper,lemma,model,", 0) == 0);
  // RFC 4180: a field with a comma or quotes is quoted and its quotes doubled.
  CHECK(csv.find("\"E is 3, \"\"quoted\"\", with a comma\"") != std::string::npos);
  CHECK(csv.find("toy,test,Lemma 1,") == std::string::npos);
}
