// Tests of capture/host/sass/sass_form.hpp on SASS lines as nvdisasm and ncu
// print them (H100 captures, docs/bank-model.md rule 6).
#include "capture/host/sass/sass_form.hpp"

#include <doctest/doctest.h>

#include "tests/support/tma_measured.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace bankcheck::capture;

TEST_CASE("mnemonics, guard predicates and predicate operands") {
  CHECK(predicate_operand("@P1 LDGSTS.E.BYPASS.128 [R7], desc[UR6][R2.64], P3 ;") == "P3");
  CHECK(predicate_operand("LDGSTS.E.BYPASS.128 desc[UR12][R6.64], !P3, [R9]") == "!P3");
  CHECK(predicate_operand("@P0 LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64]").empty());
  CHECK(sass_mnemonic("LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64], P0") == "LDGSTS.E.BYPASS.128");
  CHECK(sass_mnemonic("@!P1 LDS.64 R2, [R3+0x10]") == "LDS.64");
  CHECK(sass_mnemonic("  @P0\tSTS [R1], R2") == "STS");
  CHECK(sass_mnemonic("") == "");
  CHECK(has_predicate_operand("LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64], P0"));
  CHECK(has_predicate_operand("LDGSTS.E.64 [R5], desc[UR4][R2.64], !PT"));
  CHECK_FALSE(has_predicate_operand("@P0 LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64]"));
  CHECK_FALSE(has_predicate_operand("LDS R1, [R2+UR4]"));
}

TEST_CASE("which instructions can touch memory") {
  for (const char* m : {"LDS", "LDS.U.128", "STS.64", "LDSM.16.M88.4", "STSM.16.M88.4", "ATOMS.CAST.SPIN", "ATOMS.POPC.INC",
                        "LDGSTS.E.BYPASS.LTC128B.128", "LD.E", "ST.E.64", "LDG.E", "STG.E", "RED.E.ADD", "ATOM.E.ADD",
                        "HGMMA.64x128x16.F32", "UTMALDG.2D", "UBLKCP.S.G", "SYNCS.ARRIVE.TRANS64.RED.A1T0"}) {
    CAPTURE(m);
    CHECK(can_access_memory(m));
  }
  for (const char* m : {"IMAD", "ISETP.GE.AND", "BRA", "ULDC.64", "LDC", "LDL", "STL.64", "BAR.SYNC", "LEPC", "S2R"}) {
    CAPTURE(m);
    CHECK_FALSE(can_access_memory(m));
  }
}

TEST_CASE("shared-memory readers and writers the capture has no lanes of") {
  CHECK(untraced_kind("HGMMA.64x64x16.F32.BF16") == std::optional<std::string_view>("wgmma"));
  CHECK(untraced_kind("QGMMA.64x128x32.F32.E4M3.E4M3") == std::optional<std::string_view>("wgmma"));
  CHECK(untraced_kind("UTMASTG.2D") == std::optional<std::string_view>("TMA"));
  CHECK(untraced_kind("UBLKCP.S.G") == std::optional<std::string_view>("TMA"));
  CHECK(untraced_kind("SYNCS.EXCH.64") == std::optional<std::string_view>("mbarrier"));
  CHECK_FALSE(untraced_kind("LDS.128").has_value());
  CHECK_FALSE(untraced_kind("LDGSTS.E.BYPASS.128").has_value());
  // whole instructions, guard and operands included
  CHECK(is_untraced("@UP3  UTMASTG.3D [UR32], [UR22]", "TMA"));
  CHECK(is_untraced("HGMMA.64x64x16.F32 R24, gdesc[UR12].tnspB, R24, gsb0", "wgmma"));
  CHECK_FALSE(is_untraced("HGMMA.64x64x16.F32 R24, gdesc[UR12], RZ, !UPT", "TMA"));
  CHECK_FALSE(is_untraced("LDS R1, [R2]", "TMA"));
}

TEST_CASE("the TMA forms measured at no shared wavefronts, and no other") {
  for (const char* m : {"UTMALDG.2D", "UTMALDG.3D", "UTMALDG.4D", "UTMALDG.3D.MULTICAST", "UTMALDG.5D.MULTICAST",
                        "UTMALDG.5D.IM2COL", "UTMASTG.2D", "UTMASTG.3D", "UTMASTG.4D", "UTMASTG.5D.IM2COL",
                        "UTMACMDFLUSH", "UTMACCTL.PF", "UTMACCTL.IV", "UTMAPF.L2.2D", "UTMALDG.4D.MULTICAST"}) {
    CAPTURE(m);
    CHECK(tma_form_measured(m));
  }
  for (const char* m : {"UTMAREDG.2D", "UTMALDG.5D", "UTMAPF.2D", "UBLKCP.S.G", "UTMALDG.2D.MULTICAST", "LDS"}) {
    CAPTURE(m);
    CHECK_FALSE(tma_form_measured(m));
  }
}

TEST_CASE("every TMA instruction of validate/fidelity/tma_forms.cu measured 0 shared wavefronts, and has the rule") {
  // validate/sm90/measured/cpasync_tma.csv (H200, 2026-11-29): UTMACCTL.PF (prefetch.tensormap), UTMACCTL.IV
  // (fence.proxy.tensormap::generic.acquire), UTMAPF.L2.2D, a UTMALDG.2D and the UTMALDG.4D.MULTICAST of a
  // cluster of two blocks, whose tiles the program checked.
  const auto rows = bankcheck::test::read_tma_measured(BANKCHECK_SOURCE_DIR "/validate/sm90/measured/cpasync_tma.csv");
  REQUIRE(!rows.empty());
  std::set<std::string> forms;
  for (const auto& row : rows) {
    CAPTURE(row.sass);
    CHECK(std::stoull(row.executions) >= 1);
    CHECK(row.wavefronts == "0");
    CHECK(tma_form_measured(row.sass));
    forms.insert(row.sass);
  }
  CHECK(forms == std::set<std::string>{"UTMACCTL.IV", "UTMACCTL.PF", "UTMALDG.2D", "UTMALDG.4D.MULTICAST", "UTMAPF.L2.2D"});
}
