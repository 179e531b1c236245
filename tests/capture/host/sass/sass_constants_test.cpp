// Tests of capture/host/sass/sass_constants.hpp on small listings written here
// in Nsight Compute's spelling (absolute branch targets from 0x1000): each
// case's expected value follows from reading the listing by hand, paths
// and all; the measured listings are tests/capture/host/sass/hgmma_descriptors_test.cpp's.
#include "capture/host/sass/sass_constants.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bankcheck::capture;

namespace {

constexpr std::uint64_t kEntry = 0x1000;

/// Lines 16 bytes apart from offset 0.
SassConstants listing(const std::vector<std::string>& texts) {
  std::vector<SassLine> lines;
  for (std::size_t i = 0; i < texts.size(); ++i) lines.push_back({"", 16 * i, texts[i], {}});
  return SassConstants(std::move(lines), kEntry);
}

std::optional<std::uint32_t> at(const SassConstants& c, std::size_t line, const char* reg) {
  return c.value_before(16 * line, reg);
}

}  // namespace

TEST_CASE("straight-line moves: immediates, R2UR, IMAD.MOV, additions, the zero registers") {
  const SassConstants c = listing({
      "MOV R3, 0x40000040",            // 0
      "R2UR UR5, R3",                  // 1
      "IMAD.MOV.U32 R4, RZ, RZ, 0x20", // 2
      "UMOV UR6, 0x400",               // 3
      "UIADD3 UR7, UR6, 0x2000, URZ",  // 4
      "IADD3 R5, R4, -0x8, RZ",        // 5
      "MOV R6, UR7",                   // 6
      "UMOV UR8, URZ",                 // 7
      "EXIT",                          // 8
  });
  CHECK(at(c, 1, "R3") == 0x40000040u);
  CHECK_FALSE(at(c, 1, "UR5"));  // before its write: nothing set at the entry
  CHECK(at(c, 2, "UR5") == 0x40000040u);
  CHECK(at(c, 3, "R4") == 0x20u);
  CHECK(at(c, 5, "UR7") == 0x2400u);
  CHECK(at(c, 6, "R5") == 0x18u);
  CHECK(at(c, 7, "R6") == 0x2400u);
  CHECK(at(c, 8, "UR8") == 0u);
  CHECK(at(c, 0, "RZ") == 0u);
  CHECK_FALSE(at(c, 0, "R1"));
  CHECK_FALSE(c.value_before(8, "R3"));      // an offset no line has
  CHECK_FALSE(at(c, 8, "Q3"));               // not a register
}

TEST_CASE("a write the propagation does not evaluate makes the register unknown, and wide writes cover the next ones") {
  const SassConstants c = listing({
      "UMOV UR12, 0x1",                 // 0
      "UMOV UR13, 0x40000040",          // 1
      "UMOV UR14, 0x2",                 // 2
      "ULDC.64 UR12, c[0x0][0x198]",    // 3: UR12 and UR13
      "S2UR UR15, SR_CgaCtaId",         // 4
      "MOV R2, 0x7",                    // 5
      "IMAD.WIDE.U32 R2, R5, 0x4, R2",  // 6: R2 and R3
      "MOV R8, 0x9",                    // 7
      "MOV R200, 0x1",                  // 8
      "MOV R201, 0x1",                  // 9
      "HGMMA.64x64x16.F32 R4, gdesc[UR12], RZ, !UPT", // 10: R4 onwards
      "EXIT",                                         // 11
  });
  CHECK(at(c, 3, "UR13") == 0x40000040u);
  CHECK_FALSE(at(c, 4, "UR12"));
  CHECK_FALSE(at(c, 4, "UR13"));
  CHECK(at(c, 4, "UR14") == 2u);
  CHECK_FALSE(at(c, 5, "UR15"));
  CHECK(at(c, 6, "R2") == 7u);
  CHECK_FALSE(at(c, 7, "R2"));
  CHECK_FALSE(at(c, 7, "R3"));
  CHECK(at(c, 10, "R8") == 9u);
  CHECK_FALSE(at(c, 11, "R8"));             // the accumulators run over it
  CHECK(at(c, 11, "UR14") == 2u);           // uniform registers are another file
  CHECK(at(c, 11, "R200") == std::nullopt); // the accumulators again
  CHECK(at(c, 10, "R200") == 1u);
  CHECK(at(c, 10, "R201") == 1u);
}

TEST_CASE("a shuffle writes its second operand, a half-register write its register") {
  const SassConstants c = listing({
      "MOV R20, 0x1",                     // 0
      "MOV R21, 0x1",                     // 1
      "MOV R22, 0x1",                     // 2
      "SHFL.IDX PT, R20, R0, RZ, 0x1f",   // 3
      "HADD2 R21.H1, R0, R0",             // 4
      "ISETP.NE.AND P0, PT, R22, RZ, PT", // 5: writes a predicate only
      "EXIT",                             // 6
  });
  CHECK(at(c, 3, "R20") == 1u);
  CHECK_FALSE(at(c, 6, "R20"));
  CHECK_FALSE(at(c, 6, "R21"));
  CHECK(at(c, 6, "R22") == 1u);
}

