// The main of every doctest test program: doctest runs the cases; a run
// whose cases all passed but one skipped its work (tests/skip.hpp) exits
// kSkipExitCode so that ctest reports it Skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "tests/skip.hpp"

namespace bankcheck::test {

namespace {
std::vector<std::string>& reasons() {
  static std::vector<std::string> r;
  return r;
}
}  // namespace

void skip(const std::string& reason) {
  std::printf("skipped: %s\n", reason.c_str());
  std::fflush(stdout);
  reasons().push_back(reason);
}

const std::vector<std::string>& skipped() { return reasons(); }

}  // namespace bankcheck::test

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int code = context.run();
  if (context.shouldExit() || code != 0) return code;
  const auto& skipped = bankcheck::test::skipped();
  if (skipped.empty()) return 0;
  std::printf("skipped: %zu part(s) of this test could not run here; every check that ran passed:\n", skipped.size());
  for (const auto& r : skipped) std::printf("  skipped: %s\n", r.c_str());
  return bankcheck::test::kSkipExitCode;
}
