#include "proofs/claims_registry.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "model/bank_model.hpp"
#include "proofs/spaa_residues.hpp"
#include "proofs/verifier.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace claims_registry_test {

using namespace bankcheck::proofs;

namespace {
/// Check a claim at one point with the default options.
PointResult at(const Claim& c, std::uint64_t w, std::uint64_t E) { return c.check({w, E}, CheckOptions{}); }
}  // namespace

TEST_CASE("every claim is complete, ids are unique and start with a paper name") {
  std::set<std::string> ids;
  const auto presets = bankcheck::preset_names();
  for (const Claim& c : all_claims()) {
    CAPTURE(c.id);
    CHECK(ids.insert(c.id).second);
    CHECK_FALSE(c.paper.empty());
    CHECK_FALSE(c.statement.empty());
    CHECK(c.check);
    CHECK(c.region);
    CHECK(c.exhaustive_cases);
    for (const std::string& m : c.models) CHECK(std::find(presets.begin(), presets.end(), m) != presets.end());
  }
  CHECK(find_claim("spaa.lemma1") != nullptr);
  CHECK(find_claim("spaa.gather.warp.no_shift") != nullptr);  // a mutation, by exact id
  CHECK(find_claim("no.such.claim") == nullptr);
  CHECK(paper_name("spaa.lemma2.1") == "spaa");
  CHECK(paper_names() == std::vector<std::string>{"spaa", "hipc", "karsin", "sigmod", "ac", "sym"});
}

TEST_CASE("the number-theory claims are about the DMM; correctness of answers about no model") {
  CHECK(find_claim("spaa.lemma1")->models == std::vector<std::string>{"dmm"});
  CHECK(find_claim("spaa.theorem8")->models == std::vector<std::string>{"dmm"});
  CHECK(find_claim("hipc.pbs_cf.correct")->models.empty());
  CHECK(find_claim("spaa.gather.warp")->models.front() == "dmm");
}

TEST_CASE("the number-theory lemmas hold at hand-picked points, including the paper's figures") {
  // Figure 2 (w = 12, E = 5), Figure 3 (w = 9, E = 6), Figure 8 (w = 6, E = 4).
  for (const char* id : {"spaa.lemma2.1", "spaa.lemma2.2", "spaa.corollary3", "spaa.round_formula", "spaa.shift_round"})
    for (auto [w, E] : {std::pair{12, 5}, {9, 6}, {6, 4}, {32, 17}, {32, 16}}) {
      const PointResult r = at(*find_claim(id), w, E);
      CHECK_MESSAGE(!r.counterexample, id, " at w=", w, " E=", E);
      CHECK(r.cases > 0);
    }
}

TEST_CASE("Lemma 1 is stated for coprime w, E; its converse catches d > 1") {
  const Claim& tight = *find_claim("spaa.lemma1.tight");
  CHECK(tight.region({12, 6}) == Region::within);
  CHECK(tight.region({12, 5}) == Region::outside);
  CHECK_FALSE(at(tight, 12, 6).counterexample);
}

TEST_CASE("the stepped rho of spaa.shift_round and spaa::circular_shift are one permutation") {
  // w = 9, E = 6 (Figure 3): partitions of 18 slots rotated by 0, 1, 2.
  CHECK(bankcheck::spaa::circular_shift(0, 9, 6) == 0);
  CHECK(bankcheck::spaa::circular_shift(18, 9, 6) == 19);
  CHECK(bankcheck::spaa::circular_shift(35, 9, 6) == 18);
  CHECK(bankcheck::spaa::circular_shift(36, 9, 6) == 38);
}

TEST_CASE("the mutations are registered and each fails somewhere small") {
  REQUIRE(mutation_claims().size() == 6);
  for (const Claim& m : mutation_claims()) {
    CAPTURE(m.id);
    CHECK(find_claim(m.id) == &m);
    bool failed = false;
    for (std::uint64_t w = 2; w <= 8 && !failed; w *= 2)
      for (std::uint64_t E : {2u, 4u, 8u, 64u})
        if (m.region({w, E}) != Region::outside && at(m, w, E).counterexample) failed = true;
    CHECK(failed);
  }
}

