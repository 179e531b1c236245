// `bankcheck compare -o FILE`: the table goes to FILE (atomically) and
// never over one of compare's inputs, however FILE is spelled: the ncu
// report, a trace, a hard link to a trace (same device and inode), or a
// trace's launches.csv. Inputs: a CUB capture measured on the H100
// (validate/results/h100-2026-11-23/capture/, unpacked by the ctest fixture
// capture.real_programs.unpack), copied to a scratch folder. Also: the rows
// carry the source lines of a sass.csv beside the trace.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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

TEST_CASE("compare carries each instruction's source line from the capture's sass.csv, or says it has none") {
  REQUIRE_MESSAGE(fs::is_directory(kCapture), kCapture << " is missing: run the ctest fixture capture.real_programs.unpack");
  const fs::path dir = bankcheck::test::scratch("compare_lines");
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* name : {"ncu.sass.csv", "launch-0.bktrace", "launches.csv"}) fs::copy_file(kCapture / name, dir / name);
  // The capture's sites, the first given line 100, the second 101, ..., the last none.
  const auto sites = nlohmann::json::parse(run_cli("replay --json " + (dir / "launch-0.bktrace").string()).std_out)["sites"];
  REQUIRE(sites.size() >= 2);
  std::string sass = "function,offset,sass,file,line,inlined_at\n";
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const std::string site = sites[i]["site"];
    const auto plus = site.rfind("+0x");
    sass += site.substr(0, plus) + "," + site.substr(plus + 1) + ",LDS,";
    sass += i + 1 < sites.size() ? "scan.cu," + std::to_string(100 + i) + ",main.cu:7\n" : ",,\n";
  }
  std::ofstream(dir / "sass.csv") << sass;
  const std::string args = "compare --ncu " + (dir / "ncu.sass.csv").string() + " " + (dir / "launch-0.bktrace").string();
  const auto json = nlohmann::json::parse(run_cli(args + " --json").std_out);
  std::size_t named = 0, none = 0;
  for (const auto& row : json["rows"]) {
    REQUIRE(row.contains("source"));
    if (row["source"]["file"].is_null()) {
      ++none;
      CHECK(row["source"]["text"] == "no line info");
    } else {
      ++named;
      CHECK(row["source"]["inlined_at"][0]["file"] == "main.cu");
    }
  }
  CHECK(named == sites.size() - 1);
  CHECK(none == 1);
  const auto csv = run_cli(args + " --csv").std_out;
  CHECK(csv.rfind("launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal,detail,source\n", 0) == 0);
  CHECK(csv.find(",scan.cu:100 (inlined at main.cu:7)\n") != std::string::npos);
  CHECK(run_cli(args).std_out.find("  scan.cu:100 (inlined at main.cu:7)\n") != std::string::npos);
  fs::remove_all(dir);
}
