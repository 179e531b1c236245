// Ops refined from SASS: each mnemonic the H100 probes compiled to
// (validate/sm90/probes/README.md) maps to the kind whose rule it follows,
// and a captured trace is rewritten with them, locations and the device's
// record count kept.
#include "capture/host/sass/op_refinement.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace refinement {

struct Case {
  Op reported;
  const char* sass;
  Op want;
};

}  // namespace refinement

TEST_CASE("mnemonics map to the kinds whose rules they follow") {
  using refinement::Case;
  const Case cases[] = {
      {Op::atom, "ATOMS.ADD R0, [R0+UR4], R3", Op::atom},
      {Op::atom, "ATOMS.EXCH.64 R2, [R4], R6", Op::atom},
      {Op::atom, "ATOMS.CAS R0, [R2], R4, R5", Op::atom_cas},
      {Op::atom, "ATOMS.CAS.64 R0, [R2], R4, R6", Op::atom_cas},
      {Op::atom, "@P0 ATOMS.CAST.SPIN P1, [R2], R4, R5", Op::atom_cast},  // the loops of float/64-bit atomicAdd
      {Op::atom, "ATOMS.CAST.SPIN.64 R6, [R3], R4, R6", Op::atom_cast},
      {Op::atom, "ATOMS.POPC.INC.32 RZ, [R0+UR4]", Op::atom_popc},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64]", Op::cpasync_cg},
      // The source-size / ignore-src form: a predicate operand (cuobjdump's and ncu's operand orders),
      // which decides (the campaigns of validate/sm90/cases/cpasync*.trace): P0 costs as a 16-byte
      // store; P1..P6 and !P1..!P6 as the plain form; !P0 as the plain form while every lane reads.
      {Op::cpasync, "LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64], P0", Op::cpasync_cg_zfill},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 desc[UR12][R4.64], P0, [R33]", Op::cpasync_cg_zfill},
      {Op::cpasync, "@P1 LDGSTS.E.BYPASS.128 [R7], desc[UR6][R2.64], P3 ;", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 desc[UR12][R8.64], P4, [R33+0x1800]", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 desc[UR12][R6.64], !P3, [R9]", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 [R19], desc[UR4][R6.64], !P6 ;", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.LTC128B.128 [R7], desc[UR4][R2.64], !P1", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 desc[UR14][R22.64], !P0, [R111+0x2000]", Op::cpasync_cg_notp0},
      {Op::cpasync, "LDGSTS.E.BYPASS.LTC128B.128 [R7], desc[UR4][R2.64], !P0", Op::cpasync_cg_notp0},
      {Op::cpasync, "LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64], !PT", Op::cpasync_unmeasured},  // never probed
      {Op::cpasync, "LDGSTS.E.128 [R7], desc[UR4][R2.64], !P0", Op::cpasync},  // .ca: every operand alike
      // .ca with any source size: the .ca rule (cpasync3); .cg with it, and with the hint, no rule.
      {Op::cpasync, "@P1 LDGSTS.E.ZFILL [R7], desc[UR6][R2.64], P3 ;", Op::cpasync},
      {Op::cpasync, "@P1 LDGSTS.E.64.ZFILL [R7], desc[UR6][R2.64], P3 ;", Op::cpasync},
      {Op::cpasync, "@P1 LDGSTS.E.128.ZFILL [R7], desc[UR6][R2.64], P3 ;", Op::cpasync},
      {Op::cpasync, "@P1 LDGSTS.E.BYPASS.128.ZFILL [R7], desc[UR6][R2.64], P3 ;", Op::cpasync_unmeasured},
      {Op::cpasync, "@!P2 LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64]", Op::cpasync_cg},  // a guard, not an operand
      {Op::cpasync, "@P0 LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64]", Op::cpasync_cg},   // nor is a guard P0
      {Op::cpasync, "@P1 LDGSTS.E.BYPASS.128 [R3+0x10], desc[UR6][R4.64+0x40], PT", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.128 [R3], desc[UR6][R4.64]", Op::cpasync},
      {Op::cpasync, "LDGSTS.E [R3], desc[UR6][R4.64]", Op::cpasync},
      {Op::cpasync, "LDGSTS.E.64 [R3], desc[UR6][R4.64], P0", Op::cpasync},  // casrcsize: measured equal
      // The L2::128B hint of cuBLAS's sm80 FP32 GEMMs and CUTLASS's attention: 309 hinted probes
      // measured what their plain twins did (validate/sm90/cases/caltc, cgltc), so the plain forms' ops.
      {Op::cpasync, "@P0 LDGSTS.E.LTC128B [R3], desc[UR6][R4.64], !PT", Op::cpasync},
      {Op::cpasync, "LDGSTS.E.LTC128B.64 [R3], desc[UR6][R4.64]", Op::cpasync},
      {Op::cpasync, "LDGSTS.E.LTC128B.128 [R3], desc[UR6][R4.64]", Op::cpasync},
      {Op::cpasync, "LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR6][R4.64]", Op::cpasync_cg},
      {Op::cpasync, "LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR6][R4.64], P0", Op::cpasync_cg_zfill},
      // Forms no probe measured: recorded, never costed by the rule of another form.
      {Op::cpasync, "LDGSTS.E.LTC64B [R3], desc[UR6][R4.64]", Op::cpasync_unmeasured},
      {Op::cpasync, "LDGSTS.E.BYPASS.LTC128B.128.ZFILL [R3], desc[UR6][R4.64]", Op::cpasync_unmeasured},
      {Op::cpasync, "LDGSTS.E.BYPASS.64 [R3], desc[UR6][R4.64]", Op::cpasync_unmeasured},
      {Op::load, "LDS.64 R2, [R4]", Op::load},
      {Op::store, "ATOMS.CAS R0, [R2], R4, R5", Op::store},  // only a reported atom is refined
  };
  for (const Case& c : cases) {
    CAPTURE(c.sass);
    CHECK(refine_op(c.reported, c.sass) == c.want);
  }
}

TEST_CASE("generic accesses into shared memory keep their kind only in the measured forms") {
  using refinement::Case;
  const Case cases[] = {
      // Generic accesses that land in shared memory (docs/bank-model.md, "Generic loads and stores"):
      // the measured forms keep the shared kind's rules, the others are not costed.
      {Op::load, "LDS.64 R2, [R4+UR4]", Op::load},
      {Op::load, "LDS.128 R4, [R2]", Op::load},
      {Op::load, "LD.E.64 R18, desc[UR6][R18.64]", Op::load},
      {Op::load, "LD.E.64.STRONG.SYS R26, desc[UR6][R26.64]", Op::load},
      {Op::load, "LD.E R3, desc[UR4][R2.64]", Op::load},
      {Op::load, "LD.E.U8 R3, desc[UR4][R2.64]", Op::load},
      {Op::load, "LD.E.128 R4, desc[UR4][R2.64]", Op::unmeasured},  // rule 3 missed 41 of 144 per instruction
      {Op::load, "LD.E.128.STRONG.SYS R4, desc[UR4][R2.64]", Op::unmeasured},
      {Op::load, "LD.E.64.STRONG.GPU R44, desc[UR8][R32.64+0x100]", Op::load},  // relaxed: rule 3, 112 of 112
      {Op::load, "LD.E.U16.STRONG.GPU R3, desc[UR4][R2.64]", Op::load},
      {Op::load, "LD.E.128.STRONG.GPU R4, desc[UR4][R2.64]", Op::unmeasured},  // rule 3 missed 34 of 110
      {Op::load, "LD.E.U16.STRONG.SYS R3, desc[UR4][R2.64]", Op::unmeasured},  // volatile narrow: not measured
      {Op::load, "LD.E.S16 R3, desc[UR4][R2.64]", Op::unmeasured},
      {Op::store, "ST.E.128 desc[UR4][R2.64], R4", Op::store},
      {Op::store, "@P0 ST.E.64 desc[UR4][R2.64], R4", Op::store},
      {Op::store, "ST.E.64.STRONG.GPU desc[UR8][R32.64+0x100], R34", Op::store},
      {Op::store, "ST.E.128.STRONG.GPU desc[UR8][R32.64], R4", Op::store},
      {Op::store, "ST.E.STRONG.SYS desc[UR8][R32.64], R4", Op::unmeasured},
      {Op::store, "STS.128 [R3], R4", Op::store},
      {Op::atom, "ATOM.E.ADD.STRONG.GPU PT, R3, desc[UR4][R2.64], R5", Op::unmeasured},
      {Op::atom, "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5", Op::unmeasured},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sass);
    CHECK(refine_op(c.reported, c.sass) == c.want);
  }
}

