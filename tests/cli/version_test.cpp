// `bankcheck --version` (cli/version.hpp): the version declared in
// CMakeLists.txt, the git revision of the sources, the build's CUDA version.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tests/cli/cli_runner.hpp"
#include "tests/pipe_output.hpp"

namespace {
/// The first line of a shell command's output ("" if it fails).
std::string first_line(const std::string& command) {
  int status = 0;
  const std::string out = bankcheck::test::pipe_output(command + " 2>/dev/null", &status);
  return status == 0 ? out.substr(0, out.find('\n')) : "";
}
}  // namespace

TEST_CASE("--version prints the project version, the git revision and the CUDA version") {
  std::ifstream cmake(BANKCHECK_SOURCE_DIR "/CMakeLists.txt");
  std::stringstream text;
  text << cmake.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  REQUIRE(std::regex_search(s, m, std::regex(R"(project\(bankcheck VERSION ([0-9.]+))")));
  const auto r = bankcheck::test::run_cli("--version");
  CHECK(r.code == 0);
  CHECK(r.std_out.rfind("bankcheck " + m[1].str() + "\n", 0) == 0);
  // The revision names a commit of this repository (the binary may be older than HEAD).
  std::smatch rev;
  REQUIRE(std::regex_search(r.std_out, rev, std::regex("\ngit revision ([0-9a-f]{12}|unknown)")));
  if (rev[1] != "unknown" && !first_line("git -C '" BANKCHECK_SOURCE_DIR "' rev-parse HEAD").empty())
    CHECK(!first_line("git -C '" BANKCHECK_SOURCE_DIR "' rev-parse --verify " + rev[1].str() + "^{commit}").empty());
  CHECK(std::regex_search(r.std_out, std::regex("\nbuilt with (CUDA [0-9]+\\.[0-9]+|no CUDA)")));
}
