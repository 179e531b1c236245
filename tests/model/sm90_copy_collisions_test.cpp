// Tests of model/sm90_copy_collisions.hpp: rule 6b's colliding reads within
// one quarter warp (docs/bank-model.md), on hand-built quarters whose counts
// the H200 measured in runs 11, 12 and 14 (validate/sm90/cases/cpasync11,
// cpasync12 and cpasync14.trace); the whole-warp costs built on them are in
// sm90_copy_cost_test.cpp.
#include "model/sm90_copy_collisions.hpp"

#include <doctest/doctest.h>

#include "model/bank_model.hpp"
#include "tests/support/copy_lanes.hpp"

#include <cstdint>
#include <vector>

using namespace bankcheck;
using namespace bankcheck::sm90;

namespace {

/// A lane of quarter 0: its destination row and 16-byte slot, and the line
/// and 32-byte place it reads (-1: a zero-filling lane, no read).
struct Read {
  unsigned row, slot;
  int line;
  unsigned place, half;
};

test::CopyLane copy_lane(const Read& r) { return {r.row, r.slot, r.line, 2 * r.place + r.half}; }

/// The whole warp's cost (rule 6b) of quarters 0-2 alike, each as `lanes` with
/// its rows moved by 8 per quarter and its lines by 16, and quarter 3 one row
/// read from one line beside zero-filling lanes in that row: 1 pair + a store
/// of 1 (so that the copy has zero-filling lanes).
std::uint64_t warp_wavefronts(const std::vector<Read>& lanes) {
  std::vector<std::vector<test::CopyLane>> quarters(4);
  for (unsigned q = 0; q < 3; ++q)
    for (const Read& r : lanes) {
      test::CopyLane l = copy_lane(r);
      l.row += 8 * q;
      if (l.line >= 0) l.line += 16 * static_cast<int>(q);
      quarters[q].push_back(l);
    }
  for (unsigned l = 0; l < 8; ++l) quarters[3].push_back({31, l, l < 4 ? 63 : -1, l});
  return make_preset("sm90").cost(test::copy_warp(quarters).request()).wavefronts;
}

Collisions of(const std::vector<Read>& lanes) {
  std::uint32_t reading = 0;
  for (unsigned l = 0; l < lanes.size(); ++l)
    if (lanes[l].line >= 0) reading |= lane_bit(l);
  std::vector<test::CopyLane> quarter;
  for (const Read& r : lanes) quarter.push_back(copy_lane(r));
  const test::CopyWarp w = test::copy_warp({quarter});
  return collisions(w.dst.data(), w.src.data(), reading, lane_range(0, 8));
}

}  // namespace

TEST_CASE("one row reading several lines at one place: those lines less one (run 11)") {
  // row 0's sectors 0-2 read lines 1, 2, 3 at place 2; its sector 3 zero-filling
  const Collisions c = of({{0, 0, 1, 2, 0}, {0, 1, 1, 2, 1}, {0, 2, 2, 2, 0}, {0, 3, 2, 2, 1},
                           {0, 4, 3, 2, 0}, {0, 5, 3, 2, 1}, {0, 6, -1, 0, 0}, {0, 7, -1, 0, 0}});
  CHECK(c.modelled);
  CHECK(c.extra == 2);
  CHECK(c.colliding == 0x3fu);
  CHECK_FALSE(c.one_store);
  // no two lines at one place: nothing beyond the pairs
  const Collisions none = of({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 1, 0}, {0, 3, 2, 1, 1}});
  CHECK(none.modelled);
  CHECK(none.extra == 0);
  CHECK(none.colliding == 0u);
}

