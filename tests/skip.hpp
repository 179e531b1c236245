#pragma once
// A runtime skip for doctest tests: a test case that cannot do its work on
// this machine (no nvcc, no terminal, no AVX2, a CUDA driver where its
// absence is the subject) calls skip(REASON) and returns. The reason is
// printed as "skipped: REASON", and when every check of the run passed the
// test program exits 77, which tests/CMakeLists.txt declares as ctest's
// SKIP_RETURN_CODE: ctest reports the test Skipped, never Passed. A failed
// check still exits 1: a skip never hides a failure.
#include <string>
#include <vector>

namespace bankcheck::test {

/// Exit code of a test program that skipped something and failed nothing.
inline constexpr int kSkipExitCode = 77;

/// Records that the running test case skipped its work, and why (printed at once).
void skip(const std::string& reason);

/// The reasons given to skip() so far in this process.
const std::vector<std::string>& skipped();

}  // namespace bankcheck::test
