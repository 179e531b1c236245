// The global passes' choices of the CF-Merge device sort (sim/algorithms/merge/cf_merge_passes.hpp):
// the partition search's probes and the dispatch's size rules, each held to the H100's measurements
// (docs/cf-merge.md, "Sizes that are not a power of two").
#include "sim/algorithms/merge/cf_merge_passes.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>

namespace bankcheck {
namespace {

TEST_CASE("CF sort: the partition search's probes follow the tile count") {
  // The H100's best of 3, 7, 31 and binary at these counts (cf_sort_table --profile, 2026-11-27):
  // 123 and 245 tiles (1,000,003 keys), 2048 (2^24 4-byte keys), 4096 and 8192 (2^24 8-byte, 2^26 4-byte).
  const std::pair<std::int64_t, int> measured[] = {{123, 31}, {245, 31}, {2048, 7}, {4096, 3}, {8192, 3}};
  for (const auto& [tiles, probes] : measured) {
    CAPTURE(tiles);
    CHECK(partition_probes(tiles) == probes);
  }
  // Always a warp's worth or fewer, 2^k - 1, never fewer than 3, and the bound holds where it can.
  for (std::int64_t tiles = 1; tiles <= (std::int64_t{1} << 20); tiles = tiles * 3 / 2 + 1) {
    const int p = partition_probes(tiles);
    CHECK(p >= 3);
    CHECK(p <= 31);
    CHECK(((p + 1) & p) == 0);
    CHECK((p == 3 || (p + 1) * (tiles + 1) <= (std::int64_t{1} << 15)));
  }
}

// cf_sort_table --profile, 2026-11-27 (docs/cf-merge.md): 132 SMs; 528 merge blocks of 4-byte keys and 264 of
// 4-byte pairs resident at once. Each row: a rule, its two arguments, the choice the measurements support.
struct SizeRuleCase {
  const char* rule;
  std::int64_t tiles, bound;
  bool chosen;
  bool wide = false;         // the small sort's: whether its block sort sorts pairs of its tiles
  std::int64_t tighter = 0;  // the tighter cap's resident blocks
};
const SizeRuleCase kSizeRuleCases[] = {
    // the merge kernel's own search faster at 128 and 512 tiles (2^20, 2^22 keys), the partition kernel at 8192
    {"fused partitions", 128, 528, true},
    {"fused partitions", 512, 528, true},
    {"fused partitions", 8192, 528, false},
    {"fused partitions", 529, 528, false},
    // item 15: the balanced plan 5.4-6.1% faster at 2050 and 8194 tiles (4-byte keys) and 2050 (pairs); CUB's
    // plan faster at 136 tiles of 4-byte keys (0.0941 against 0.1004 ms) and at 123 of pairs
    {"balanced plan", 2050, 528, true},
    {"balanced plan", 8194, 528, true},
    {"balanced plan", 2050, 264, true},
    {"balanced plan", 136, 528, false},
    {"balanced plan", 123, 264, false},
    {"balanced plan", 528, 528, false},
    // item 16: half the threads faster at 136 and 272 default tiles (up to 1.35x)
    {"small sort", 136, 132, true},
    {"small sort", 272, 132, true},
    {"small sort", 396, 132, true},
    // item 19, cf_sort_table --sweep (2026-11-27, 16:32 UTC): without the wide block sort, the default faster
    // at 480 tiles of 4-byte keys (0.978) and 512 of 8-byte keys (0.979); with it, half the threads faster at
    // 512 tiles of 4-byte pairs (1.072), 544 of 8-byte keys (1.148) and 1536 of 4-byte pairs (1.023), the
    // default at 4096 of 8-byte keys (0.977) and 3072 of 8-byte pairs (0.992)
    {"small sort", 480, 132, false},
    {"small sort", 512, 132, false},
    {"small sort", 512, 132, true, true},
    {"small sort", 544, 132, true, true},
    {"small sort", 1536, 132, true, true},
    {"small sort", 4096, 132, false, true},
    {"small sort", 3072, 132, false, true},
    // item 18, cf_sort_table --sweep (2026-11-27, 16:20 UTC; the small-sort policy's merge kernel, 1056 blocks of
    // 4-byte keys or 8-byte keys, 528 of pairs resident): overlapped launches faster at 256 and 528 of 1056
    // blocks (2^20 and 2,162,688 4-byte keys) and at 400 of 528 (1,638,400 4-byte pairs) and 928 of 1056
    // (1,900,544 8-byte keys), slower at 544 and 784 of 1056 (2,228,224 and 3,211,264 4-byte keys), at 272
    // and 384 of 528 (1,114,112 and 1,572,864 4-byte pairs) and at 288 of 528 (1,179,648 8-byte pairs)
    {"overlapped launch", 256, 1056, true},
    {"overlapped launch", 528, 1056, true},
    {"overlapped launch", 400, 528, true},
    {"overlapped launch", 928, 1056, true},
    {"overlapped launch", 544, 1056, false},
    {"overlapped launch", 784, 1056, false},
    {"overlapped launch", 272, 528, false},
    {"overlapped launch", 384, 528, false},
    {"overlapped launch", 288, 528, false},
    // item 20, cf_sort_table --sweep (2026-11-27, 16:49 UTC; the small sort with 4 or 5 blocks an SM for pairs,
    // 8 or 9 for keys): one more block faster at 272 and 320 of 528 (4-byte pairs, 0.91 and 0.94), 288 of 528
    // (8-byte pairs, 0.96) and 544 of 1056 (4- and 8-byte keys, 0.94, 0.93); level or slower at 256 and 352 of
    // 528 (4-byte pairs, 1.01, 1.00), 448 of 528 (8-byte pairs, 1.11) and 528 of 1056 (4-byte keys, 1.03)
    {"tighter cap", 272, 528, true, false, 660},
    {"tighter cap", 320, 528, true, false, 660},
    {"tighter cap", 288, 528, true, false, 660},
    {"tighter cap", 544, 1056, true, false, 1188},
    {"tighter cap", 256, 528, false, false, 660},
    {"tighter cap", 352, 528, false, false, 660},
    {"tighter cap", 448, 528, false, false, 660},
    {"tighter cap", 528, 1056, false, false, 1188},
    // item 22, cf_sort_table --sweep --ends (2026-11-27, 17:28 UTC): the tiny policy faster or level at 1 tile
    // (1000 keys, every key type), at 98 (100,003 8-byte keys) and 128 of its tiles (2^18 4-byte keys), slower
    // at 256 (2^18 8-byte keys 0.0548 against 0.0497 ms, 2^19 4-byte keys 0.0579 against 0.0495)
    {"tiny sort", 1, 132, true},
    {"tiny sort", 98, 132, true},
    {"tiny sort", 128, 132, true},
    {"tiny sort", 256, 132, false},
    // item 24, cf_sort_table --sweep --sizes (2026-11-27, 23:35 UTC; `bound` = words a thread): the small sort
    // faster at 2 tiny tiles (2000 8-byte keys 1.085 against 0.942; 4000 4-byte keys 1.039 against 0.832), 5
    // (10,007 4-byte keys 1.109 against 1.033) and 6 (6000 8-byte keys 1.100 against 1.039); the tiny sort at
    // 1 (1000 8-byte keys 1.098 against 1.076), 10 (20,000 4-byte keys 1.125 against 1.077; 10,007 8-byte keys
    // 1.168 against 1.160) and for pairs (2000 8-byte pairs 1.090 against 1.002; 4000 4-byte pairs 0.984
    // against 0.843)
    {"small over tiny", 2, 32, true},
    {"small over tiny", 5, 32, true},
    {"small over tiny", 6, 32, true},
    {"small over tiny", 1, 32, false},
    {"small over tiny", 10, 32, false},
    {"small over tiny", 2, 64, false},
};

TEST_CASE("CF sort: the dispatch's size rules choose what the H100 measured faster") {
  for (const SizeRuleCase& c : kSizeRuleCases) {
    CAPTURE(c.rule);
    CAPTURE(c.tiles);
    CAPTURE(c.bound);
    const std::string rule = c.rule;
    const bool chosen = rule == "fused partitions"    ? cf_merge_fused_partitions(c.tiles, c.bound)
                        : rule == "balanced plan"     ? cf_balanced_plan(c.tiles, c.bound)
                        : rule == "overlapped launch" ? cf_overlapped_launch(c.tiles, c.bound)
                        : rule == "tighter cap"       ? cf_tighter_register_cap(c.tiles, c.bound, c.tighter)
                        : rule == "tiny sort"         ? cf_tiny_sort(c.tiles, c.bound)
                        : rule == "small over tiny"   ? cf_small_sort_for_few_tiles(c.tiles, static_cast<int>(c.bound))
                                                      : cf_small_sort(c.tiles, c.bound, c.wide);
    CHECK(chosen == c.chosen);
  }
}

}  // namespace
}  // namespace bankcheck
