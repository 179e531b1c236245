// bankcheck verify end to end: names, models, output formats, numbers, exit codes.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "tests/cli/cli_runner.hpp"
#include "tests/pipe_output.hpp"
#include "tests/scratch.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace verify_command_test {

namespace {
using Result = bankcheck::test::CliResult;
Result verify(const std::string& args) { return bankcheck::test::run_cli("verify " + args); }
/// stdout only.
std::string verify_stdout(const std::string& args) {
  return bankcheck::test::pipe_output(std::string(BANKCHECK_CLI) + " verify " + args + " 2>/dev/null");
}
std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::path(bankcheck::test::scratch("verify_test_" + name));
}
}  // namespace

TEST_CASE("a claim id selects that claim only; paper names, globs and --prefix select more") {
  auto count = [](const std::string& args) {
    return nlohmann::json::parse(verify_stdout(args + " --w 1..8 --quiet --json"))["claims"].size();
  };
  CHECK(count("spaa.lemma1") == 1);  // not spaa.lemma1.tight too
  CHECK(count("spaa.lemma1 spaa.corollary3") == 2);
  CHECK(count("'spaa.lemma2.*'") == 2);
  CHECK(count("spaa.lemma2 --prefix") == 2);
  CHECK(count("spaa.lemma1 --prefix") == 2);
  const auto prefix_only = verify("spaa.lemma2");
  CHECK(prefix_only.code == 2);
  CHECK(prefix_only.out.find("'spaa.lemma2.*' or --prefix selects spaa.lemma2.1, spaa.lemma2.2") != std::string::npos);
}

TEST_CASE("--model: claims not stated for the model are not applicable, never run vacuously") {
  const auto none = verify("spaa.lemma1 --model sm90");
  CHECK(none.code == 2);
  CHECK(none.out.find("no selected claim is stated for model sm90") != std::string::npos);
  const auto j = nlohmann::json::parse(verify_stdout("spaa.lemma1 spaa.gather.warp --model sm90 --w 32 --E 1..3 --json"));
  CHECK(j["claims"][0]["status"] == "not applicable");
  CHECK(j["claims"][0]["points_within"] == 0);
  CHECK(j["claims"][1]["status"] == "holds");
  CHECK(j["claims"][1]["model"] == "sm90");
  CHECK(j["exit_code"] == 0);
  // sm90 exists only at w = 32: a grid without it checks nothing, which is an error.
  CHECK(verify("spaa.gather.warp --model sm90 --w 1..8 --quiet").code == 2);
}

TEST_CASE("--json and --csv print to stdout; -o FILE takes its format from --format or the extension") {
  const auto j = nlohmann::json::parse(verify_stdout("spaa.lemma1 --w 1..8 --json"));
  CHECK(j["claims"][0]["id"] == "spaa.lemma1");
  CHECK(verify_stdout("spaa.lemma1 --w 1..8 --csv").rfind("claim,paper,lemma,model,", 0) == 0);
  const auto json = scratch("c.json"), md = scratch("c.md"), csv = scratch("c.txt");
  REQUIRE(verify("spaa.lemma1 --w 1..8 --quiet -o " + json.string()).code == 0);
  CHECK(nlohmann::json::parse(slurp(json))["claims"][0]["status"] == "holds");
  REQUIRE(verify("spaa.lemma1 --w 1..8 --quiet -o " + md.string()).code == 0);
  CHECK(slurp(md).rfind("| claim | paper |", 0) == 0);
  REQUIRE(verify("spaa.lemma1 --w 1..8 --quiet --format csv -o " + csv.string()).code == 0);
  CHECK(slurp(csv).rfind("claim,paper,", 0) == 0);
  // The old --json FILE: FILE is no claim; the message says how to write it.
  const auto old = verify("--json " + json.string() + " spaa.lemma1");
  CHECK(old.code == 2);
  CHECK(old.out.find("write a file with -o") != std::string::npos);
  std::filesystem::remove(json);
  std::filesystem::remove(md);
  std::filesystem::remove(csv);
}