TEST_CASE("the docs state the registry's counts: every number of claims or mutations in README.md and docs/") {
  // Each phrase that counts claims says what it counts; the count is taken
  // from the registry here, never written into the test. A new phrase that
  // counts claims must be added below, so none goes unchecked.
  const std::size_t total = all_claims().size(), mutations = mutation_claims().size();
  std::size_t spaa = 0;
  for (const Claim& c : all_claims()) spaa += paper_name(c.id) == "spaa";
  struct Phrase {
    std::regex pattern;
    std::size_t count;
  };
  const std::vector<Phrase> phrases = {
      {std::regex(R"((\d+) executable claims)"), total},
      {std::regex(R"((\d+) claims \(spaa \d+, hipc)"), total},  // `verify --list`'s last line, shown in docs/claims.md
      {std::regex(R"((\d+) mutations)"), mutations},
      {std::regex(R"(every SPAA claim, (\d+))"), spaa},
      {std::regex(R"(all (\d+) claims)"), spaa},          // docs/claims.md: the SPAA run's verdicts
      {std::regex(R"(\((\d+) claims\))"), spaa},         // docs/scaling.md: `verify spaa`
      {std::regex(R"(the other (\d+) claims)"), spaa - 6},  // docs/claims.md: the SPAA claims after the six it names
      // A measurement of a past registry says so, and keeps the count it was made with.
      {std::regex(R"(when it held (\d+) claims)"), std::string::npos},
      // A console block's `verify` summary line: the count of the claims that command selects, which
      // tests/cli/doc_commands_test.cpp checks against what the command prints.
      {std::regex(R"((\d+) claims, \[\.\.\.\]; exit code)"), std::string::npos},
  };
  // A count of claims: a number, not part of a range such as "Section 3-4", before "claims" or "mutations".
  const std::regex any_count(R"((^|[^-\d])(\d+) ((executable|SPAA) )?(claims|mutations)\b|claim, (\d+))");
  std::vector<std::filesystem::path> pages = {std::filesystem::path(BANKCHECK_SOURCE_DIR) / "README.md"};
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(BANKCHECK_SOURCE_DIR) / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  std::size_t checked = 0;
  for (const auto& page : pages) {
    std::ifstream in(page);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    for (char& ch : text)
      if (ch == '\n') ch = ' ';  // a phrase may wrap
    for (auto it = std::sregex_iterator(text.begin(), text.end(), any_count); it != std::sregex_iterator(); ++it) {
      const std::size_t at = static_cast<std::size_t>(it->position(0));
      const std::string context = text.substr(at >= 40 ? at - 40 : 0, 100);
      CAPTURE(page.filename().string());
      CAPTURE(context);
      bool known = false;
      for (const Phrase& p : phrases) {
        std::smatch m;
        const std::string window = text.substr(at >= 30 ? at - 30 : 0, 80);
        if (!std::regex_search(window, m, p.pattern)) continue;
        known = true;
        ++checked;
        if (p.count != std::string::npos) CHECK(std::stoul(m[1].str()) == p.count);
        break;
      }
      CHECK_MESSAGE(known, "a count of claims that this test does not know: say what it counts above");
    }
  }
  CHECK(checked >= 5);
}

TEST_CASE("each claim declares its domain: no check throws on a sampled grid beyond the defaults") {
  // An exception at a point of the domain is a failure (proofs/verifier.hpp),
  // so a claim whose algorithm refuses some parameters must declare them
  // outside. Sampled points of w <= 64, E <= 128 (E > w included) and
  // the mutations' grids.
  std::vector<const Claim*> claims;
  for (const Claim& c : all_claims()) claims.push_back(&c);
  for (const Claim& c : mutation_claims()) claims.push_back(&c);
  VerifyRequest req;
  req.w = Range{1, 64};
  req.E = Range{1, 128};
  req.options.mode = Mode::sample;
  req.options.inputs = 1;
  req.sample_points = 40;
  req.threads = 2;
  const VerifyReport r = verify(claims, req);
  for (const ClaimReport& c : r.claims) {
    CAPTURE(c.claim->id);
    CHECK_MESSAGE(!c.error, (c.error ? c.error->detail : ""));
    CHECK(c.points_within + c.points_beyond > 0);
  }
}

TEST_CASE("the Aho-Corasick scan's domain is the algorithm's: 2w <= 1024 threads, chunks of at most 4096 bytes") {
  const Claim& ac = *find_claim("ac.sm2.scan_conflict_free");
  CHECK(ac.region({512, 1024}) == Region::within);
  CHECK(ac.region({513, 1}) == Region::outside);   // 1026 threads
  CHECK(ac.region({1, 1025}) == Region::outside);  // 4100-byte chunks
  VerifyRequest req;
  req.w = Range{512, 513};
  req.E = Range{1, 1};
  const VerifyReport r = verify({&ac}, req);
  CHECK(r.claims[0].points_within == 1);
  CHECK(r.claims[0].points_outside == 1);
  CHECK(r.claims[0].status == Status::holds);
}

}  // namespace claims_registry_test
