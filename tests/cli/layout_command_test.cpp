// bankcheck layout, end to end through the built binary.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_runner.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace layout_command_test {

namespace {
using bankcheck::test::scratch;
using bankcheck::test::slurp;
bankcheck::test::CliResult run(const std::string& args) { return bankcheck::test::run_cli(args); }
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("layout: the unswizzled fp16 tile conflicts 8-way under ldmatrix; the report names lanes and bank") {
  const auto r = run("layout '(_8,_64):(_64,_1)' --type fp16 --access ldmatrix.x4 --per-instruction");
  CHECK(r.code == 0);
  CHECK(has(r.out, "wavefronts     64"));
  CHECK(has(r.out, "conflicts      56"));
  CHECK(has(r.out, "lanes 0-7 form one phase (matrix 0 of ldmatrix.x4)"));
  CHECK(has(r.out, "  lane 7  element (7,0)  bytes 896-911  banks 0-3"));
  CHECK(has(r.out, "worst conflict: instruction 0 (r0-7.c0-31, ldsm 16): bank 0 serves 8 distinct words to lanes 0-7"));
}

TEST_CASE("layout: the gate, JSON, -o and --svg") {
  auto r = run("layout 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' --type fp16 --access ld.128 --fail-on-conflicts");
  CHECK(r.code == 0);
  CHECK(has(r.out, "gate: --fail-on-conflicts=0: passed (0 conflicts)"));
  r = run("layout 'Sw<3,3,4> o _0 o (_16,_64):(_64,_1)' --type fp16 --access ldmatrix.x4.trans --fail-on-conflicts");
  CHECK(r.code == 1);
  CHECK(has(r.std_err, "bankcheck layout: --fail-on-conflicts: 16 conflicts exceed the threshold 0"));
  const std::string json = scratch("layout.json"), svg = scratch("layout.svg");
  r = run("layout 'Sw<2,3,3> o _0 o (_8,_64):(_64,_1)' --type fp16 --access ldmatrix.x4 --json -o " + json +
          " --svg " + svg);
  CHECK(r.code == 0);
  const std::string doc = slurp(json);
  CHECK(has(doc, "\"command\": \"layout\""));
  CHECK(has(doc, "\"access\": \"ldmatrix.x4\""));
  CHECK(has(doc, "\"conflicts\": 8"));
  CHECK(has(slurp(svg), "<svg"));
  const std::string file = scratch("layout.txt");
  bankcheck::test::write_text(file, "# the SW128 atom of CuTe's GMMA\nSw<3,4,3> o smem_ptr[16b](unset)\n o (_8,_64):(_64,_1)\n");
  r = run("layout --layout-file " + file + " --access stmatrix.x4 --csv");
  CHECK(r.code == 0);
  CHECK(has(r.out, "total,,,,,,,,2,64,8,8,0,1"));
}

TEST_CASE("layout: the symbolic proof, in the report and the JSON") {
  auto r = run("layout '(_8,_64):(_64,_1)' --type fp16 --access ldmatrix.x4");
  CHECK(r.code == 0);
  CHECK(has(r.out, "symbolic: degree 8 in every phase of all 2 instructions"));
  CHECK(has(r.out, "witness: lanes 0 and 1 of instruction 0, cells 0 and 32 in bank 0"));
  r = run("layout 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' --type fp16 --access ld.128 --json");
  CHECK(r.code == 0);
  CHECK(has(r.out, "\"status\": \"proven\""));
  CHECK(has(r.out, "\"agrees_with_enumeration\": true"));
  r = run("layout '(8,64):(72,1)' --type fp16 --access ld.128 --json");
  CHECK(r.code == 0);
  CHECK(has(r.out, "\"status\": \"not-linear\""));
  r = run("layout '(8,64):(64,1)' --type fp16 --access ld.128 --site r0-3.c0-63");
  CHECK(r.code == 0);
  CHECK(has(r.out, "symbolic: conflict-free"));
}

TEST_CASE("layout: bad input exits 2 and says what was expected") {
  struct Bad {
    std::string args;
    const char* says;
  };
  for (const Bad& b : {Bad{"'(8,64]:(64,1)' --type fp16 --access ld.128", "column 6: expected ',' or ')'"},
                       Bad{"'(8,64):(64,1)' --type fp17 --access ld.128", "element type 'fp17': expected one of"},
                       Bad{"'(8,64):(64,1)' --type fp16 --access ld.96", "access 'ld.96'"},
                       Bad{"'(8,64):(64,1)' --type fp16 --access ld.128 --along 2", "--along: expected 0, 1 or auto"},
                       Bad{"'Sw<3,3,2> o (8,64):(64,1)' --type fp16 --access ld.128", "|S| >= B"},
                       Bad{"'(8,64):(64,1)' --type fp16 --access ldmatrix.x4 --model dmm",
                           "ldsm 16"},
                       Bad{"--type fp16 --access ld.128", "either as an argument or with --layout-file"}}) {
    CAPTURE(b.args);
    const auto r = run("layout " + b.args);
    if (has(b.args, "dmm")) {
      // a model without a rule for ldmatrix: not modelled, never a number
      CHECK(r.code == 2);
      CHECK(has(r.out, "not modelled"));
      continue;
    }
    CHECK(r.code == 2);
    CHECK(has(r.out, b.says));
  }
}

TEST_CASE("layout --wgmma-desc: the descriptor decoded, the bank picture of its core matrices, exit 2 on a bad one") {
  // CUTLASS's K-major SW128 fp16 A: start 1024, LBO 16 (unused), SBO 1024, 128B swizzle.
  auto r = run("layout --wgmma-desc 0x4000004000010040 --wgmma-shape m64n128k16 --type fp16");
  CHECK(r.code == 0);
  CHECK(has(r.out, "wgmma descriptor 0x4000004000010040 (PTX ISA 9.7.15.5.1.2.2, Matrix Descriptor Format)"));
  CHECK(has(r.out, "  start address        1024     (bits 0-13: 64 x 16 bytes)"));
  CHECK(has(r.out, "  stride byte offset   1024     (bits 32-45: 64 x 16 bytes)"));
  CHECK(has(r.out, "  swizzle              128B     (bits 62-63: 1)"));
  CHECK(has(r.out, "operand A of m64n128k16 fp16: 64 x 16 (M x K), K-major, 2048 bytes in 16 core matrices"));
  CHECK(has(r.out, "bank picture"));
  CHECK(has(r.out, "  m0-7.k8-15              1  1040:b4-7 1152:b0-3 1328:b12-15"));
  CHECK(has(r.out, "degree: in every core matrix the 8 rows lie in 8 different bank groups (degree 1)"));
  CHECK(has(r.out, "here (2048 + 4096) / 128 = 48 with both operands in shared memory"));
  CHECK(has(r.out, "it is not a count of conflicts"));
  // B, N-major, drawn
  const std::string svg = scratch("wgmma.svg");
  r = run("layout --wgmma-desc 0x4000008000400280 --wgmma-shape m64n128k16 --type bf16 --operand b --mn-major --svg " + svg);
  CHECK(r.code == 0);
  CHECK(has(r.out, "operand B of m64n128k16 bf16: 128 x 16 (N x K), N-major, 4096 bytes in 32 core matrices"));
  CHECK(has(r.out, "  leading byte offset  1024 "));
  CHECK(has(r.out, "drawn: " + svg));
  CHECK(has(slurp(svg), "<svg"));
  CHECK(has(slurp(svg), "B n120&#45;127.k8&#45;15"));
  // a start past the atom's first row: a labelled warning, still pictured
  r = run("layout --wgmma-desc 0x40000040000100f0 --wgmma-shape m64n64k16 --type fp16");
  CHECK(r.code == 0);
  CHECK(has(r.out, "warning: start address 0xf00 is 768 bytes into its 1024-byte repeating pattern"));
  // refused: exit 2, the fields still printed
  r = run("layout --wgmma-desc 0x0000001000000000 --wgmma-shape m64n64k16 --type fp16");
  CHECK(r.code == 2);
  CHECK(has(r.out, "  leading byte offset  0 "));
  CHECK(has(r.std_err, "leading byte offset 0: the layout steps by LBO between K's two 16-byte halves"));
  struct Refused {
    const char* args;
    const char* says;  ///< on standard error; empty: the exit status alone
  };
  for (const Refused& b :
       {Refused{"--wgmma-desc 0x4002004000010040 --wgmma-shape m64n64k16 --type fp16", "not modelled: base offset 1"},
        Refused{"--wgmma-desc 0x4000004000010040 --wgmma-shape m64n64k8 --type tf32 --mn-major", "only 16-bit types"},
        Refused{"--wgmma-desc 0x4000004000010040 --wgmma-shape m64n64k16 --type fp16 --access ld.128", ""},
        Refused{"--wgmma-shape m64n64k16 --type fp16 --access ld.128 '(8,64):(64,1)'", ""},
        Refused{"'(8,64):(64,1)' --type fp16", "layout needs --access"}}) {
    CAPTURE(b.args);
    r = run(std::string("layout ") + b.args);
    CHECK(r.code == 2);
    CHECK(has(r.std_err, b.says));
  }
}

TEST_CASE("layout --suggest: the fix for a conflicting tile, in text, JSON and CSV; usage errors exit 2") {
  auto r = run("layout 'Sw<3,3,4> o _0 o (_64,_64):(_64,_1)' --type fp16 --suggest --access ldmatrix.x4.trans");
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "after   Sw<3,3,3> o 0 o (64,64):(64,1)"));
  CHECK(has(r.out, "verdict: optimal: 64 wavefronts, the lower bound"));
  CHECK(has(r.out, "Triton: SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])"));
  r = run("layout --suggest --tile 32x32 --type f32 --access st.128 --access ld.32,along=0 --json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.std_out);
  CHECK(j["schema_version"] == 3);
  CHECK(j["command"] == "layout --suggest");
  CHECK(j["lower_bound"] == 160);  // 8 st.128 x 4 phases + 32 column reads x 4 (a column shares 8 banks)
  CHECK(j["suggestion"]["wavefronts"] == 160);
  CHECK(j["suggestion"]["optimal"] == true);
  CHECK(j["accesses"][1]["before"]["wavefronts"] == 32 * 32);
  r = run("layout --suggest --tile 64x64 --type fp16 --access tma.128B --access ld.128 --csv -o " + scratch("s.csv"));
  CHECK(r.code == 0);
  // 8 KiB read by ld.128: 16 instructions of 4 quarter-warp phases (rule 2), row-major already conflict-free.
  CHECK(has(slurp(scratch("s.csv")), "\"ld.128\",1,true,64,64,64,64,\"Sw<3,4,3> o smem_ptr[16b](unset) o (64,64):(64,1)\",true"));
  for (const char* bad : {"layout --suggest --tile 64 --type fp16 --access ld.32",
                          "layout --suggest --tile 64x64 --type fp16",
                          "layout --suggest --tile 64x64 --type fp16 --access ld.32,weight=x",
                          "layout --suggest --tile 64x64 --type fp16 --access ld.32 --svg x.svg",
                          "layout --tile 64x64 --type fp16 --access ld.32",
                          "layout --suggest --tile 999999x999999 --type fp16 --access ld.32",
                          "layout '(8,64):(64,1)' --type fp16 --access ld.32 --access ld.128"}) {
    r = run(bad);
    CHECK_MESSAGE(r.code == 2, bad);
    CHECK(has(r.out, "error"));
  }
}

