#pragma once
// Which runs each global merge pass of the CF-Merge device sort merges
// (kernels/cf_merge_sort.cuh), shared by the kernels, the dispatch and the CPU
// replay. C++17: the kernel header compiles as C++17.
//
// The block sort leaves L sorted runs (leaves) of one tile, or two after the
// wide block sort. CUB's plan merges runs of 2^q leaves pairwise at level q,
// so every key is merged ceil(log2 L) times; where L is not a power of two the
// last level merges a run of 2^(D-1) leaves with the few left over, a whole
// pass for a few tiles (2^24 + 12,345 4-byte keys: 2050 tiles, 12 passes
// against 11 at 2^24).
//
// The balanced plan merges as few keys as a binary merge tree of depth D =
// ceil(log2 L) can: the tree with 2(L - 2^(D-1)) leaves at depth D and the
// other M = 2^D - L at depth D - 1 (the minimum external path length,
// Knuth, TAOCP vol. 1, 2.3.4.5). Level 0 merges only the last 2(L - 2^(D-1))
// leaves pairwise; the first M leaves (singles) skip it, written by the block
// sort straight into the buffer level 1 reads. From level 1 on there are
// U = 2^(D-1) units (a single or a merged pair) and level q merges groups of
// 2^(q-1) units pairwise, as CUB's plan merges equal runs: no run is ever left
// without a partner. The last level merges every key once, as in CUB's plan;
// level 0 merges only 2(L - U) of the L leaves, so the sort saves M leaves'
// merge: 2050 tiles merge 2 + 11 x 2050 tiles instead of 12 x 2050. With M = 0
// the plan is CUB's (a power of two L gives M = 0 either way).
#include <cstdint>

#include "model/hd.hpp"
#include "sim/algorithms/merge/cf_merge_passes.hpp"

namespace bankcheck {

/// The two runs a merge joins, in keys: A = [begin, mid), B = [mid, end).
struct CfRunPair {
  std::int64_t begin = 0, mid = 0, end = 0;
};

/// The levels of the global merge passes over the block sort's runs. Its
/// functions run at the start of every merge block, so they take shifts and
/// masks, no division (a 64-bit division is a software routine on the GPU).
struct CfPassPlan {
  std::int64_t n = 0;          ///< keys
  std::int64_t num_tiles = 0;  ///< merge tiles, ceil(n / tile)
  std::int64_t leaves = 0;     ///< L, the block sort's runs
  std::int64_t singles = 0;    ///< M, the leaves level 0 does not merge (0 in CUB's plan)
  int tile = 1;                ///< a merge block's tile, keys
  int leaf_shift = 0;          ///< log2 of the tiles a block-sort run holds: 0, or 1 after the wide block sort
  int levels = 0;              ///< D = ceil(log2 L): merge passes after the block sort

  /// The plan of n keys in tiles of `tile`, runs of 2^leaf_shift tiles after the block sort;
  /// `balanced`: the balanced plan, else CUB's.
  BANKCHECK_HD static CfPassPlan make(std::int64_t n, int tile, int leaf_shift, bool balanced) {
    CfPassPlan p;
    p.n = n < 0 ? 0 : n;
    p.tile = tile;
    p.leaf_shift = leaf_shift;
    p.num_tiles = (p.n + tile - 1) / tile;
    p.leaves = (p.num_tiles + (std::int64_t{1} << leaf_shift) - 1) >> leaf_shift;
    p.levels = cf_merge_pass_count(p.leaves);
    p.singles = balanced && p.levels > 0 ? (std::int64_t{1} << p.levels) - p.leaves : 0;
    return p;
  }
  /// The first tile level `level` merges (its merge launch covers [first_tile, num_tiles)).
  BANKCHECK_HD std::int64_t first_tile(int level) const { return level == 0 ? singles << leaf_shift : 0; }
  /// Whether the block sort writes leaf `leaf` where level 1 reads (a single skips level 0).
  BANKCHECK_HD bool skips_level0(std::int64_t leaf) const { return leaf < singles; }
  /// The runs that level `level` merges into the run holding tile `tile_idx`.
  /// @pre 0 <= level < levels, first_tile(level) <= tile_idx < num_tiles.
  BANKCHECK_HD CfRunPair pair(int level, std::int64_t tile_idx) const {
    const std::int64_t leaf = tile_idx >> leaf_shift;
    std::int64_t b, m, e;  // leaves
    if (level == 0) {
      b = singles + ((leaf - singles) & ~std::int64_t{1});
      m = b + 1;
      e = b + 2;
    } else {
      const std::int64_t unit = leaf < singles ? leaf : singles + ((leaf - singles) >> 1);
      const std::int64_t group = std::int64_t{1} << (level - 1);
      const std::int64_t first = unit & ~(2 * group - 1);
      b = leaf_of_unit(first);
      m = leaf_of_unit(first + group);
      e = leaf_of_unit(first + 2 * group);
    }
    return {keys_of_leaf(b), keys_of_leaf(m), keys_of_leaf(e)};
  }

 private:
  /// The first leaf of unit `unit` (level 1's runs: the singles, then pairs).
  BANKCHECK_HD std::int64_t leaf_of_unit(std::int64_t unit) const {
    return unit <= singles ? unit : 2 * unit - singles;
  }
  BANKCHECK_HD std::int64_t keys_of_leaf(std::int64_t leaf) const {
    const std::int64_t k = (leaf << leaf_shift) * tile;
    return k < n ? k : n;
  }
};

}  // namespace bankcheck
