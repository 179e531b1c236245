// The README opens with exactly two commands (run, test) and .ci/run runs
// the second one verbatim: a drift between them would let CI test something
// users never run. The first one's bankcheck command runs here; the README's
// console sessions run in doc_commands_test.cpp.
#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace readme_test {

namespace {
std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
}  // namespace

TEST_CASE("README opens with the run command and the test command; .ci/run runs the test command") {
  const auto readme = lines_of(BANKCHECK_SOURCE_DIR "/README.md");
  std::vector<std::string> commands;
  bool in_block = false;
  for (const auto& line : readme) {
    if (line.rfind("```", 0) == 0) {
      if (in_block) break;  // only the first code block
      in_block = true;
      continue;
    }
    if (in_block && !line.empty()) commands.push_back(line);
  }
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].find("scripts/setup.sh") != std::string::npos);
  CHECK(commands[0].find("bankcheck") != std::string::npos);
  CHECK(commands[1].find("scripts/setup.sh") != std::string::npos);
  CHECK(commands[1].find("ctest") != std::string::npos);
  const auto ci = lines_of(BANKCHECK_SOURCE_DIR "/.ci/run");
  REQUIRE(!ci.empty());
  CHECK(ci.back() == commands[1]);
  // The first command's bankcheck part runs with the built binary (setup.sh built it as build/bankcheck).
  const std::string run = commands[0].substr(commands[0].find("&& ") + 3);
  REQUIRE(run.rfind("build/bankcheck ", 0) == 0);
  const auto r = bankcheck::test::run_cli(run.substr(std::string("build/bankcheck ").size()));
  CHECK(r.code == 0);
  CHECK(r.std_out.find("\nverdict: ") != std::string::npos);
  CHECK(r.std_out.find("\nworst conflict: instruction ") != std::string::npos);
}

}  // namespace readme_test
