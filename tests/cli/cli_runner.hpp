#pragma once
// Runs the built bankcheck binary (BANKCHECK_CLI) with arguments and returns
// its exit code and combined stdout/stderr: shared by the CLI tests.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace bankcheck::test {

struct CliResult {
  int code;         ///< exit status, -1 if killed by a signal
  std::string out;  ///< stdout and stderr together
};

inline CliResult run_cli(const std::string& args) {
  const std::string cmd = std::string(BANKCHECK_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace bankcheck::test
