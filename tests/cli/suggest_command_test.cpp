// `bankcheck suggest OUT/` on the capture folder tests/data/captures/transpose
// (made without a GPU by tests/data/lineinfo/make_capture.py; its README
// derives the counts independently: the naive column load is 32 wavefronts
// a warp, 1024 over 32 warps, every other access one a warp), and on bad
// input. The padded kernel's stride of 33 words carries into the word bits,
// so its addresses are not GF(2)-affine: no suggestion, said so.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli/cli_runner.hpp"
#include "tests/scratch.hpp"
#include "tests/support/dedup_slots.hpp"

namespace suggest_command_test {

using bankcheck::test::run_cli;
using bankcheck::test::slurp;
namespace fs = std::filesystem;

namespace {
const std::string kCapture = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/captures/transpose";
}

TEST_CASE("suggest: the naive transpose's buffer becomes conflict-free, the padded one has no affine fit") {
  const auto r = run_cli("suggest " + kCapture);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("launch 0 transpose_naive(float *, const float *): 64 shared-memory records, 1 buffer") !=
        std::string::npos);
  CHECK(r.out.find("wavefronts 1056 -> 64 (ideal 64), 992 cycles") != std::string::npos);
  CHECK(r.out.find("conflict-free") != std::string::npos);
  CHECK(r.out.find("no affine fit: no suggestion (_Z16transpose_paddedPfPKf+0x") != std::string::npos);
  CHECK(r.out.find("tests/data/lineinfo/transpose.cu:7") != std::string::npos);
}

TEST_CASE("suggest --json: per instruction before, after, source line and cycles saved") {
  const auto r = run_cli("suggest --json " + kCapture);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto j = nlohmann::json::parse(r.std_out);
  CHECK(j["command"] == "suggest");
  CHECK(j["schema_version"] == 3);
  REQUIRE(j["launches"].size() == 2);
  const auto& naive = j["launches"][0]["buffers"][0];
  CHECK(naive["suggested"] == true);
  CHECK(naive["before"] == 1056);
  CHECK(naive["after"] == 64);
  CHECK(naive["saved_cycles"] == 992.0);
  bool column = false;
  for (const auto& i : naive["instructions"]) {
    CHECK(i["fits"] == true);
    if (i["before"] != 1024) continue;
    column = true;
    CHECK(i["after"] == 32);
    CHECK(i["source"]["line"] == 7);
    CHECK(i["op"] == "ld");
  }
  CHECK(column);
  const auto& padded = j["launches"][1]["buffers"][0];
  CHECK(padded["suggested"] == false);
  CHECK(padded["map"].is_null());
  CHECK(padded["why_not"].get<std::string>().rfind("no affine fit: no suggestion", 0) == 0);
}

TEST_CASE("suggest --csv and -o FILE") {
  const std::string out = bankcheck::test::scratch("suggest.csv");
  const auto r = run_cli("suggest --csv -o " + out + " " + kCapture);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const std::string csv = slurp(out);
  CHECK(csv.rfind("launch,kernel,buffer_base,buffer_bytes,site,op,width,executions,fits,before,after,ideal,"
                  "saved_cycles,map,verdict,source,evidence\n", 0) == 0);
  CHECK(csv.find(",ld,4,32,true,1024,32,32,992,") != std::string::npos);
}

TEST_CASE("suggest: CUB's histogram captured on the H100 (bins by data): no affine fit, no suggestion") {
  const fs::path capture = fs::path(BANKCHECK_BINARY_DIR) / "real-programs" / "cub.histogram";
  REQUIRE_MESSAGE(fs::is_directory(capture), capture << " is missing: run the ctest fixture capture.real_programs.unpack");
  const auto r = run_cli("suggest --json " + capture.string());
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto j = nlohmann::json::parse(r.std_out);
  const auto& sweep = j["launches"][1];
  REQUIRE(sweep["buffers"].size() == 1);
  const auto& bins = sweep["buffers"][0];
  CHECK(bins["suggested"] == false);
  CHECK(bins["why_not"].get<std::string>().rfind("no affine fit: no suggestion (", 0) == 0);
  std::size_t atoms_unfit = 0;
  for (const auto& i : bins["instructions"]) {
    CHECK(i["after"] == i["before"]);  // nothing suggested, nothing claimed
    if (i["op"].get<std::string>().rfind("atom", 0) == 0 && i["fits"] == false) ++atoms_unfit;
  }
  CHECK(atoms_unfit > 0);
}

