// Tests of sim/trace/trace_binary_version.hpp against docs/trace-format.md:
// the record kinds each version holds (the table's "(v2)", "(v3)", "(v4)"
// marks), version 1's ops and widths, and the messages the reader builds
// from them.
#include "sim/trace/trace_binary_version.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace bankcheck;

TEST_CASE("record kinds by version: 1-3 always, 4 and 5 from version 2, 6 from 3, 7 from 4") {
  const unsigned since[] = {0, 1, 1, 1, 2, 2, 3, 4};  // per kind, from docs/trace-format.md; kind 0 is none
  for (unsigned version = 1; version <= 4; ++version)
    for (std::uint64_t kind = 0; kind <= 9; ++kind) {
      CAPTURE(version);
      CAPTURE(kind);
      const bool want = kind >= 1 && kind <= 7 && since[kind] <= version;
      CHECK(version_has_kind(version, kind) == want);
    }
  CHECK_FALSE(version_has_kind(4, 0x107));  // the kind is the head's low byte alone
}

TEST_CASE("version 1: loads and stores of 1, 2, 4, 8 and 16 bytes, nothing else") {
  const std::uint32_t v1 = 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 16;
  CHECK(version_widths(1, Op::load) == v1);
  CHECK(version_widths(1, Op::store) == v1);
  for (unsigned op = 2; op < kOpCount; ++op) CHECK(version_widths(1, static_cast<Op>(op)) == 0);
  for (unsigned version = 2; version <= 4; ++version)
    for (unsigned op = 0; op < kOpCount; ++op)
      CHECK(version_widths(version, static_cast<Op>(op)) == allowed_widths(static_cast<Op>(op)));
  CHECK((version_widths(2, Op::load) >> 12 & 1u) == 1);  // the 12-byte width from version 2
}

TEST_CASE("the messages name what the version holds") {
  CHECK(version_kinds_text(1) == " (version 1: 1 = site, 2 = instr, 3 = end)");
  CHECK(version_kinds_text(2) == " (1 = site, 2 = instr, 3 = end, 4 = location, 5 = expect)");
  CHECK(version_kinds_text(3) == " (1 = site, 2 = instr, 3 = end, 4 = location, 5 = expect, 6 = source)");
  CHECK(version_kinds_text(4) == " (1 = site, 2 = instr, 3 = end, 4 = location, 5 = expect, 6 = source, 7 = index)");
  CHECK(version_ops_text(1) == " (version 1: 0 = ld, 1 = st)");
  CHECK(version_ops_text(4).rfind(" (0 = ld, 1 = st, 2 = atom,", 0) == 0);
  CHECK(version_widths_text(1, Op::load) == "1, 2, 4, 8, 16");
  CHECK(version_widths_text(2, Op::ldsm) == "16");
}