TEST_CASE("two groups at two places cost the larger extra; two rows at one place, the lines there less one") {
  // one row, lines 1 and 2 at place 0, lines 3 and 4 at place 1 (places2)
  const Collisions places = of({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                                {0, 4, 3, 1, 0}, {0, 5, 3, 1, 1}, {0, 6, 4, 1, 0}, {0, 7, 4, 1, 1}});
  CHECK(places.modelled);
  CHECK(places.extra == 1);
  CHECK(places.colliding == 0xffu);
  CHECK_FALSE(places.one_store);
  // two rows, the second at place 3 (rows2 at two places)
  const Collisions apart = of({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                               {5, 0, 3, 3, 0}, {5, 1, 3, 3, 1}, {5, 2, 4, 3, 0}, {5, 3, 4, 3, 1}});
  CHECK(apart.modelled);
  CHECK(apart.extra == 1);
  CHECK_FALSE(apart.one_store);
  // two rows, both at place 0: four lines there, 3, and a store of one pass
  const Collisions same = of({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                              {5, 0, 3, 0, 0}, {5, 1, 3, 0, 1}, {5, 2, 4, 0, 0}, {5, 3, 4, 0, 1}});
  CHECK(same.modelled);
  CHECK(same.extra == 3);
  CHECK(same.one_store);
}

TEST_CASE("the shapes no reading fits (runs 15 and 16) are not modelled") {
  // two groups, and a zero-filling lane where the second group's sector is one lane
  CHECK_FALSE(of({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                  {5, 0, 3, 1, 0}, {5, 1, 3, 1, 1}, {5, 2, 4, 1, 0}, {6, 0, -1, 0, 0}})
                  .modelled);
  // one group, and another row reading a third line at the group's place
  CHECK_FALSE(of({{0, 0, 1, 2, 0}, {0, 1, 1, 2, 1}, {0, 2, 2, 2, 0}, {0, 3, 2, 2, 1},
                  {7, 0, 3, 2, 0}, {7, 1, 3, 2, 1}, {0, 6, -1, 0, 0}, {0, 7, -1, 0, 0}})
                  .modelled);
  // another row reading at another place is a measured shape
  CHECK(of({{0, 0, 1, 2, 0}, {0, 1, 1, 2, 1}, {0, 2, 2, 2, 0}, {0, 3, 2, 2, 1},
            {7, 0, 3, 1, 0}, {7, 1, 3, 1, 1}, {0, 6, -1, 0, 0}, {0, 7, -1, 0, 0}})
            .modelled);
}

TEST_CASE("a warp of quarters with two colliding groups costs them as measured (runs 12 and 14)") {
  // 4 pairs + the larger extra, 1, + a store of all eight lanes (one row: 1) = 6 per quarter
  CHECK(warp_wavefronts({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                         {0, 4, 3, 1, 0}, {0, 5, 3, 1, 1}, {0, 6, 4, 1, 0}, {0, 7, 4, 1, 1}}) == 3 * 6 + 2);
  // two rows at two places on the same quads (store 2): 4 + 1 + 2 = 7 (the sum of the extras would give 8)
  CHECK(warp_wavefronts({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                         {5, 0, 3, 3, 0}, {5, 1, 3, 3, 1}, {5, 2, 4, 3, 0}, {5, 3, 4, 3, 1}}) == 3 * 7 + 2);
  // two rows at one place on the same quads: 4 + 3 + one store pass = 8 (a store of all lanes would give 9),
  // as cpasync12's cpa-zcoll-0230 quarter; on other quads the same 8, as its cpa-zcoll-0186 quarter
  CHECK(warp_wavefronts({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                         {5, 0, 3, 0, 0}, {5, 1, 3, 0, 1}, {5, 2, 4, 0, 0}, {5, 3, 4, 0, 1}}) == 3 * 8 + 2);
  CHECK(warp_wavefronts({{0, 0, 1, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 0}, {0, 3, 2, 0, 1},
                         {5, 4, 3, 0, 0}, {5, 5, 3, 0, 1}, {5, 6, 4, 0, 0}, {5, 7, 4, 0, 1}}) == 3 * 8 + 2);
}
