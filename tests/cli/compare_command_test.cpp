// `bankcheck compare -o FILE`: the table goes to FILE (atomically) and
// never over one of compare's inputs, however FILE is spelled: the ncu
// report, a trace, a hard link to a trace (same device and inode), or a
// trace's launches.csv. Inputs: a CUB capture measured on the H100
// (validate/results/h100-2026-11-23/capture/, unpacked by the ctest fixture
// capture.real_programs.unpack), copied to a scratch folder.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_runner.hpp"
#include "tests/scratch.hpp"

using bankcheck::test::run_cli;
using bankcheck::test::slurp;
namespace fs = std::filesystem;

namespace {

const fs::path kCapture = fs::path(BANKCHECK_BINARY_DIR) / "real-programs" / "block.scan_warp_scans";

}  // namespace

TEST_CASE("compare -o refuses every spelling of an input, hard links included, and writes a new file") {
  REQUIRE_MESSAGE(fs::is_directory(kCapture), kCapture << " is missing: run the ctest fixture capture.real_programs.unpack");
  const fs::path dir = bankcheck::test::scratch("compare_o");
  fs::remove_all(dir);
  fs::create_directories(dir / "capture");
  for (const char* name : {"ncu.sass.csv", "launch-0.bktrace", "launches.csv"})
    fs::copy_file(kCapture / name, dir / "capture" / name);
  const fs::path ncu = dir / "capture" / "ncu.sass.csv", trace = dir / "capture" / "launch-0.bktrace";
  fs::create_hard_link(trace, dir / "linked.bktrace");
  fs::create_symlink(ncu, dir / "ncu-link.csv");
  const std::string ncu_text = slurp(ncu.string()), trace_bytes = slurp(trace.string()),
                    launches = slurp((dir / "capture" / "launches.csv").string());
  const std::string args = "compare --ncu " + ncu.string() + " " + trace.string() + " -o ";

  for (const fs::path& target : {dir / "linked.bktrace", trace, ncu, dir / "ncu-link.csv",
                                 dir / "capture" / "launches.csv", dir / "capture" / ".." / "capture" / "ncu.sass.csv"}) {
    CAPTURE(target);
    const auto r = run_cli(args + target.string());
    CHECK(r.code == 2);
    CHECK(r.std_err.find("refusing to write") != std::string::npos);
  }
  CHECK(fs::equivalent(trace, dir / "linked.bktrace"));  // the link was not replaced by a new file
  CHECK(slurp(trace.string()) == trace_bytes);
  CHECK(slurp(ncu.string()) == ncu_text);
  CHECK(slurp((dir / "capture" / "launches.csv").string()) == launches);

  const auto printed = run_cli("compare --ncu " + ncu.string() + " " + trace.string());
  REQUIRE(printed.code == 0);
  const auto written = run_cli(args + (dir / "table.txt").string());
  CHECK(written.code == 0);
  CHECK(written.std_out.empty());
  CHECK(slurp((dir / "table.txt").string()) == printed.std_out);
  fs::remove_all(dir);
}
