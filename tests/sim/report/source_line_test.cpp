// Tests of sim/report/source_line.hpp: a captured instruction's line info
// as text and JSON, and FILE:LINE as --site takes it.
#include "sim/report/source_line.hpp"

#include <doctest/doctest.h>

namespace source_line_test {

using namespace bankcheck::report;

TEST_CASE("line info as text and JSON; none said as such, never a guess") {
  const SourceLine inlined{FileLine{"/src/inc.cuh", 2}, {{"/src/k.cu", 3}, {"/src/k.cu", 9}}};
  CHECK(source_text(inlined) == "/src/inc.cuh:2 (inlined at /src/k.cu:3 < /src/k.cu:9)");
  CHECK(source_text(SourceLine{FileLine{"k.cu", 8}, {}}) == "k.cu:8");
  CHECK(source_text(SourceLine{}) == "no line info");
  const auto j = source_json(inlined);
  CHECK(j["file"] == "/src/inc.cuh");
  CHECK(j["line"] == 2);
  CHECK(j["inlined_at"].size() == 2);
  CHECK(j["inlined_at"][1]["line"] == 9);
  const auto none = source_json(SourceLine{});
  CHECK(none["file"].is_null());
  CHECK(none["line"].is_null());
  CHECK(none["text"] == "no line info");
}

TEST_CASE("FILE:LINE for --site: a file and a line >= 1, not a site name") {
  CHECK(parse_file_line("k.cu:8") == FileLine{"k.cu", 8});
  CHECK(parse_file_line("/a/b:c.cu:12") == FileLine{"/a/b:c.cu", 12});
  CHECK_FALSE(parse_file_line("k.cu:0"));
  CHECK_FALSE(parse_file_line("k.cu:"));
  CHECK_FALSE(parse_file_line(":3"));
  CHECK_FALSE(parse_file_line("k.cu:3x"));
  CHECK_FALSE(parse_file_line("tile.column"));
  CHECK_FALSE(parse_file_line("_Z1kPf+0x1d0"));
  CHECK_FALSE(parse_file_line("_Z1kPf+0x1d0:4"));
}

TEST_CASE("a FILE:LINE names the access's own line or a line it was inlined at, the file by whole path components") {
  const SourceLine s{FileLine{"/src/inc.cuh", 2}, {{"/src/k.cu", 3}, {"/src/k.cu", 9}}};
  CHECK(source_matches(s, {"inc.cuh", 2}));
  CHECK(source_matches(s, {"src/inc.cuh", 2}));
  CHECK(source_matches(s, {"/src/inc.cuh", 2}));
  CHECK(source_matches(s, {"k.cu", 9}));
  CHECK(source_matches(s, {"k.cu", 3}));
  CHECK_FALSE(source_matches(s, {"nc.cuh", 2}));  // not a whole component
  CHECK_FALSE(source_matches(s, {"inc.cuh", 3}));
  CHECK_FALSE(source_matches(s, {"/inc.cuh", 2}));
  CHECK_FALSE(source_matches(SourceLine{}, {"k.cu", 9}));
}

}  // namespace source_line_test