TEST_CASE("a trace is rewritten with refined ops; locations and the expected count survive") {
  const std::filesystem::path path = bankcheck::test::scratch("launch-0.bktrace");
  std::vector<std::uint64_t> addr(32);
  for (unsigned l = 0; l < 32; ++l) addr[l] = 4 * l;
  {
    auto sink = create_trace(path.string(), TraceFormat::binary, 4);
    sink->begin(32);
    sink->location({7, {1, 0, 0}, 2});
    sink->record("k+0x10", {Op::atom, 4, addr});
    sink->record("k+0x20", {Op::atom, 4, addr});
    sink->record("k+0x30", {Op::load, 4, addr});
    sink->expect(3);
    sink->end();
  }
  SassTable sass;
  sass.add({"k", 0x10, "ATOMS.CAS R0, [R2], R4, R5", {}});
  sass.add({"k", 0x20, "ATOMS.ADD R0, [R2], R4", {}});
  const TraceRefinement first = refine_trace_ops(path, sass);
  CHECK(first.changed == 1);
  CHECK(first.unrefined == 0);  // both atomics have their SASS
  auto source = open_trace(path.string());
  TraceRecord r;
  std::vector<Op> ops;
  while (source->next(r)) {
    REQUIRE(r.location != nullptr);
    CHECK(r.location->launch == 7);
    CHECK(r.location->warp == 2);
    ops.push_back(r.request.op);
  }
  CHECK(ops == std::vector<Op>{Op::atom_cas, Op::atom, Op::load});
  CHECK(source->expected() == std::optional<std::uint64_t>(3));
  CHECK(refine_trace_ops(path, sass).changed == 0);  // already refined: nothing changes
}

