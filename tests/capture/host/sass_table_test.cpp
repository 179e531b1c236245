// Tests of capture/host/sass_table.hpp on real nvdisasm output (the H100
// per-instruction results) and on cuobjdump's layout.
#include "capture/host/sass_table.hpp"

#include <doctest/doctest.h>

#include "tests/pipe_output.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include "tests/scratch.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace sass_table_test {

using namespace bankcheck::capture;

namespace {
std::string gunzip(const std::string& path) { return bankcheck::test::pipe_output("gzip -dc '" + path + "'"); }
}  // namespace

TEST_CASE("nvdisasm -gi listing of the H100 transpose kernels") {
  const auto text = gunzip(std::string(BANKCHECK_SOURCE_DIR) +
                           "/validate/results/h100-2026-11-22/per-instruction/transpose.gi.txt.gz");
  const auto lines = parse_disassembly(text);
  REQUIRE(lines.size() > 100);
  const std::string f =
      "_ZN9bankcheck7kernels21phased_capture_kernelIN41_GLOBAL__N__3347dc97_12_transpose_cu_main16TransposeFactoryImEEEEvT_"
      "NS0_13CaptureBufferE";
  CHECK(lines[0] == SassLine{f, 0x0, "LDC R1, c[0x0][0x28]"});
  CHECK(lines[1] == SassLine{f, 0x10, "LDC.64 R8, c[0x0][0x210]"});
  bool predicated = false;
  for (const auto& l : lines) predicated = predicated || (l.function == f && l.offset == 0x130 && l.text == "@P0 IADD3 R3, R3, -R8.reuse, RZ");
  CHECK(predicated);
  // Written and read back as sass.csv, looked up by site.
  const auto path = bankcheck::test::scratch("sass_test.csv");
  std::ofstream(path) << sass_table_text(lines);
  const SassTable table = SassTable::read(path);
  REQUIRE(table.find(f + "+0x10") != nullptr);
  CHECK(*table.find(f + "+0x10") == "LDC.64 R8, c[0x0][0x210]");
  CHECK(table.find(f + "+0x18") == nullptr);
  CHECK(table.find("probe") == nullptr);
  std::filesystem::remove(path);
}

TEST_CASE("cuobjdump -sass layout, and a malformed sass.csv") {
  const std::string listing =
      "\tcode for sm_90\n"
      "\t\tFunction : _Z1kPi\n"
      "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;                      /* 0x00000a00ff017b82 */\n"
      "        /*0010*/                   LDS.64 R2, [R0+0x10] ;   /* 0x000fe20000000f00 */\n";
  const auto lines = parse_disassembly(listing);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == SassLine{"_Z1kPi", 0x10, "LDS.64 R2, [R0+0x10]"});
  const auto path = bankcheck::test::scratch("sass_bad.csv");
  std::ofstream(path) << "function,offset,sass\nk,16,LDS\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":2: bad offset '16'"), std::invalid_argument);
  std::ofstream(path) << "nope\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":1: not a sass table"), std::invalid_argument);
  std::filesystem::remove(path);
}

}  // namespace sass_table_test