TEST_CASE("a failing claim exits 1 and its reproduction command reproduces it") {
  const auto r = verify("spaa.gather.warp.no_shift --w 4 --E 2 --quiet");
  CHECK(r.code == 1);
  const auto at = r.out.find("`bankcheck verify ");
  REQUIRE(at != std::string::npos);
  const std::string again = r.out.substr(at + 11, r.out.find('`', at + 1) - at - 11);
  CHECK(bankcheck::test::run_cli(again + " --quiet").code == 1);
}

TEST_CASE("numbers are range-checked: exit 2 with the range") {
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : {Case{"spaa.lemma1 --seed -1", "--seed: must be an integer in 0..18446744073709551615 (got -1)"},
                        Case{"spaa.lemma1 --threads 0", "--threads: must be an integer in 1..1024"},
                        Case{"spaa.lemma1 --inputs 0", "--inputs: must be an integer in 1.."},
                        Case{"spaa.lemma1 --sample -2", "--sample: must be an integer in 1.."},
                        Case{"spaa.lemma1 --w 0..3", "values must lie in 1..1048576"},
                        Case{"spaa.lemma1 --w 9..3", "empty or reversed"},
                        Case{"spaa.lemma1 --E 1..", "expected A..B or A"},
                        Case{"spaa.lemma1 --model nosuch", "unknown model 'nosuch'"}}) {
    CAPTURE(c.args);
    const auto r = verify(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.find(c.expect) != std::string::npos);
  }
  CHECK(verify("spaa.gather.warp --w 32..32 --E 8..8 --exhaustive").code == 2);
  CHECK(verify("spaa.lemma1 --exhaustive --sample 3").code == 2);
  CHECK(verify("spaa.lemma1 --w 1..1048576 --E 1..1048576").code == 2);  // grid too large without --sample
  CHECK(verify("--list").code == 0);
}

TEST_CASE("Theorem 8 holds where the theorem holds, at widths past 64 mixing threads") {
  // Each point had been reported FAILS by a search over the orders of the
  // first 64 mixing threads; the paper's counts: 7866 and 527616.
  for (const char* point : {"--w 129..129 --E 105..105", "--w 86..86 --E 70..70", "--w 1024..1024 --E 1000..1000"}) {
    CAPTURE(point);
    const auto r = verify(std::string("spaa.theorem8 ") + point + " --quiet");
    CHECK(r.code == 0);
    CHECK(r.out.find("| holds |") != std::string::npos);
  }
}

TEST_CASE("--time-limit and SIGINT stop a run early: a partial certificate, exit 3") {
  const auto timed = verify("spaa.lemma1 --time-limit 0.000001 --quiet");
  CHECK(timed.code == 3);
  CHECK(timed.out.find("| PARTIAL |") != std::string::npos);
  CHECK(timed.out.find("PARTIAL: the run stopped (the time limit of 1e-06 s)") != std::string::npos);
  CHECK(verify("spaa.lemma1 --time-limit -1").code == 2);
  // SIGINT three seconds into a run of minutes: the table of what was checked, on stdout.
  const std::string out = scratch("interrupted.md").string();
  const std::string cmd = "timeout --preserve-status -s INT 3 '" + std::string(BANKCHECK_CLI) +
                          "' verify spaa.gather.warp --w 1..512 --E 1..512 --threads 1 --quiet >'" + out + "' 2>/dev/null";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  const std::string md = slurp(out);
  CHECK(md.find("| spaa.gather.warp |") != std::string::npos);
  CHECK(md.find("PARTIAL: the run stopped (interrupted)") != std::string::npos);
}

TEST_CASE("no progress bar when stderr is not a terminal") {
  const auto r = verify("spaa.gather.warp --w 1..24 --E 1..24");
  CHECK(r.code == 0);
  CHECK(r.out.find("[#") == std::string::npos);
}

}  // namespace verify_command_test
