// CuTe's layout function: offsets against the formula written out by hand.
#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/layout/cute_layout.hpp"

using namespace bankcheck::layout;

namespace {
IntTuple leaf(std::int64_t v) { return IntTuple{v, {}}; }
IntTuple tup(std::vector<IntTuple> m) { return IntTuple{0, std::move(m)}; }
}  // namespace

TEST_CASE("cute layout: (8,64):(64,1) is row-major; modes are its rows and columns") {
  const CuteLayout l(tup({leaf(8), leaf(64)}), tup({leaf(64), leaf(1)}));
  CHECK(l.rank() == 2);
  CHECK(l.size() == 512);
  for (std::uint64_t i = 0; i < 512; ++i) REQUIRE(l(i) == static_cast<std::int64_t>(i % 8 * 64 + i / 8));
  CHECK(l.mode(0).size() == 8);
  CHECK(l.mode(1)(5) == 5);
  CHECK(l.text() == "(8,64):(64,1)");
}

TEST_CASE("cute layout: nested modes index colexicographically") {
  // ((8,2),(4,16)):((64,8),(1,512)): mode 0 index r = r0 + 8 r1, mode 1 index c = c0 + 4 c1.
  const CuteLayout l(tup({tup({leaf(8), leaf(2)}), tup({leaf(4), leaf(16)})}),
                     tup({tup({leaf(64), leaf(8)}), tup({leaf(1), leaf(512)})}));
  for (std::uint64_t r = 0; r < 16; ++r)
    for (std::uint64_t c = 0; c < 64; ++c)
      REQUIRE(l.mode(0)(r) + l.mode(1)(c) ==
              static_cast<std::int64_t>(r % 8 * 64 + r / 8 * 8 + c % 4 + c / 4 * 512));
  CHECK(l(17) == 64 + 1);  // index 17 of the whole layout is (1,1) of its modes (16,64): row 1, column 1
}

TEST_CASE("cute layout: compact column-major strides (LayoutLeft) when none are given") {
  const IntTuple shape = tup({leaf(8), tup({leaf(4), leaf(2)})});
  CHECK(tuple_text(compact_left_strides(shape)) == "(1,(8,32))");
  CHECK_THROWS_AS(CuteLayout(tup({leaf(8), leaf(4)}), tup({leaf(1)})), std::invalid_argument);
  CHECK_THROWS_AS(CuteLayout(tup({leaf(0), leaf(4)}), tup({leaf(1), leaf(0)})), std::invalid_argument);
}
