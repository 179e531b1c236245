#pragma once
// Runs the built bankcheck binary (BANKCHECK_CLI) through the shell and
// returns its exit code, stdout and stderr: shared by the CLI tests. Scratch
// files go to tests/scratch.hpp's directory of this process.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/scratch.hpp"

namespace bankcheck::test {

struct CliResult {
  int code;         ///< exit status, -1 if killed by a signal
  std::string out;  ///< stdout and stderr together (stderr after stdout)
  std::string std_out;
  std::string std_err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// Runs `bankcheck ARGS` (ARGS is shell text) with a time limit, optionally with stdin from a file
/// and with stdout going to `stdout_to` (e.g. /dev/full; then CliResult::std_out is empty).
inline CliResult run_cli(const std::string& args, const std::string& stdin_file = "", int seconds = 300,
                         const std::string& stdout_to = "") {
  static int n = 0;
  const std::string err = scratch("cli-err-" + std::to_string(n));
  const std::string out = stdout_to.empty() ? scratch("cli-out-" + std::to_string(n)) : stdout_to;
  ++n;
  std::string cmd = "timeout " + std::to_string(seconds) + " '" + std::string(BANKCHECK_CLI) + "' " + args + " >'" +
                    out + "' 2>'" + err + "'";
  if (!stdin_file.empty()) cmd += " <'" + stdin_file + "'";
  const int status = std::system(cmd.c_str());
  CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, "", stdout_to.empty() ? slurp(out) : "", slurp(err)};
  r.out = r.std_out + r.std_err;
  if (stdout_to.empty()) std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

}  // namespace bankcheck::test