TEST_CASE("paths meet: one constant on every path, a loop that keeps it, a loop or a branch that changes it") {
  // 0x1000 + 16 * line: line 4 is 0x1040, line 7 is 0x1070
  const SassConstants c = listing({
      "UMOV UR13, 0x40000040",        // 0
      "UMOV UR5, 0x1",                // 1
      "MOV R2, 0x3",                  // 2
      "@P0 BRA 0x1060",               // 3
      "UMOV UR5, 0x2",                // 4: only on the fall-through
      "MOV R2, 0x3",                  // 5: the same value as the other path
      "UIADD3 UR20, UR20, 0x1, URZ",  // 6 (0x1060): loop head, UR20 unknown from the entry
      "@P1 BRA 0x1060",               // 7: back to the head
      "EXIT",                         // 8
  });
  CHECK(at(c, 6, "UR13") == 0x40000040u);
  CHECK(at(c, 8, "UR13") == 0x40000040u);  // the loop keeps it
  CHECK_FALSE(at(c, 6, "UR5"));            // 1 on one path, 2 on the other
  CHECK(at(c, 5, "UR5") == 2u);
  CHECK(at(c, 6, "R2") == 3u);             // 3 on both
  CHECK_FALSE(at(c, 7, "UR20"));
}

TEST_CASE("a loop that changes a register, a predicated write, a call: unknown") {
  const SassConstants c = listing({
      "UMOV UR8, 0x10",               // 0
      "UMOV UR9, 0x40000040",         // 1
      "UIADD3 UR8, UR8, 0x2, URZ",    // 2 (0x1020): loop head
      "@!P0 UMOV UR9, 0x40000040",    // 3: the same value: still known
      "@P1 UMOV UR10, 0x5",           // 4: UR10 unset before: unknown
      "@P2 BRA 0x1020",               // 5
      "CALL.ABS.NOINC 0x0",           // 6 (a call: everything unknown after it)
      "EXIT",                         // 7
  });
  CHECK(at(c, 2, "UR8") == std::nullopt);  // 0x10 first, 0x12 on the next pass
  CHECK(at(c, 4, "UR9") == 0x40000040u);
  CHECK_FALSE(at(c, 5, "UR10"));
  CHECK(at(c, 6, "UR9") == 0x40000040u);
  CHECK_FALSE(at(c, 7, "UR9"));
}

TEST_CASE("unconditional branches and exits cut the fall-through path") {
  const SassConstants c = listing({
      "UMOV UR4, 0x1",    // 0
      "BRA 0x1040",       // 1: jumps over line 2 and 3
      "UMOV UR4, 0x2",    // 2: unreachable from the entry
      "EXIT",             // 3
      "UMOV UR6, UR4",    // 4 (0x1040)
      "EXIT",             // 5
  });
  CHECK(at(c, 5, "UR6") == 1u);
  CHECK_FALSE(at(c, 3, "UR4"));  // nothing reaches it: not a value
}

TEST_CASE("a branch on a predicate operand falls through too (Nsight Compute prints `BRA !P0, 0x...`)") {
  for (const char* branch : {"BRA !P0, 0x1040", "BRA.U UP1, 0x1040", "BRA P5, 0x1040", "@P0 BRA 0x1040"}) {
    INFO(branch);
    const SassConstants c = listing({
        "UMOV UR4, 0x1",  // 0
        branch,           // 1
        "UMOV UR4, 0x2",  // 2: the fall-through
        "EXIT",           // 3
        "UMOV UR6, UR4",  // 4 (0x1040): reached by the branch alone
        "EXIT",           // 5
    });
    CHECK(at(c, 3, "UR4") == 2u);
    CHECK(at(c, 5, "UR6") == 1u);
  }
  const SassConstants join = listing({
      "UMOV UR4, 0x1",    // 0
      "BRA !P0, 0x1030",  // 1
      "UMOV UR4, 0x2",    // 2
      "UMOV UR6, UR4",    // 3 (0x1030): 1 by the branch, 2 by the fall-through
      "EXIT",             // 4
  });
  CHECK_FALSE(at(join, 4, "UR6"));
}

TEST_CASE("a listing with an indirect branch, a target outside it or not an address is unusable, and says why") {
  const SassConstants indirect = listing({"UMOV UR4, 0x1", "BRX R2 -0x30", "EXIT"});
  CHECK_FALSE(at(indirect, 2, "UR4"));
  CHECK(indirect.unusable().find("indirect branch") != std::string::npos);
  const SassConstants outside = listing({"UMOV UR4, 0x1", "@P0 BRA 0x9000", "EXIT"});
  CHECK_FALSE(at(outside, 2, "UR4"));
  CHECK(outside.unusable().find("out of the listing") != std::string::npos);
  const SassConstants label = listing({"UMOV UR4, 0x1", "@P0 BRA `(.L_x_1)", "EXIT"});  // nvdisasm's spelling
  CHECK_FALSE(at(label, 2, "UR4"));
  CHECK(label.unusable().find("not an address") != std::string::npos);
  const SassConstants fine = listing({"UMOV UR4, 0x1", "EXIT"});
  CHECK(fine.unusable().empty());
  CHECK(at(fine, 1, "UR4") == 1u);
}
