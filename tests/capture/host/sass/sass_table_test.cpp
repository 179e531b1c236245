// Tests of capture/host/sass/sass_table.hpp on real nvdisasm output (the H100
// per-instruction results) and on cuobjdump's layout.
#include "capture/host/sass/sass_table.hpp"

#include <doctest/doctest.h>

#include "tests/pipe_output.hpp"

#include <algorithm>
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
  CHECK((lines[0].function == f && lines[0].offset == 0x0 && lines[0].text == "LDC R1, c[0x0][0x28]"));
  CHECK((lines[1].function == f && lines[1].offset == 0x10 && lines[1].text == "LDC.64 R8, c[0x0][0x210]"));
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
  CHECK(lines[1] == SassLine{"_Z1kPi", 0x10, "LDS.64 R2, [R0+0x10]", {}});  // cuobjdump: no line info
  const auto path = bankcheck::test::scratch("sass_bad.csv");
  std::ofstream(path) << "function,offset,sass\nk,16,LDS\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":2: bad offset '16'"), std::invalid_argument);
  std::ofstream(path) << "function,offset,sass,file,line,inlined_at\nk,0x10,LDS,k.cu,zero,\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":2: bad file/line 'k.cu', 'zero'"), std::invalid_argument);
  std::ofstream(path) << "function,offset,sass,file,line,inlined_at\nk,0x10,LDS,k.cu,3,k.cu\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":2: bad inlined_at entry 'k.cu'"), std::invalid_argument);
  std::ofstream(path) << "nope\n";
  CHECK_THROWS_WITH_AS(SassTable::read(path), doctest::Contains(":1: not a sass table"), std::invalid_argument);
  std::filesystem::remove(path);
}

TEST_CASE("one function name in two modules: a site whose listings disagree is unknown, never the last read") {
  // The H200 lines run (validate/results/h200-2026-11-29/lines): Triton compiled trans_kernel for float32 and
  // for int8 under one name; 156 of its offsets hold different SASS in the two cubins.
  const bankcheck::report::SourceLine at49{bankcheck::report::FileLine{"k.py", 49}, {}};
  const bankcheck::report::SourceLine at50{bankcheck::report::FileLine{"k.py", 50}, {}};
  struct Case {
    SassLine second;
    bool text_known, source_known;
  };
  const SassLine first{"trans_kernel", 0x40, "STS [R3], R4", at49};
  for (const Case& c : {Case{{"trans_kernel", 0x40, "STS [R3], R4", at49}, true, true},
                        Case{{"trans_kernel", 0x40, "STS.U8 [R3], R4", at49}, false, true},
                        Case{{"trans_kernel", 0x40, "STS [R3], R4", at50}, true, false},
                        Case{{"trans_kernel", 0x40, "SGXT.U32 R3, R3, 0x8", at50}, false, false}}) {
    SassTable table;
    table.add(first);
    table.add(c.second);
    table.add({"other", 0x40, "LDS R1, [R2]", at50});
    CAPTURE(c.second.text);
    CHECK((table.find("trans_kernel+0x40") != nullptr) == c.text_known);
    CHECK((table.source("trans_kernel+0x40") != nullptr) == c.source_known);
    CHECK(table.sites_at({"k.py", 49}).size() == (c.source_known ? 1u : 0u));
    CHECK(table.ambiguous_functions() ==
          (c.text_known && c.source_known ? std::vector<std::string>{} : std::vector<std::string>{"trans_kernel"}));
    REQUIRE(table.find("other+0x40") != nullptr);
    CHECK(*table.find("other+0x40") == "LDS R1, [R2]");
  }
}

