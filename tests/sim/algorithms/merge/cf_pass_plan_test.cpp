// The merge plan of the CF-Merge device sort (sim/algorithms/merge/cf_pass_plan.hpp):
// every merge joins two whole sorted runs lying in the buffer its level reads, the sort
// ends in one run in the caller's buffer, and the balanced plan merges as many tiles as
// the minimum external path length of a binary tree with that many leaves (Knuth,
// TAOCP vol. 1, 2.3.4.5: N floor(log2 N) + 2 (N - 2^floor(log2 N))), an independent count.
#include "sim/algorithms/merge/cf_pass_plan.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace {

using bankcheck::CfRunPair;
using bankcheck::CfPassPlan;

/// The minimum external path length of a binary tree with `leaves` leaves.
std::int64_t min_external_path(std::int64_t leaves) {
  int k = 0;
  while ((std::int64_t{2} << k) <= leaves) ++k;  // k = floor(log2 leaves)
  return leaves * k + 2 * (leaves - (std::int64_t{1} << k));
}

/// Replays a plan over tiles: which run each tile is in (its first tile) and which buffer
/// holds it (0: where the block sort writes, level q reads q % 2). Returns the tiles merged
/// over all levels; fails a check where a merge does not join two whole runs of its input
/// buffer, where the balanced plan leaves a run without a partner, or where the sort does
/// not end as one run in the caller's buffer (levels % 2).
std::int64_t replay(const CfPassPlan& plan, bool balanced) {
  const std::int64_t tiles = plan.num_tiles, run_tiles = std::int64_t{1} << plan.leaf_shift;
  std::vector<std::int64_t> run(tiles), end(tiles);  // run[t]: its run's first tile; end[r]: run r's end
  std::vector<int> buffer(tiles);
  for (std::int64_t t = 0; t < tiles; ++t) {
    run[t] = t / run_tiles * run_tiles;
    end[run[t]] = std::min(tiles, run[t] + run_tiles);
    buffer[t] = plan.skips_level0(t / run_tiles) ? 1 : 0;
  }
  auto tile_of = [&](std::int64_t key) { return (key + plan.tile - 1) / plan.tile; };
  std::int64_t merged = 0;
  bool whole_runs = true, in_input = true, partnered = true;
  for (int level = 0; level < plan.levels; ++level) {
    std::int64_t t = plan.first_tile(level);
    while (t < tiles) {
      const CfRunPair p = plan.pair(level, t);
      const std::int64_t b = tile_of(p.begin), m = tile_of(p.mid), e = tile_of(p.end);
      whole_runs = whole_runs && b == t && run[b] == b && end[b] == m && (m == e || (run[m] == m && end[m] == e));
      partnered = partnered && m < e;
      for (std::int64_t i = b; i < e; ++i) {
        in_input = in_input && buffer[i] == level % 2;
        buffer[i] = 1 - level % 2;
        run[i] = b;
      }
      end[b] = e;
      merged += e - b;
      t = e;
    }
  }
  CHECK(whole_runs);
  CHECK(in_input);
  if (balanced) CHECK(partnered);
  bool one_run = true;
  for (std::int64_t t = 0; t < tiles; ++t) one_run = one_run && run[t] == 0 && buffer[t] == plan.levels % 2;
  CHECK(one_run);
  return merged;
}

}  // namespace

TEST_CASE("CF pass plan: every merge joins two whole runs of its input buffer, and the sort ends in one run") {
  std::vector<std::int64_t> counts;
  for (std::int64_t t = 1; t <= 2100; ++t) counts.push_back(t);
  for (std::int64_t t : {std::int64_t{4097}, std::int64_t{8194}, std::int64_t{8704}, std::int64_t{3 * 1024 + 1},
                         (std::int64_t{1} << 16) - 1, (std::int64_t{1} << 16) + 3})
    counts.push_back(t);
  const int T = 4;
  for (const std::int64_t tiles : counts)
    for (const bool balanced : {false, true})
      for (const int leaf_shift : {0, 1})
        for (const std::int64_t short_by : {0, 1}) {  // a full or a partial last tile
          const std::int64_t n = tiles * T - short_by;
          CAPTURE(tiles);
          CAPTURE(balanced);
          CAPTURE(leaf_shift);
          CAPTURE(short_by);
          const CfPassPlan plan = CfPassPlan::make(n, T, leaf_shift, balanced);
          const std::int64_t leaves = (tiles + (1 << leaf_shift) - 1) >> leaf_shift;
          REQUIRE(plan.leaves == leaves);
          REQUIRE((std::int64_t{1} << plan.levels) >= leaves);
          REQUIRE((plan.levels == 0 || (std::int64_t{1} << (plan.levels - 1)) < leaves));
          const std::int64_t merged = replay(plan, balanced);
          if (leaf_shift == 0) {  // merged tiles = the tree's external path length
            if (balanced)
              CHECK(merged == min_external_path(tiles));
            else
              CHECK(merged == plan.levels * tiles);
          }
        }
}

TEST_CASE("CF pass plan: the first level merges only the tiles a power-of-two count of runs needs") {
  // 2^24 + 12,345 4-byte keys in tiles of 8192: 2050 tiles, 12 levels. CUB's plan merges all
  // 2050 tiles in each; the balanced one merges only the last 4 tiles (2 pairs) in level 0.
  const CfPassPlan cub = CfPassPlan::make((std::int64_t{1} << 24) + 12345, 8192, 0, false);
  const CfPassPlan balanced = CfPassPlan::make((std::int64_t{1} << 24) + 12345, 8192, 0, true);
  CHECK(cub.levels == 12);
  CHECK(balanced.levels == 12);
  CHECK(cub.first_tile(0) == 0);
  CHECK(balanced.singles == 2046);
  CHECK(balanced.first_tile(0) == 2046);
  CHECK(balanced.first_tile(1) == 0);
  // after the wide block sort (leaves of two tiles): 1025 leaves, 11 levels, level 0 merges the last 2 leaves
  const CfPassPlan wide = CfPassPlan::make((std::int64_t{1} << 24) + 12345, 8192, 1, true);
  CHECK(wide.leaves == 1025);
  CHECK(wide.levels == 11);
  CHECK(wide.first_tile(0) == 2 * 1023);
  // a power of two: both plans are CUB's
  const CfPassPlan pow2 = CfPassPlan::make(std::int64_t{1} << 24, 8192, 0, true);
  CHECK(pow2.singles == 0);
  CHECK(pow2.levels == 11);
}
