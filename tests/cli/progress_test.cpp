// Progress on stderr (cli/options.hpp, sim/report/progress.hpp) for long
// `run`, `trace` and `replay`: shown when stderr is a terminal, never with
// --quiet or when stderr is a file. `script` gives the command a terminal;
// BANKCHECK_PROGRESS_AFTER_MS=0 stands for "this took more than 2 s".
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/cli_runner.hpp"
#include "tests/skip.hpp"

namespace {
/// stderr and stdout of `bankcheck ARGS` run on a terminal (script(1)).
std::string on_terminal(const std::string& args) {
  const std::string log = bankcheck::test::scratch("terminal.log");
  const std::string inner = "BANKCHECK_PROGRESS_AFTER_MS=0 '" + std::string(BANKCHECK_CLI) + "' " + args;
  const std::string cmd = "script -qec \"" + inner + "\" /dev/null >'" + log + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return bankcheck::test::slurp(log);
}
}  // namespace

TEST_CASE("progress: on a terminal after the delay, cleared at the end; never with --quiet or without a terminal") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    bankcheck::test::skip("no script(1) to give the command a terminal");
    return;
  }
  const std::string trace = bankcheck::test::scratch("progress.trace");
  struct Case {
    std::string args, what;
  };
  for (const Case& c : {Case{"run pbs queries=200000 --json -o " + bankcheck::test::scratch("p.json"), "run pbs: "},
                        Case{"trace pbs queries=200000 -o " + trace, "trace pbs: "},
                        Case{"replay -o " + bankcheck::test::scratch("p.txt") + " " + trace, "replay: "}}) {
    CAPTURE(c.args);
    const std::string shown = on_terminal(c.args);
    CHECK(shown.find("\r" + c.what) != std::string::npos);
    CHECK(shown.find(" instructions, ") != std::string::npos);
    CHECK(shown.find("\r\033[K") != std::string::npos);  // the line is erased at the end
    CHECK(on_terminal(c.args + " --quiet").find(c.what) == std::string::npos);
    const auto plain = bankcheck::test::run_cli(c.args);  // stderr is a file
    CHECK(plain.code == 0);
    CHECK(plain.std_err.empty());
  }
}
