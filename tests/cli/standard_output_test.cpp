// Every command's printed result is checked at exit (cli/standard_output.hpp):
// with standard output on /dev/full (every write fails with ENOSPC) each
// command exits 2 with an error on stderr, never 0 or 1 as if its result had
// been printed. Each invocation is first run with a working standard output
// to show that it prints something there, so the refusal is about the write.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.hpp"
#include "tests/scratch.hpp"

using bankcheck::test::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string kSource = BANKCHECK_SOURCE_DIR;
const fs::path kRealPrograms = fs::path(BANKCHECK_BINARY_DIR) / "real-programs" / "block.scan_warp_scans";

/// --library/--patches placeholders: `-- true` never initialises CUDA, so the library is not loaded.
std::string capture_placeholders() {
  const std::string lib = bankcheck::test::scratch("stdout_placeholder.so"),
                    patches = bankcheck::test::scratch("stdout_placeholder.fatbin");
  std::ofstream(lib) << "placeholder";
  std::ofstream(patches) << "placeholder";
  return "--library " + lib + " --patches " + patches;
}

}  // namespace

TEST_CASE("every command exits 2 with an error when standard output cannot be written") {
  REQUIRE_MESSAGE(fs::is_directory(kRealPrograms), kRealPrograms << " is missing: run the ctest fixture capture.real_programs.unpack");
  REQUIRE(fs::exists("/dev/full"));
  const std::string trace = kSource + "/tests/data/traces/example.trace";
  const std::string scratch = bankcheck::test::scratch("stdout_dir");
  fs::create_directories(scratch);
  const std::vector<std::string> commands = {
      "verify spaa.lemma1 --w 1..4 --quiet",
      "verify spaa.lemma1 --w 1..4 --quiet --json",
      "verify --list",
      "compare --ncu " + (kRealPrograms / "ncu.sass.csv").string() + " " + (kRealPrograms / "launch-0.bktrace").string(),
      "replay " + trace,
      "run pbs",
      "run --list",
      "trace pbs -o -",
      "draw pbs --list-rounds",
      "adversary merge w=8 E=4 -o " + scratch + "/adversary.txt",
      "convert " + trace + " - --format text",
      "capture " + capture_placeholders() + " --summary -o " + scratch + "/capture -- true",
      "--version",
      "--help",
  };
  for (const std::string& c : commands) {
    CAPTURE(c);
    const auto ok = run_cli(c, "", 300);
    CHECK(ok.code == 0);
    CHECK_FALSE(ok.std_out.empty());
    const auto full = run_cli(c, "", 300, "/dev/full");
    CHECK(full.code == 2);
    CHECK(full.std_err.find("error") != std::string::npos);
    const bool says_stdout = full.std_err.find("standard output") != std::string::npos ||
                             full.std_err.find("<stdout>") != std::string::npos;
    CHECK_MESSAGE(says_stdout, full.std_err);
  }
  fs::remove_all(scratch);
}
