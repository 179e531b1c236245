#include "proofs/verifier.hpp"

#include <doctest/doctest.h>

#include "proofs/certificate.hpp"
#include "proofs/claims_registry.hpp"

using namespace bankcheck::proofs;

namespace {
// A claim that is false exactly at E = 3 (inside the hypotheses when w >= 8).
Claim toy() {
  Claim c;
  c.id = "toy";
  c.paper = "test";
  c.lemma = "toy";
  c.statement = "E != 3";
  c.hypotheses = "w >= 8";
  c.domain = Domain{1, 10, 1, 10};
  c.region = [](const Point& p) { return p.w >= 8 ? Region::within : Region::beyond; };
  c.exhaustive_cases = [](const Point&) { return BigCount(1); };
  c.check = [](const Point& p, const CheckOptions& o) {
    PointResult r;
    r.cases = 1;
    if (p.E == 3) r.counterexample = Counterexample{p, "E is 3", reproduce_command("toy", p, o)};
    return r;
  };
  return c;
}
}  // namespace

TEST_CASE("ranges: A..B, single values, and bad input") {
  CHECK(parse_range("1..256", "--w").hi == 256);
  CHECK(parse_range("7", "--w").lo == 7);
  CHECK_THROWS_AS(parse_range("9..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("0..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("a..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("1..", "--w"), std::invalid_argument);
}

TEST_CASE("status: fails inside, finding beyond, first counterexample is deterministic") {
  const Claim c = toy();
  for (unsigned threads : {1u, 2u, 4u}) {
    VerifyRequest req;
    req.threads = threads;
    req.E = Range{1, 10};
    const VerifyReport all = verify({&c}, req);
    REQUIRE(all.claims.size() == 1);
    CHECK(all.claims[0].status == Status::fails);
    CHECK(all.claims[0].counterexample->point.w == 8);  // lowest (w, E) inside
    CHECK(all.claims[0].finding->point.w == 1);         // lowest (w, E) beyond
    CHECK(all.exit_code() == 1);
    req.w = Range{1, 7};
    const VerifyReport beyond = verify({&c}, req);
    CHECK(beyond.claims[0].status == Status::finding);
    CHECK(beyond.exit_code() == 0);
  }
}

TEST_CASE("exhaustive runs that are too large are refused with the estimate") {
  VerifyRequest req;
  req.options.mode = Mode::exhaustive;
  req.w = Range{16, 16};
  req.E = Range{8, 8};
  const Claim* gather = find_claim("spaa.gather.warp");
  REQUIRE(gather);
  try {
    verify({gather}, req);
    FAIL("expected a refusal");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("would check about") != std::string::npos);
  }
}

TEST_CASE("the certificate carries every claim and its counterexample") {
  const Claim c = toy();
  VerifyRequest req;
  req.threads = 1;
  const VerifyReport report = verify({&c}, req);
  const auto j = certificate_json(report, req);
  CHECK(j["claims"][0]["id"] == "toy");
  CHECK(j["claims"][0]["status"] == "FAILS");
  CHECK(j["claims"][0]["counterexample"]["reproduce"].get<std::string>().find("bankcheck verify toy") == 0);
  CHECK(certificate_markdown(report).find("| toy |") != std::string::npos);
}
