// Tests of capture/host/sass/sass_instruction.hpp: an instruction's text
// taken apart as ncu and nvdisasm print it (the texts from committed pages).
#include "capture/host/sass/sass_instruction.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace sass_instruction_test {

using namespace bankcheck::capture::sass;

TEST_CASE("guard, mnemonic, opcode and operands of an instruction's text") {
  struct Case {
    const char* text;
    const char* guard;
    bool guarded;
    const char* mnemonic;
    const char* opcode;
    std::vector<std::string> operands;
  };
  for (const Case& c : {
           Case{"@!P0 LDS.U.128 R4, [R2+0x10] ;", "@!P0", true, "LDS.U.128", "LDS", {"R4", "[R2+0x10]"}},
           Case{"LDS R1, [R2]", "", false, "LDS", "LDS", {"R1", "[R2]"}},
           Case{"@PT BRA 0x80", "@PT", false, "BRA", "BRA", {"0x80"}},
           Case{"@UP3 UTMASTG.3D [UR32], [UR22] ;", "@UP3", true, "UTMASTG.3D", "UTMASTG", {"[UR32]", "[UR22]"}},
           Case{"  EXIT ;", "", false, "EXIT", "EXIT", {}},
           Case{"", "", false, "", "", {}},
       }) {
    CAPTURE(c.text);
    const Instruction ins = parse_instruction(c.text);
    CHECK(ins.guard == c.guard);
    CHECK(ins.guarded == c.guarded);
    CHECK(ins.mnemonic == c.mnemonic);
    CHECK(ins.opcode == c.opcode);
    REQUIRE(ins.operands.size() == c.operands.size());
    for (std::size_t i = 0; i < c.operands.size(); ++i) CHECK(ins.operands[i] == c.operands[i]);
  }
}

}  // namespace sass_instruction_test
