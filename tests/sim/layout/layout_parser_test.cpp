// The layout notation, including cute::print's output (underscores, " o "
// compositions, smem_ptr), and the errors that name a column.
#include <doctest/doctest.h>

#include "sim/layout/layout_parser.hpp"

using namespace bankcheck::layout;

TEST_CASE("parser: cute::print forms") {
  auto l = parse_shared_layout("(_8,_64):(_64,_1)");
  CHECK(!l.swizzle);
  CHECK(l.layout.text() == "(8,64):(64,1)");
  l = parse_shared_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  REQUIRE(l.swizzle);
  CHECK(*l.swizzle == Swizzle{3, 4, 3});
  CHECK(l.unit == SwizzleUnit::element);
  CHECK(l.offset == 0);
  l = parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_64),_1,_4):((_256,_1),_0,_64)");
  CHECK(l.unit == SwizzleUnit::byte);
  CHECK(l.pointer_bits == 16u);
  CHECK(l.layout.rank() == 3);
  CHECK(l.text() == "Sw<3,4,3> o smem_ptr[16b](unset) o ((128,64),1,4):((256,1),0,64)");
  l = parse_shared_layout("Swizzle<2,3,3> o (8,64):(64,1)");
  CHECK(*l.swizzle == Swizzle{2, 3, 3});
  l = parse_shared_layout("  Sw<3,3,3> o 16 o (8,64):(64,1) ");
  CHECK(l.offset == 16);
  l = parse_shared_layout("((8,2),(4,16)):((64,8),(1,512))");
  CHECK(l.layout.rank() == 2);
  CHECK(l.layout.mode(0).size() == 16);
  l = parse_shared_layout("(8,64)");
  CHECK(l.layout.text() == "(8,64):(1,8)");
  l = parse_shared_layout("(_32,_4):(_-1,_1)");
  CHECK(l.layout.mode(0)(1) == -1);
}

TEST_CASE("parser: malformed input names the column and what was expected") {
  struct Bad {
    const char* text;
    std::size_t column;
    const char* says;
  };
  for (const Bad& b : {Bad{"(8,64]:(64,1)", 6, "expected ',' or ')'"}, Bad{"(8,64):(64)", 8, "nesting"},
                       Bad{"Sw<3,4> o (8,64)", 7, "expected ','"}, Bad{"Sw<3,3,2> o (8,64)", 1, "|S| >= B"},
                       Bad{"Sw<3,3,3> (8,64)", 11, "expected ' o '"}, Bad{"(8,x)", 4, "expected a mode"},
                       Bad{"(8,64):(64,1) junk", 15, "expected the end"}, Bad{"", 1, "the layout's shape"},
                       Bad{"Sw<3,3,3> o smem_ptr[12b](unset) o (8,8)", 22, "8, 16, 32, 64 or 128"},
                       Bad{"Sw<3,3,3> o (1,2) o (8,8)", 13, "integer offset"}, Bad{"(0,4)", 1, "below 1"}}) {
    const std::string text = b.text;
    CAPTURE(text);
    try {
      (void)parse_shared_layout(b.text);
      FAIL("accepted");
    } catch (const LayoutSyntaxError& e) {
      CHECK(e.column() == b.column);
      CHECK(std::string(e.what()).find(b.says) != std::string::npos);
      CHECK(std::string(e.what()).find("column " + std::to_string(b.column)) != std::string::npos);
    }
  }
}
