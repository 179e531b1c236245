// The static B-tree (Karsin 2015, 4.2.2): the built separators against their
// definition computed by brute force (the smallest key under each child),
// answers against std::upper_bound for every tree shape and every number of
// cached levels, and the probe counts of the layout: per query log2 B probes
// in each of the `levels` internal nodes (shared ones for the cached levels)
// and log2 B + 1 in its leaf page.
#include "sim/algorithms/global_search/btree.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "sim/algorithms/block_recorder.hpp"
#include "sim/inputs/random.hpp"

using namespace bankcheck;

namespace {

using Tree = BtreeSearch<int, RecordingGlobal<int>, RecordingGlobal<int>, RecordingGlobal<int>, RecordingGlobal<long>>;

struct Count final : InstructionListener {
  std::vector<std::uint64_t> by_site = std::vector<std::uint64_t>(8);
  void instruction(const InstructionInfo& i, const WarpRequest&) override { ++by_site[i.site]; }
};

/// B^e.
long power(long B, int e) {
  long p = 1;
  while (e-- > 0) p *= B;
  return p;
}

}  // namespace

TEST_CASE("btree_levels: the fewest internal levels whose root spans K") {
  CHECK(btree_levels(64, 32) == 1);     // 2 leaf pages under one root
  CHECK(btree_levels(1024, 32) == 1);   // 32 pages: one full root
  CHECK(btree_levels(1056, 32) == 2);   // 33 pages
  CHECK(btree_levels(65536, 32) == 3);  // 2048 pages -> 64 nodes -> 2 -> 1
  CHECK(btree_levels(16, 2) == 3);
}

TEST_CASE("btree separators are the first keys of their children, +inf past the end") {
  for (auto [K, B] : {std::pair{64L, 4}, std::pair{96L, 4}, std::pair{2048L, 8}, std::pair{65536L, 32}}) {
    CAPTURE(K);
    std::vector<int> keys(K);
    for (long i = 0; i < K; ++i) keys[i] = static_cast<int>(5 * i + 2);
    std::vector<int> tree;
    long offset[kBtreeMaxLevels] = {};
    const int levels = btree_build(keys.data(), K, B, tree, offset);
    for (int l = 0; l < levels; ++l)
      for (long e = offset[l]; e < offset[l + 1]; ++e) {
        // entry e is child (e - offset[l]) of level l; its subtree holds keys [child*span, (child+1)*span)
        const long child = e - offset[l], span = power(B, levels - l);
        int smallest = std::numeric_limits<int>::max();
        for (long k = child * span; k < std::min(K, (child + 1) * span); ++k) smallest = std::min(smallest, keys[k]);
        CHECK(tree[e] == smallest);
      }
    CHECK(offset[levels] == static_cast<long>(tree.size()));
  }
}

TEST_CASE("btree answers are std::upper_bound - 1 for every cached level count, with the layout's probe counts") {
  inputs::Random random(3);
  for (auto [K, B] : {std::pair{8L, 2}, std::pair{96L, 4}, std::pair{4096L, 8}, std::pair{65536L, 32}}) {
    std::vector<int> keys(K);
    for (long i = 0; i < K; ++i) keys[i] = static_cast<int>(2 * i + 1);
    std::vector<int> tree;
    Tree t;
    t.K = K;
    t.B = B;
    t.levels = btree_build(keys.data(), K, B, tree, t.offset);
    for (int cached = 0; cached <= t.levels; ++cached) {
      CAPTURE(K);
      CAPTURE(cached);
      std::vector<int> queries(96);
      for (int& q : queries) q = static_cast<int>(random.below(static_cast<std::uint64_t>(2 * K + 2)));
      queries[0] = 0;
      queries[1] = static_cast<int>(2 * K + 1);
      std::vector<long> answers(queries.size(), -7);
      t.cached = cached;
      t.threads = 32;
      t.per_thread = 3;
      t.valid = 96;
      BlockRecorder recorder(static_cast<std::size_t>(t.shared_bytes()));
      t.keys = recorder.global(keys.data(), keys.size(), 0x10000000);
      t.tree = recorder.global(tree.data(), tree.size(), 0x20000000);
      t.queries = recorder.global(queries.data(), queries.size(), 0x30000000);
      t.answers = recorder.global(answers.data(), answers.size(), 0x40000000);
      Count c;
      recorder.run(t, 32, c);
      for (std::size_t i = 0; i < queries.size(); ++i)
        CHECK(answers[i] == std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin() - 1);
      const std::uint64_t log_b = static_cast<std::uint64_t>(std::countr_zero(static_cast<unsigned>(B)));
      const std::uint64_t queries_per_warp_run = 3;  // one warp, 3 phases of queries
      CHECK(c.by_site[Tree::node_cached] == queries_per_warp_run * static_cast<std::uint64_t>(cached) * log_b);
      CHECK(c.by_site[Tree::node_global] ==
            queries_per_warp_run * static_cast<std::uint64_t>(t.levels - cached) * log_b);
      CHECK(c.by_site[Tree::leaf] == queries_per_warp_run * log_b);
      CHECK(c.by_site[Tree::leaf_check] == queries_per_warp_run);
      CHECK(t.shared_bytes() == t.offset[cached] * 4);
    }
  }
}