TEST_CASE("layout: what cute::print writes for a tensor, its pointer the base; negative strides with --base") {
  auto r = run("layout 'Sw<3,4,3>_smem_ptr[16b](0x55bd18220000) o (_8,_64):(_64,_1)' --access ldmatrix.x4 --json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.std_out);
  CHECK(j["inputs"][0]["base"] == 94270642061312ULL);
  CHECK(j["totals"]["conflicts"] == 0);
  // Another pointer, another base (64 bytes on: the symbolic proof no longer applies, the enumeration does).
  r = run("layout 'Sw<3,4,3>_smem_ptr[16b](0x55bd18220040) o (_8,_64):(_64,_1)' --access ldmatrix.x4 --json");
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(r.std_out)["inputs"][0]["base"] == 94270642061376ULL);
  r = run("layout '(_8,_64):(_-64,_1)' --type fp16 --access ld.128");
  CHECK(r.code == 2);
  CHECK(has(r.out, "give --base of at least 896"));
  r = run("layout '(_8,_64):(_-64,_1)' --type fp16 --access ld.128 --base 896");
  CHECK(r.code == 0);
  CHECK(has(r.out, "verdict: conflict-free (8 wavefronts, the ideal)"));
}

TEST_CASE("layout: cute::print's smem_ptr of every width; a --type of another width is exit 2, checked and --suggest") {
  // 32-bit elements, as CuTe prints a float tensor: 8 rows of 32 floats, a float per lane down a column.
  auto r = run("layout 'Sw<3,2,3>_smem_ptr[32b](0x7f0a00000400) o (_8,_32):(_32,_1)' --access ld.32 --json");
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.std_out)["inputs"][0]["element"] == "b32");
  r = run("layout 'smem_ptr[8b](unset) o (_8,_128):(_128,_1)' --access ld.128");
  CHECK(r.code == 0);
  r = run("layout 'smem_ptr[64b]((nil)) o (_8,_16):(_16,_1)' --type f64 --access ld.64");
  CHECK(r.code == 0);
  r = run("layout 'smem_ptr[16b](unset) o (_8,_64):(_64,_1)' --type bf16 --access ld.128");
  CHECK(r.code == 0);
  for (const std::string& bad : {
           std::string("layout 'Sw<3,2,3>_smem_ptr[32b](0x7f0a00000400) o (_8,_32):(_32,_1)' --type fp16 --access ld.32"),
           std::string("layout 'Sw<3,2,3>_smem_ptr[32b](0x7f0a00000400) o (_8,_32):(_32,_1)' --type fp16 --suggest "
                       "--access ld.32"),
           std::string("layout 'smem_ptr[8b](unset) o (_8,_128):(_128,_1)' --type f32 --access ld.128"),
           std::string("layout 'smem_ptr[64b](unset) o (_8,_16):(_16,_1)' --type f32 --suggest --access ld.64")}) {
    CAPTURE(bad);
    r = run(bad);
    CHECK(r.code == 2);
    CHECK(has(r.out, "contradicts the layout's smem_ptr["));
    CHECK(has(r.out, "bits, or"));
  }
  r = run("layout 'smem_ptr[4b](unset) o (_8,_64):(_64,_1)' --access ld.32");
  CHECK(r.code == 2);
  CHECK(has(r.out, "sub-byte elements are not modelled"));
}

}  // namespace layout_command_test
