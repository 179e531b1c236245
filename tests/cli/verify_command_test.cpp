#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include "tests/scratch.hpp"

namespace {
int run(const std::string& args) {
  const int status = std::system((std::string(BANKCHECK_CLI) + " verify " + args + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST_CASE("verify: exit 0 when the claims hold, JSON certificate written") {
  const std::string json = bankcheck::test::scratch("verify_command_test.json");
  CHECK(run("spaa.lemma1 spaa.corollary3 --w 1..24 --quiet --json " + json) == 0);
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["claims"].size() == 3);  // spaa.lemma1, spaa.lemma1.tight, spaa.corollary3
  CHECK(j["exit_code"] == 0);
  std::remove(json.c_str());
}

TEST_CASE("verify: --list works") { CHECK(run("--list") == 0); }

TEST_CASE("verify: bad input exits 2") {
  CHECK(run("no.such.claim") == 2);
  CHECK(run("spaa.lemma1 --w 9..3") == 2);
  CHECK(run("spaa.lemma1 --w 0..3") == 2);
  CHECK(run("spaa.lemma1 --E 1..") == 2);
  CHECK(run("spaa.gather.warp --w 32..32 --E 8..8 --exhaustive") == 2);
  CHECK(run("spaa.lemma1 --exhaustive --sample 3") == 2);
  CHECK(run("spaa.lemma1 --model nosuch") == 2);
  CHECK(run("spaa.lemma1 --w 1..1048576 --E 1..1048576") == 2);  // grid too large without --sample
}
