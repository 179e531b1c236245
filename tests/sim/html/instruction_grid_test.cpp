// Tests of sim/html/instruction_grid.hpp: the bank grid of an instruction's
// worst execution, kept sparse. Expected cells from the banks' definition
// (sm90: bank = (byte offset / 4) mod 32), not from the code.
#include "sim/html/instruction_grid.hpp"

#include <doctest/doctest.h>

#include "model/bank_model.hpp"

namespace instruction_grid_test {

using namespace bankcheck;

namespace {
WorstInstruction load(std::uint64_t pitch_words) {
  WorstInstruction w;
  w.present = true;
  w.op = Op::load;
  w.width = 4;
  for (std::uint64_t lane = 0; lane < 32; ++lane) w.addr.push_back(1024 + 4 * pitch_words * lane);
  return w;
}
}  // namespace

TEST_CASE("a column read at pitch 32: 32 distinct words in bank 0, each its own shared-memory row") {
  const auto g = html::grid_json(make_preset("sm90"), load(32));
  REQUIRE_FALSE(g.contains("none"));
  CHECK(g["banks"] == 32);
  CHECK(g["columns"].size() == 32);
  CHECK(g["columns"][0] == 8);  // byte 1024 is row 8 of 128-byte rows
  REQUIRE(g["cells"].size() == 32);
  for (std::size_t lane = 0; lane < 32; ++lane) {
    const auto& c = g["cells"][lane];
    CHECK(c[0] == 0);     // bank
    CHECK(c[1] == lane);  // the lane's own row
    CHECK(c[2] == 2);     // conflict
    CHECK(c[3] == std::to_string(lane));
  }
  CHECK(g["bank_words"][0] == 32);
  CHECK(g["bank_words"][1] == 0);
  CHECK(g["cost"]["wavefronts"] == 32);
  CHECK(g["culprit"] == "bank 0 serves 32 distinct words to lanes 0-31");
  CHECK(g["cut"] == 0);
}

TEST_CASE("pitch 33: one word in each bank, no conflict; rows no lane touches are left out; no lanes, no grid") {
  const auto g = html::grid_json(make_preset("sm90"), load(33));
  CHECK(g["cells"].size() == 32);
  for (const auto& c : g["cells"]) CHECK(c[2] == 1);
  CHECK(g["culprit"] == "no bank conflict");
  const auto wide = html::grid_json(make_preset("sm90"), load(32 * 3));  // every lane three rows apart
  REQUIRE(wide["columns"].size() == 32);
  CHECK(wide["columns"][1] == 11);
  CHECK(wide["cells"][1][1] == 1);
  CHECK(html::grid_json(make_preset("sm90"), WorstInstruction{})["none"] == "no costed execution");
  WorstInstruction idle = load(1);
  idle.addr.assign(32, kInactive);
  CHECK(html::grid_json(make_preset("sm90"), idle)["none"] == "no active lane");
}

}  // namespace instruction_grid_test