namespace {
/// The line of transpose.cu whose MARK comment is `text`, found in the source: the truth the listing must give.
std::uint32_t marker_line(const std::string& text) {
  std::ifstream in(std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/lineinfo/transpose.cu");
  std::uint32_t n = 0, found = 0;
  for (std::string line; std::getline(in, line);)
    if (++n, line.find("MARK: " + text) != std::string::npos) found = n;
  REQUIRE(found > 0);
  return found;
}

/// The one instruction of `function` whose SASS starts with `mnemonic`.
const SassLine& only(const std::vector<SassLine>& lines, const std::string& function, const std::string& mnemonic) {
  const SassLine* hit = nullptr;
  for (const auto& l : lines)
    if (l.function == function && l.text.rfind(mnemonic, 0) == 0) {
      REQUIRE(hit == nullptr);
      hit = &l;
    }
  REQUIRE(hit != nullptr);
  return *hit;
}
}  // namespace

/// Checks the STS/LDS lines of transpose.cu's two kernels against its MARK comments.
void check_transpose_lines(const std::vector<SassLine>& lines, const std::string& file) {
  using bankcheck::report::FileLine;
  const std::string naive = "_Z15transpose_naivePfPKf", padded = "_Z16transpose_paddedPfPKf";
  CHECK(only(lines, naive, "STS").source.at == FileLine{file, marker_line("naive row store")});
  CHECK(only(lines, naive, "STS").source.inlined_at.empty());
  // The column load is written in column_of, inlined at the call in the kernel.
  CHECK(only(lines, naive, "LDS").source.at == FileLine{file, marker_line("naive column load")});
  CHECK(only(lines, naive, "LDS").source.inlined_at == std::vector<FileLine>{{file, marker_line("naive call")}});
  CHECK(only(lines, padded, "STS").source.at == FileLine{file, marker_line("padded row store")});
  CHECK(only(lines, padded, "LDS").source.at == FileLine{file, marker_line("padded column load")});
  CHECK(only(lines, padded, "LDS").source.inlined_at.empty());
}

TEST_CASE("nvdisasm -gi line info: each access at the line its source's MARK comment is on, with its inlining") {
  // tests/data/lineinfo/README.md says how the listing was made (nvcc -lineinfo, nvdisasm -c -gi).
  const auto lines = parse_disassembly(bankcheck::test::pipe_output(
      "cat '" + std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/lineinfo/transpose.sass.txt'"));
  check_transpose_lines(lines, "tests/data/lineinfo/transpose.cu");
  // An instruction keeps the line of the last run of line comments before it (DWARF rows hold until the next).
  for (const auto& l : lines)
    if (l.function == "_Z15transpose_naivePfPKf" && l.offset == 0x30) CHECK(l.source.at->line == marker_line("naive row store"));
  // sass.csv version 2 keeps it; version 1 is still read, without line info.
  const auto path = bankcheck::test::scratch("sass_lines.csv");
  std::ofstream(path) << sass_table_text(lines);
  const SassTable table = SassTable::read(path);
  REQUIRE(table.source("_Z15transpose_naivePfPKf+0x130") != nullptr);
  CHECK(*table.source("_Z15transpose_naivePfPKf+0x130") == only(lines, "_Z15transpose_naivePfPKf", "LDS").source);
  CHECK(table.source("_Z15transpose_naivePfPKf+0x138") == nullptr);
  // Every instruction of a line (the load's address arithmetic too), and those inlined at it.
  const auto has = [](const std::vector<std::string>& sites, const std::string& site) {
    return std::find(sites.begin(), sites.end(), site) != sites.end();
  };
  const auto call = table.sites_at({"transpose.cu", marker_line("naive call")});
  CHECK(has(call, "_Z15transpose_naivePfPKf+0x130"));
  CHECK_FALSE(has(call, "_Z15transpose_naivePfPKf+0x110"));
  const auto padded = table.sites_at({"lineinfo/transpose.cu", marker_line("padded column load")});
  CHECK(has(padded, "_Z16transpose_paddedPfPKf+0x130"));
  for (const auto& site : padded) CHECK(site.rfind("_Z16transpose_paddedPfPKf+", 0) == 0);
  CHECK(table.sites_at({"ranspose.cu", marker_line("padded column load")}).empty());
  CHECK(table.sites_at({"transpose.cu", 1}).empty());
  std::ofstream(path) << "function,offset,sass\n_Z1kPi,0x10,LDS\n";
  const SassTable v1 = SassTable::read(path);
  REQUIRE(v1.source("_Z1kPi+0x10") != nullptr);
  CHECK_FALSE(v1.source("_Z1kPi+0x10")->at);
  std::filesystem::remove(path);
}

}  // namespace sass_table_test
