// GlobalTotals: sums of the global costs, split into loads and stores, and
// overflow-checked like CostTotals (a wrapped count is never reported).
#include "sim/replay/global_totals.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>

using namespace bankcheck;

TEST_CASE("GlobalTotals adds instructions and their sectors, lines and pages") {
  GlobalTotals t;
  t.add(true, 32, GlobalCost{5, 4, 2, 2});
  t.add(false, 3, GlobalCost{3, 1, 3, 3});
  CHECK(t.instructions == 2);
  CHECK(t.loads == 1);
  CHECK(t.lane_accesses == 35);
  CHECK(t.sectors == 8);
  CHECK(t.ideal_sectors == 5);
  CHECK(t.excess_sectors() == 3);
  CHECK(t.lines == 5);
  CHECK(t.pages == 5);
  GlobalTotals u = t;
  u += t;
  CHECK(u.sectors == 16);
  CHECK(u.loads == 2);
  CHECK(replay_global_geometry(16).page_elements == 16);
  CHECK(replay_global_geometry(32).sector_bytes == 32);
  CHECK(replay_global_geometry(32).line_bytes == 128);
}

TEST_CASE("GlobalTotals throws instead of wrapping") {
  GlobalTotals t;
  t.add(true, 1, GlobalCost{std::numeric_limits<std::uint64_t>::max(), 0, 1, 1});
  CHECK_THROWS_AS(t.add(true, 1, GlobalCost{1, 0, 0, 0}), std::overflow_error);
  GlobalTotals big;
  big.add(false, 1, GlobalCost{1, 1, 1, std::numeric_limits<std::uint64_t>::max()});
  CHECK_THROWS_AS(big += big, std::overflow_error);
}
