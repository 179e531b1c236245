// bankcheck layout, end to end through the built binary.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/cli_runner.hpp"

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
