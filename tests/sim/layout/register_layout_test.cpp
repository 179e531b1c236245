// Register layouts as Triton prints linear layouts: the element a register
// of a lane holds is the XOR of the bases of its set bits; every element is
// held exactly once or the layout is refused.
#include "sim/layout/register_layout.hpp"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <utility>

using namespace bankcheck::layout;

namespace {
// Triton's blocked layout [1,4] x [2,16] x [4,1], order [1,0], on 64x64 (validate/suggest/triton_pairs/linear.py).
const char* kRows = "register=[[0,1],[0,2],[8,0],[16,0],[32,0]] lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] warp=[[2,0],[4,0]]";
}  // namespace

TEST_CASE("register layout: every element once, at the XOR of the bases") {
  const RegisterLayout r = parse_register_layout(kRows, 64, 64);
  CHECK(r.registers() == 32);
  CHECK(r.warps() == 4);
  // By the blocked layout's definition: lane l holds columns 4 (l mod 16) .. +3 of row l / 16 (+ 2 warp + 8 repeat).
  CHECK(r.at(0, 0, 0) == TileCoord{0, 0});
  CHECK(r.at(3, 5, 0) == TileCoord{0, 23});
  CHECK(r.at(4, 16, 1) == TileCoord{11, 0});
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (std::uint64_t w = 0; w < 4; ++w)
    for (std::uint64_t l = 0; l < 32; ++l)
      for (std::uint64_t g = 0; g < 32; ++g) {
        const TileCoord c = r.at(g, l, w);
        CHECK(c.row == 8 * ((g >> 2) & 7) + 2 * w + (l >> 4));  // row: lane bit 4, warp bits, repeats of 8
        CHECK(c.col == 4 * (l & 15) + (g & 3));
        seen.insert({c.row, c.col});
      }
  CHECK(seen.size() == 4096);
  // Triton's printed form, with "- " items and newlines, reads the same.
  const RegisterLayout t = parse_register_layout(
      " - register=[[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]]\n - lane=[[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]]\n"
      " - warp=[[2, 0], [4, 0]]\n - block=[]", 64, 64);
  CHECK(t.at(3, 5, 0) == TileCoord{0, 23});
}

TEST_CASE("register layout: refusals name the column or the basis") {
  CHECK_THROWS_WITH_AS(parse_register_layout("register=[[0,1] lane=[]", 64, 64), doctest::Contains("column 17"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout("regs=[[0,1]]", 64, 64), doctest::Contains("unknown part 'regs'"),
                       std::invalid_argument);
  // A repeated basis holds an element twice: a broadcast, not modelled.
  CHECK_THROWS_WITH_AS(parse_register_layout("register=[[0,1],[0,1]] lane=[[0,2],[0,4],[0,8],[1,0],[2,0]]", 4, 16),
                       doctest::Contains("broadcast"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout("register=[[0,1]] lane=[[0,2],[0,4],[0,8],[1,0],[2,0]]", 8, 16),
                       doctest::Contains("cover 64 elements, the tile has 128"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout("lane=[[0,2],[0,4],[0,8],[1,0]]", 2, 16), doctest::Contains("needs 5"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout("lane=[[0,1],[0,2],[0,4],[0,8],[0,64]]", 1, 32),
                       doctest::Contains("outside"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout("lane=[[0,1],[0,2],[0,4],[0,8],[0,16]] block=[[1,0]]", 1, 32),
                       doctest::Contains("block bases"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_register_layout(kRows, 48, 64), doctest::Contains("powers of two"), std::invalid_argument);
}