TEST_CASE("refinable kinds are the ones refine_op can change; without their SASS they are counted") {
  const char* mnemonics[] = {"ATOMS.CAS R0, [R2], R4, R5", "ATOMS.CAST.SPIN P1, [R2], R4, R5",
                             "ATOMS.POPC.INC.32 RZ, [R0+UR4]", "LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64]",
                             "LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64], P0", "LDS.64 R2, [R4]", "STS [R0], R1"};
  for (int k = 0; k <= static_cast<int>(Op::cpasync_cg_zfill); ++k) {
    const Op op = static_cast<Op>(k);
    CAPTURE(op_name(op));
    bool changes = false;
    for (const char* m : mnemonics) changes = changes || refine_op(op, m) != op;
    CHECK(refinable(op) == changes);
  }
  const std::filesystem::path path = bankcheck::test::scratch("launch-1.bktrace");
  std::vector<std::uint64_t> addr(32);
  for (unsigned l = 0; l < 32; ++l) addr[l] = 16 * l;
  {
    auto sink = create_trace(path.string(), TraceFormat::binary, 4);
    sink->begin(32);
    sink->record("k+0x10", {Op::atom, 4, addr});     // has SASS
    sink->record("k+0x40", {Op::atom, 4, addr});     // no SASS: unrefined
    sink->record("k+0x50", {Op::cpasync, 16, addr});  // no SASS: unrefined
    sink->record("k+0x50", {Op::cpasync, 16, addr});
    sink->record("k+0x60", {Op::load, 4, addr});     // needs none
    sink->end();
  }
  SassTable sass;
  sass.add({"k", 0x10, "ATOMS.CAS R0, [R2], R4, R5", {}});
  const TraceRefinement r = refine_trace_ops(path, sass);
  CHECK(r.changed == 1);
  CHECK(r.unrefined == 3);
  CHECK(refine_trace_ops(path, SassTable{}).unrefined == 3);  // the CAS is refined now; the others still lack SASS
}
