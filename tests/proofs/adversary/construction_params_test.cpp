#include "proofs/adversary/construction_params.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace bankcheck::proofs;

TEST_CASE("the constructions and their defaults") {
  for (const char* name : {"pbs", "merge", "merge-sort", "cub-merge-sort", "spaa-merge-sort", "merge-warp"})
    CHECK(find_construction(name) != nullptr);
  CHECK(find_construction("nosuch") == nullptr);
  const auto cub = resolve_construction_params(*find_construction("cub-merge-sort"), {});
  CHECK(cub.at("u") == 256);
  CHECK(cub.at("E") == 17);
  const auto spaa = resolve_construction_params(*find_construction("spaa-merge-sort"), {});
  CHECK(spaa.at("u") == 512);
  CHECK(spaa.at("E") == 15);
  CHECK(resolve_construction_params(*find_construction("pbs"), {{"K", 4096}}).at("K") == 4096);
}

TEST_CASE("unknown names and values outside the range are errors naming the range") {
  const ConstructionSpec& merge = *find_construction("merge");
  try {
    resolve_construction_params(merge, {{"E", 0}});
    FAIL("accepted E = 0");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).rfind("E: must be an integer in 2..1024 (got 0", 0) == 0);
  }
  CHECK_THROWS_AS(resolve_construction_params(merge, {{"n", -5}}), std::invalid_argument);
  CHECK_THROWS_AS(resolve_construction_params(merge, {{"K", 5}}), std::invalid_argument);
  CHECK_THROWS_AS(resolve_construction_params(merge, {{"key_bytes", 5}}), std::invalid_argument);
  CHECK(resolve_construction_params(merge, {{"key_bytes", 8}}).at("key_bytes") == 8);
}
