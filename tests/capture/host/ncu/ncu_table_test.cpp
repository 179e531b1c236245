// Tests of capture/host/ncu/ncu_table.hpp on genuine Nsight Compute output
// (validate/results/h100-2026-11-22/per-instruction/*.sass.csv.gz).
#include "capture/host/ncu/ncu_table.hpp"

#include <doctest/doctest.h>

#include "tests/pipe_output.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace ncu_table_test {

using namespace bankcheck::capture;

namespace {
std::string gunzip(const std::string& path) { return bankcheck::test::pipe_output("gzip -dc '" + path + "'"); }
std::string data(const char* name) {
  return gunzip(std::string(BANKCHECK_SOURCE_DIR) + "/validate/results/h100-2026-11-22/per-instruction/" + name);
}
std::size_t manifest_launches(const char* name) {
  std::ifstream in(std::string(BANKCHECK_SOURCE_DIR) + "/validate/results/h100-2026-11-22/per-instruction/" + name);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n - 1;  // header
}
}  // namespace

TEST_CASE("ncu source tables: blocks per launch, printed twice, offsets from the first PC") {
  for (const char* p : {"transpose", "pbs", "sigmod", "aho_corasick", "pairwise_merge"}) {
    CAPTURE(p);
    const auto table = parse_ncu_source(data((std::string(p) + ".sass.csv.gz").c_str()), p);
    CHECK(table.deduplicated);
    CHECK(table.launches.size() == manifest_launches((std::string(p) + ".manifest.csv").c_str()));
    for (const auto& l : table.launches) {
      REQUIRE_FALSE(l.instructions.empty());
      CHECK(l.instructions[0].offset == 0);
      for (std::size_t i = 1; i < l.instructions.size(); ++i)
        CHECK(l.instructions[i].offset == l.instructions[i - 1].offset + 16);  // sm_90: 16-byte instructions
    }
  }
  const auto t = parse_ncu_source(data("transpose.sass.csv.gz"), "transpose");
  CHECK(t.launches[0].kernel == "void bankcheck::kernels::phased_kernel<<unnamed>::TransposeFactory<unsigned int>>(T1)");
  CHECK(t.launches[0].instructions[0].sass == "LDC R1, c[0x0][0x28]");
  // The plain 32x32 transpose: its column read is 32-way (7936 excess + 256 ideal wavefronts).
  bool found = false;
  for (const auto& i : t.launches[0].instructions)
    if (i.sass.rfind("LDS", 0) == 0 && i.wavefronts == 8192 && i.ideal == 256) found = true;
  CHECK(found);
}

TEST_CASE("ncu source tables: distinct consecutive blocks are kept; malformed input names the line") {
  const std::string one =
      "\"Kernel Name\",\"k(int)\"\n"
      "\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
      "\"0x100\",\"  LDS R1, [R2]\",\"4\",\"8\",\"4\"\n";
  const std::string two = one + "\"Kernel Name\",\"k(int)\"\n"
                                "\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
                                "\"0x200\",\"  LDS R1, [R2]\",\"4\",\"4\",\"4\"\n";
  const auto t = parse_ncu_source(two, "two");
  CHECK_FALSE(t.deduplicated);
  CHECK(t.launches.size() == 2);
  CHECK(t.launches[1].instructions[0].wavefronts == 4);
  CHECK(parse_ncu_source(one + one, "twice").launches.size() == 1);
  CHECK_THROWS_WITH_AS(parse_ncu_source("\"Address\",\"Source\"\n", "x"), doctest::Contains("x:1: a header line before"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_ncu_source("\"Kernel Name\",\"k\"\n\"Address\",\"Source\"\n", "x"),
                       doctest::Contains("x:2: the header has no \"Instructions Executed\""), std::invalid_argument);
  // A launch that failed under ncu ("==ERROR== LaunchFailed", H100, 2026-11-26): its listing with samples only.
  const auto failed = parse_ncu_source(
      "\"Kernel Name\",\"k\"\n\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Warp Stall Sampling "
      "(Not-issued Samples)\"\n\"0x10\",\"LDS R1, [R2]\",\"0\",\"0\"\n" + one, "x");
  REQUIRE(failed.launches.size() == 2);
  CHECK_FALSE(failed.launches[0].measured);
  CHECK(failed.launches[0].instructions.empty());
  CHECK(failed.launches[1].measured);
  CHECK_THROWS_WITH_AS(parse_ncu_source(one.substr(0, one.size() - 1) + "\n\"zz\",\"a\",\"1\",\"1\",\"1\"\n", "x"),
                       doctest::Contains("x:4: bad address 'zz'"), std::invalid_argument);
}

TEST_CASE("ncu source tables: the global sector columns, on a genuine H100 report (PBS kernel, 2026-11-22)") {
  std::ifstream in(std::string(BANKCHECK_SOURCE_DIR) + "/validate/results/h100-2026-11-22/investigate/source-K14.csv");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto table = parse_ncu_source(text, "source-K14.csv");
  REQUIRE_FALSE(table.launches.empty());
  std::size_t global_rows = 0;
  for (const auto& ins : table.launches[0].instructions) {
    if (ins.sectors == 0) continue;
    ++global_rows;
    CHECK(ins.wavefronts == 0);
    CHECK(ins.ideal_sectors == ins.sectors);  // PBS's query loads and answer stores are coalesced
    // 32 lanes x 4 bytes = 4 sectors per warp; x 8 bytes (STG.E.64) = 8.
    if (ins.sass == "STG.E.64 desc[UR10][R8.64], R6") CHECK(ins.sectors == 8 * ins.executed);
    if (ins.sass == "LDG.E R7, desc[UR10][R6.64]") CHECK(ins.sectors == 4 * ins.executed);
  }
  CHECK(global_rows == 7);
  // One of the two sector columns without the other is refused, naming the line.
  const std::string half = "\"Kernel Name\",\"k\"\n\"Address\",\"Source\",\"Instructions Executed\","
                           "\"L2 Theoretical Sectors Global\"\n";
  CHECK_THROWS_WITH_AS(parse_ncu_source(half, "h.csv"), doctest::Contains("h.csv:2: the header has one of"),
                       std::invalid_argument);
}

}  // namespace ncu_table_test
