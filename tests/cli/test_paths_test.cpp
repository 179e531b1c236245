// Tests write their files under TMPDIR through tests/scratch.hpp (a
// directory per process), never at a fixed path such as /tmp/bankcheck_x,
// so two builds can run their tests at once.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

TEST_CASE("no test names a fixed /tmp path or makes its own temporary directory") {
  const fs::path tests = fs::path(BANKCHECK_SOURCE_DIR) / "tests";
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(tests)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    const std::string rel = fs::relative(e.path(), tests).string();
    if (rel == "scratch.hpp" || rel == "cli/test_paths_test.cpp") continue;
    ++files;
    const std::string text = bankcheck::test::slurp(e.path().string());
    CAPTURE(rel);
    CHECK(text.find("\"/tmp") == std::string::npos);
    CHECK(text.find("temp_directory_path") == std::string::npos);
    CHECK(text.find("tmpnam") == std::string::npos);
  }
  CHECK(files > 40);
}

TEST_CASE("the scratch directory is under TMPDIR and belongs to this process") {
  const std::string dir = bankcheck::test::scratch_dir().string();
  CHECK(dir.rfind(fs::temp_directory_path().string(), 0) == 0);
  CHECK(dir.find(std::to_string(::getpid())) != std::string::npos);
  CHECK(fs::is_directory(dir));
}
