#include "sim/draw/bank_grid.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/algorithms/strided/strided_access.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;

namespace {
// SPAA 2025 Figure 1: w = 12 threads reading elements t * stride on 12 banks.
std::vector<GridInstruction> strided(unsigned w, unsigned stride) {
  StridedAccess a{w, stride};
  BlockRecorder recorder(a.shared_bytes());
  GridRecorder grid;
  recorder.run(a, w, w, grid);
  return grid.trace();
}
}  // namespace

TEST_CASE("bank grid: SPAA Figure 1, stride 5 is conflict-free, stride 6 piles 6 cells on banks 0 and 6") {
  const auto model = make_preset("dmm", 12);
  BankGridOptions o;
  const auto g5 = build_bank_grid(model, strided(12, 5), o);
  CHECK(g5.banks == 12);
  CHECK(g5.columns == 5);  // cells 0..55
  CHECK(g5.round_conflicts == 0);
  unsigned accessed = 0;
  for (unsigned b = 0; b < 12; ++b)
    for (unsigned c = 0; c < g5.columns; ++c) {
      const auto& cell = g5.at(b, c);
      CHECK(cell.state != CellState::conflict);
      if (cell.state == CellState::accessed) {
        ++accessed;
        CHECK(std::stoul(cell.text) % 5 == 0);  // address label
        CHECK(std::stoul(cell.text) % 12 == b);
      }
    }
  CHECK(accessed == 12);  // one accessed cell per bank: a complete residue system (Lemma 1)

  const auto g6 = build_bank_grid(model, strided(12, 6), o);
  CHECK(g6.round_wavefronts == 6);
  CHECK(g6.round_conflicts == 5);
  for (unsigned b = 0; b < 12; ++b) {
    unsigned red = 0;
    for (unsigned c = 0; c < g6.columns; ++c) red += g6.at(b, c).state == CellState::conflict;
    CHECK(red == (b == 0 || b == 6 ? 6u : 0u));
  }
}

TEST_CASE("bank grid: thread labels, rounds and warps") {
  // Two rounds by hand: round 0 lanes read 0..3, round 1 lanes read 4*lane (4 banks: all bank 0).
  std::vector<GridInstruction> trace{
      {0, 0, "a", Op::load, 4, {0, 4, 8, 12}},
      {1, 0, "b", Op::load, 4, {0, 16, 32, 48}},
  };
  const auto model = make_preset("dmm", 4);
  BankGridOptions o;
  o.label = GridLabel::thread;
  o.round = 1;
  const auto g = build_bank_grid(model, trace, o);
  CHECK(g.columns == 4);
  CHECK(g.rounds == 2);
  CHECK(g.at(0, 0).text == "0");         // touched by thread 0 in both rounds
  CHECK(g.at(1, 0).text.empty());        // touched in round 0 only, by another site
  CHECK(g.at(1, 0).state == CellState::touched);
  CHECK(g.at(0, 3).text == "3");
  CHECK(g.at(0, 3).state == CellState::conflict);
  CHECK(g.round_conflicts == 3);
  CHECK(g.regions == std::vector<std::string>{"a", "b"});
  o.round = 2;
  CHECK_THROWS_WITH_AS(build_bank_grid(model, trace, o), doctest::Contains("[0, 1]"), std::invalid_argument);
  o.round = 0;
  CHECK(build_bank_grid(model, trace, o).at(1, 0).text == "1");
  o.round = BankGridOptions::kAllRounds;
  CHECK(build_bank_grid(model, trace, o).round_conflicts == 3);
  CHECK(build_bank_grid(model, trace, o).at(1, 0).text == "1");
  o.warp_index = 1;
  CHECK_THROWS_AS(build_bank_grid(model, trace, o), std::invalid_argument);
}

TEST_CASE("bank grid: text, dot and rendered svg/png") {
  const auto model = make_preset("dmm", 12);
  auto g = build_bank_grid(model, strided(12, 6), {});
  const std::string text = grid_text(g);
  CHECK(text.find("0: 0* 12* 24* 36* 48* 60*") != std::string::npos);
  CHECK(grid_dot(g).find("<TABLE") != std::string::npos);
  const auto dir = bankcheck::test::scratch_dir();
  for (const char* ext : {".svg", ".png"}) {
    const auto path = (dir / (std::string("grid_test") + ext)).string();
    std::filesystem::remove(path);
    render_bank_grid(g, path);
    REQUIRE(std::filesystem::file_size(path) > 100);
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    if (std::string(ext) == ".svg") {
      CHECK(s.str().find("<svg") != std::string::npos);
      CHECK(s.str().find(">66<") != std::string::npos);  // the last accessed cell's label
    } else {
      CHECK(s.str().substr(1, 3) == "PNG");
    }
    std::filesystem::remove(path);
  }
  CHECK_THROWS_WITH_AS(render_bank_grid(g, "x.jpg"), doctest::Contains(".svg, .png or .dot"), std::invalid_argument);
}

TEST_CASE("bank grid: first_cell leaves out the empty columns below a tile; cells keep their addresses") {
  const auto model = make_preset("sm90", 32);
  std::vector<std::uint64_t> addr(32, kInactive);
  for (unsigned r = 0; r < 8; ++r) addr[r] = 4096 + 128 * r;  // 8 rows of 16 bytes, one per column, bank 0-3
  const std::vector<GridInstruction> trace{{0, 0, "core", Op::load, 16, addr}};
  BankGridOptions o;
  o.rounds = {false};  // no round highlighted: every cell tinted by its site
  o.state_legend = false;
  const auto whole = build_bank_grid(model, trace, o);
  CHECK(whole.columns == 4096 / 128 + 8);
  o.first_cell = 4096 / 4 + 5;  // rounded down to column 32
  const auto g = build_bank_grid(model, trace, o);
  CHECK(g.first_column == 32);
  CHECK(g.columns == 8);
  CHECK(g.at(0, 0).text == "1024");
  CHECK(g.at(3, 7).text == std::to_string((4096 + 7 * 128) / 4 + 3));
  CHECK(g.at(3, 7).state == CellState::touched);
  CHECK(g.at(4, 7).state == CellState::unused);
  const std::string dot = grid_dot(g);
  CHECK(dot.find("bank conflict") == std::string::npos);
  CHECK(dot.find(">core<") != std::string::npos);
  CHECK(grid_dot(whole).find("bank conflict") == std::string::npos);
}
