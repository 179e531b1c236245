// `bankcheck compare -o FILE`: the table goes to FILE (atomically) and
// never over one of compare's inputs, however FILE is spelled: the ncu
// report, a trace, a hard link to a trace (same device and inode), or a
// trace's launches.csv. Inputs: a CUB capture measured on the H100
// (validate/results/h100-2026-11-23/capture/, unpacked by the ctest fixture
// capture.real_programs.unpack), copied to a scratch folder. Also: the rows
// carry the source lines of a sass.csv beside the trace; and compare offers the layout `suggest` finds for
// a conflicting buffer (the capture made without a GPU, tests/data/captures/transpose).
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
  CHECK(csv.rfind("launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal,detail,source,suggestion\n", 0) == 0);
  CHECK(csv.find(",scan.cu:100 (inlined at main.cu:7),\n") != std::string::npos);
  CHECK(run_cli(args).std_out.find("  scan.cu:100 (inlined at main.cu:7)\n") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("compare offers suggest's map for a conflicting buffer, in text, JSON and CSV; none where nothing conflicts") {
  // tests/data/captures/transpose and an ncu page written by hand with its README's counts (independent of
  // bankcheck): per kernel 32 stores of 1 wavefront; the naive kernel's 32 column loads 32 wavefronts each,
  // the padded kernel's 1. So the naive buffer conflicts (1056 wavefronts, ideal 64), the padded one does not.
  const fs::path dir = bankcheck::test::scratch("compare_offer");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path fixture = fs::path(BANKCHECK_SOURCE_DIR) / "tests/data/captures/transpose";
  for (const char* name : {"launch-0.trace", "launch-1.trace", "launches.csv", "sass.csv"})
    fs::copy_file(fixture / name, dir / name);
  const std::string header =
      "\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n";
  std::ofstream(dir / "ncu.csv") << "\"Kernel Name\",\"transpose_naive(float *, const float *)\"\n" << header
                                 << "\"0x1000\",\"LDC R1, c[0x0][0x28]\",\"32\",\"0\",\"0\"\n"
                                 << "\"0x1110\",\"STS [R7], R0\",\"32\",\"32\",\"32\"\n"
                                 << "\"0x1130\",\"LDS R9, [R6]\",\"32\",\"1024\",\"32\"\n"
                                 << "\"Kernel Name\",\"transpose_padded(float *, const float *)\"\n" << header
                                 << "\"0x2000\",\"LDC R1, c[0x0][0x28]\",\"32\",\"0\",\"0\"\n"
                                 << "\"0x2110\",\"STS [R7], R0\",\"32\",\"32\",\"32\"\n"
                                 << "\"0x2130\",\"LDS R9, [R4]\",\"32\",\"32\",\"32\"\n";
  const std::string args = "compare --ncu " + (dir / "ncu.csv").string() + " " + (dir / "launch-0.trace").string() +
                           " " + (dir / "launch-1.trace").string();
  const auto text = run_cli(args);
  CHECK(text.code == 0);  // every row equal: the offer does not change the verdicts
  const std::string line =
      "suggest: launch 0 transpose_naive(float *, const float *): buffer at 1024 (4096 bytes): map ";
  const auto at = text.std_out.find(line);
  REQUIRE(at != std::string::npos);
  CHECK(text.std_out.find("gives 1056 -> 64 wavefronts (ideal 64), 992 saved; conflicting: _Z15transpose_naivePfPKf+0x130 ",
                          at) != std::string::npos);
  CHECK(text.std_out.find("suggest: launch 1") == std::string::npos);  // the padded buffer does not conflict
  const auto json = nlohmann::json::parse(run_cli(args + " --json").std_out);
  REQUIRE(json["suggestions"].size() == 1);
  CHECK(json["suggestions"][0]["saved"] == 992);
  CHECK(json["suggestions"][0]["base"] == 1024);
  CHECK(json["suggestions"][0]["conflicting"] == nlohmann::json::array({"_Z15transpose_naivePfPKf+0x130"}));
  std::size_t offered = 0;
  for (const auto& row : json["rows"]) {
    CHECK(row["model_ideal"] == 32);
    offered += row["model_wavefronts"] == 1024;
  }
  CHECK(offered == 1);
  const std::string map = json["suggestions"][0]["map"];
  const auto csv = run_cli(args + " --csv").std_out;
  CHECK(csv.find(",\"" + map + ": buffer at 1024, 1056 -> 64 wavefronts\"\n") != std::string::npos);
  CHECK(csv.find("tests/data/lineinfo/transpose.cu:13,\n") != std::string::npos);  // the store: no offer on its row
  fs::remove_all(dir);
}
