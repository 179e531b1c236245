#include "sim/algorithms/transpose/transpose.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace transpose_test {

using namespace bankcheck;

namespace {
struct Result {
  std::vector<int> out;
  test::TallyListener tally;
};
Result run(unsigned tile, TransposeLayout layout, const BankModel& model) {
  std::vector<int> in(tile * tile), out(tile * tile, -1);
  std::iota(in.begin(), in.end(), 100);
  Transpose<int> t{tile, layout, in.data(), out.data()};
  t.validate();
  auto tally = test::tally(t, t.threads(), model, t.shared_bytes());
  return {out, tally};
}
}  // namespace

TEST_CASE("transpose: output is the transpose; conflicts match the hand count on w = tile banks") {
  for (unsigned w : {4u, 8u, 16u, 32u}) {
    const auto model = make_preset("dmm", w);
    for (auto layout : {TransposeLayout::plain, TransposeLayout::padded, TransposeLayout::swizzled}) {
      CAPTURE(w);
      CAPTURE(static_cast<int>(layout));
      auto r = run(w, layout, model);
      for (unsigned i = 0; i < w; ++i)
        for (unsigned j = 0; j < w; ++j) REQUIRE(r.out[j * w + i] == static_cast<int>(100 + i * w + j));
      const auto& write = r.tally.sites.at("transpose.write_tile");
      const auto& read = r.tally.sites.at("transpose.read_column");
      // One warp per tile row: w instructions per site.
      CHECK(write.instructions == w);
      CHECK(read.instructions == w);
      CHECK(write.conflicts() == 0);  // a row of w consecutive (or permuted) slots covers every bank once
      if (layout == TransposeLayout::plain) {
        // Column c of the plain tile is c + r*w: all in bank c, w distinct cells -> w-way.
        CHECK(read.worst_degree == w);
        CHECK(read.conflicts() == std::uint64_t{w} * (w - 1));
      } else {
        CHECK(read.conflicts() == 0);
      }
    }
  }
}

TEST_CASE("transpose: a tile that is not the bank count") {
  // tile 12 on 8 banks, plain: warp = 8 lanes of one tile row r (threads r*12 .. ), reading
  // column slots c*12 + r for 8 consecutive c's: banks (4c + r) mod 8 take 2 values -> 4-way.
  const auto model = make_preset("dmm", 8);
  std::vector<int> in(144), out(144);
  std::iota(in.begin(), in.end(), 0);
  Transpose<int> t{12, TransposeLayout::plain, in.data(), out.data()};
  auto tally = test::tally(t, t.threads(), model, t.shared_bytes());
  for (unsigned i = 0; i < 12; ++i)
    for (unsigned j = 0; j < 12; ++j) REQUIRE(out[j * 12 + i] == static_cast<int>(i * 12 + j));
  CHECK(tally.sites.at("transpose.read_column").instructions == 18);
  CHECK(tally.sites.at("transpose.read_column").worst_degree == 4);  // warp 0: row 0, c = 0..7
}

TEST_CASE("transpose: bad parameters are named") {
  Transpose<int> t{12, TransposeLayout::swizzled};
  CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("power-of-two"), std::invalid_argument);
  t.tile = 0;
  CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("[1, 1024]"), std::invalid_argument);
  CHECK_THROWS_AS(parse_transpose_layout("diagonal"), std::invalid_argument);
}

}  // namespace transpose_test
