#include "proofs/claim_selection.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "proofs/claims_registry.hpp"

using namespace bankcheck::proofs;

namespace {
std::vector<std::string> ids(const ClaimSelection& s) {
  std::vector<std::string> out;
  for (const Claim* c : select_claims(s)) out.push_back(c->id);
  return out;
}
}  // namespace

TEST_CASE("a claim id selects that claim only, not the ids it prefixes") {
  CHECK(ids({{"spaa.lemma1"}, false}) == std::vector<std::string>{"spaa.lemma1"});
  CHECK(ids({{"spaa.lemma1", "spaa.lemma1"}, false}).size() == 1);
}

TEST_CASE("a paper name selects all of its claims") {
  std::size_t spaa = 0;
  for (const Claim& c : all_claims()) spaa += c.id.rfind("spaa.", 0) == 0;
  const auto selected = ids({{"spaa"}, false});
  CHECK(selected.size() == spaa);
  CHECK(std::find(selected.begin(), selected.end(), "spaa.gather.block") != selected.end());
}

TEST_CASE("globs and --prefix") {
  CHECK(ids({{"spaa.lemma2.*"}, false}) == std::vector<std::string>{"spaa.lemma2.1", "spaa.lemma2.2"});
  CHECK(ids({{"spaa.lemma2"}, true}) == std::vector<std::string>{"spaa.lemma2.1", "spaa.lemma2.2"});
  CHECK(ids({{"spaa.lemma1"}, true}) == std::vector<std::string>{"spaa.lemma1", "spaa.lemma1.tight"});
  CHECK(ids({{"hipc.pbs_c?.correct"}, false}) == std::vector<std::string>{"hipc.pbs_cf.correct", "hipc.pbs_cl.correct"});
}

TEST_CASE("mutations by exact id, after the registry's claims") {
  CHECK(ids({{"spaa.gather.warp.no_shift", "spaa.lemma1"}, false}) ==
        std::vector<std::string>{"spaa.lemma1", "spaa.gather.warp.no_shift"});
}

TEST_CASE("a name that selects nothing is an error naming what it prefixes") {
  try {
    select_claims({{"spaa.lemma2"}, false});
    FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("spaa.lemma2.*") != std::string::npos);
    CHECK(msg.find("spaa.lemma2.1, spaa.lemma2.2") != std::string::npos);
  }
  CHECK_THROWS_AS(select_claims({{"no.such.claim"}, false}), std::invalid_argument);
}

TEST_CASE("no names: the whole registry") { CHECK(select_claims({}).size() == all_claims().size()); }
