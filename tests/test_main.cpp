// The main of every doctest test program: doctest runs the cases; a run
// whose cases all passed but one skipped its work (tests/skip.hpp) exits
// kSkipExitCode so that ctest reports it Skipped. A run in which no test case
// passed the filters fails: each ctest entry runs its layer's program
// filtered to one test file (tests/CMakeLists.txt), and a filter that matches
// nothing would otherwise pass having checked nothing.
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

namespace {

unsigned& selected_cases() {
  static unsigned n = 0;
  return n;
}

// Records how many test cases passed the command line's filters.
struct SelectedCases : doctest::IReporter {
  explicit SelectedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    selected_cases() = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("bankcheck_selected_cases", 1, SelectedCases);

}  // namespace

}  // namespace bankcheck::test

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int code = context.run();
  if (context.shouldExit() || code != 0) return code;
  if (bankcheck::test::selected_cases() == 0) {
    std::printf("error: no test case passed the filters of this run\n");
    return 1;
  }
  const auto& skipped = bankcheck::test::skipped();
  if (skipped.empty()) return 0;
  std::printf("skipped: %zu part(s) of this test could not run here; every check that ran passed:\n", skipped.size());
  for (const auto& r : skipped) std::printf("  skipped: %s\n", r.c_str());
  return bankcheck::test::kSkipExitCode;
}