TEST_CASE("suggest: a site longer than its column still has a space before the op") {
  const fs::path capture = fs::path(BANKCHECK_BINARY_DIR) / "real-programs" / "cub.histogram";
  REQUIRE_MESSAGE(fs::is_directory(capture), capture << " is missing: run the ctest fixture capture.real_programs.unpack");
  const auto r = run_cli("suggest " + capture.string());
  REQUIRE_MESSAGE(r.code == 0, r.out);
  std::istringstream lines(r.std_out);
  std::size_t long_sites = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto plus = line.find("+0x");
    if (line.rfind("    _Z", 0) != 0 || plus == std::string::npos) continue;
    const auto end = line.find(' ', plus);  // the site ends at its first space
    REQUIRE(end != std::string::npos);
    long_sites += end >= 4 + 34;
    const std::string op = line.substr(line.find_first_not_of(' ', end), 3);
    CHECK_MESSAGE((op == "ld." || op == "st." || op == "ato"), line);
  }
  CHECK(long_sites > 0);  // CUB's mangled names are longer than the column
}

TEST_CASE("suggest: bad input exits 2 with why") {
  const fs::path dir = bankcheck::test::scratch("suggest_bad");
  fs::create_directories(dir);
  auto r = run_cli("suggest " + dir.string());
  CHECK(r.code == 2);
  CHECK(r.out.find("not a capture folder (no launches.csv") != std::string::npos);
  bankcheck::test::write_text((dir / "launches.csv").string(),
                              "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,"
                              "status,untraced,trace\n0,k,k(),1x1x1,32x1x1,,1,1,captured,,\n");
  r = run_cli("suggest " + dir.string());
  CHECK(r.code == 2);
  CHECK(r.out.find("no launch has a trace") != std::string::npos);
}

TEST_CASE("suggest on a deduplicated capture: the same map and wavefronts, and the output says the fit is per record") {
  // The naive transpose run as 4 blocks and written as capture writes it by default: the host's dedup table
  // (capture/host/ring/slot_dedup.hpp) merges each block's repeat of a record into one with its count.
  const fs::path dir = bankcheck::test::scratch("suggest_dedup");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto slots = bankcheck::test::slots_of_trace(kCapture + "/launch-0.trace", 4);
  REQUIRE(bankcheck::test::write_slots((dir / "launch-0.bktrace").string(), slots, true).merged == 3 * 64);
  std::ifstream in(kCapture + "/launches.csv");
  std::string header, naive;
  std::getline(in, header), std::getline(in, naive);
  naive.replace(naive.find("launch-0.trace"), 14, "launch-0.bktrace");
  std::ofstream(dir / "launches.csv") << header << "\n" << naive << "\n";
  const auto r = run_cli("suggest " + dir.string());
  REQUIRE_MESSAGE(r.code == 0, r.out);
  // 4 blocks of the README's counts: 4 x 1056 before, 4 x 64 after (one wavefront a warp instruction).
  CHECK(r.out.find("256 shared-memory records (64 distinct: a deduplicated trace), 1 buffer\n"
                   "  fits on the lane bits of each distinct record\n") != std::string::npos);
  CHECK(r.out.find("wavefronts 4224 -> 256 (ideal 256)") != std::string::npos);
  CHECK(r.out.find("fit: lane[0:0x80 1:0x100 2:0x200 3:0x400 4:0x800] in each of 32 distinct records") !=
        std::string::npos);
  const auto j = nlohmann::json::parse(run_cli("suggest --json " + dir.string()).std_out);
  CHECK(j["launches"][0]["deduplicated"] == true);
  CHECK(j["launches"][0]["distinct_records"] == 64);
  CHECK(j["launches"][0]["fit_evidence"] == "lane bits of each distinct record");
  CHECK(j["launches"][0]["buffers"][0]["instructions"][1]["evidence"] == "lane bits of each distinct record");
  fs::remove_all(dir);
}

}  // namespace suggest_command_test
