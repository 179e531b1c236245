#pragma once
// The static B-tree of Karsin 2015 ("A performance model for GPU
// architectures", Section 4.2.2) with shared-memory node caching: the
// batched predecessor search with K larger than shared memory, K in global
// memory, and shared memory used as a cache of the tree's top levels.
//
// Layout (a static B+-tree of fanout B):
//  * the leaves are the sorted keys themselves, pages of B keys (page p holds
//    K[pB .. pB+B-1]); with B = w a page is one of Karsin's aligned pages;
//  * internal level `levels-1` has one node per B leaf pages, each holding
//    the first key of each of its B children (+inf past the last), and every
//    level above indexes the one below the same way, up to one root;
//  * the internal nodes are stored level after level from the root (`tree`),
//    node n of level l at tree[offset[l] + n*B].
// A query descends: in each node a halving binary search finds the last
// separator <= q (child c, or 0 when none), then child n*B + c of the next
// level; in the leaf page the same search plus one final check gives the
// predecessor. Node caching: phase 0 copies the top `cached` levels into
// shared memory (coalesced: thread t copies entries t, t+u, ...), so those
// levels are searched with shared loads, the rest with global ones.
//
// Every query makes the same probes in count (B is a power of two), so a
// warp's probes form whole instructions. Answers as in gms.hpp.
#include <limits>

#include "model/hd.hpp"

namespace bankcheck {

/// The most internal levels a tree may have (B >= 2 and K <= 2^31).
inline constexpr int kBtreeMaxLevels = 32;

template <class Key, class Keys, class Tree, class Queries, class Answers>
struct BtreeSearch {
  static constexpr const char* kName = "btree";
  enum Site : int { cache_load, cache_store, load_query, node_cached, node_global, leaf, leaf_check, store_answer };
  static constexpr const char* kSiteNames[8] = {"cache_load", "cache_store", "load_query", "node_cached",
                                               "node_global", "leaf", "leaf_check", "store_answer"};

  long K = 0;          ///< keys, a multiple of B, > B
  int B = 32;          ///< keys per node, a power of two >= 2
  int levels = 0;      ///< internal levels (btree_levels)
  int cached = 0;      ///< top levels held in shared memory, 0..levels
  int threads = 0;     ///< threads per block
  int per_thread = 1;  ///< queries per thread, one phase each after the cache fill
  long valid = 0;      ///< queries of this block
  long offset[kBtreeMaxLevels] = {};  ///< first entry of level l in `tree`; offset[levels] = tree size
  Keys keys;           ///< the K sorted keys (the leaf level)
  Tree tree;           ///< the internal nodes, root first
  Queries queries;
  Answers answers;

  BANKCHECK_HD int phases() const { return 1 + per_thread; }
  /// The cached levels' entries.
  BANKCHECK_HD long cached_entries() const { return offset[cached]; }
  BANKCHECK_HD long shared_bytes() const { return cached_entries() * static_cast<long>(sizeof(Key)); }

  /// Last j in [0, B) with node[j] <= q, by halving (log2 B probes); 0 when none.
  template <class Load>
  BANKCHECK_HD static long last_not_above(Key q, int B, const Load& at) {
    long base = 0, n = B;
    while (n > 1) {
      const long half = n / 2;
      if (!(q < at(base + half))) base += half;
      n -= half;
    }
    return base;
  }

  template <class Smem>
  BANKCHECK_HD long predecessor(Key q, Smem& smem) const {
    long node = 0;
    for (int l = 0; l < levels; ++l) {
      const long first = offset[l] + node * B;
      long c;
      if (l < cached)
        c = last_not_above(q, B, [&](long j) { return smem.template load<Key>(node_cached, first + j); });
      else
        c = last_not_above(q, B, [&](long j) { return tree.load(node_global, first + j); });
      node = node * B + c;
    }
    const long first = node * B;
    const long j = first + last_not_above(q, B, [&](long i) { return keys.load(leaf, first + i); });
    return keys.load(leaf_check, j) <= q ? j : j - 1;
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    if (k == 0) {
      for (long i = tid; i < cached_entries(); i += threads)
        smem.template store<Key>(cache_store, i, tree.load(cache_load, i));
      return;
    }
    const long i = static_cast<long>(k - 1) * threads + tid;
    if (i >= valid) return;
    answers.store(store_answer, i, predecessor(queries.load(load_query, i), smem));
  }
};

/// Internal levels of the static B-tree over K keys (pages of B): the
/// smallest L >= 1 with B^(L+1) >= K. @pre K > B >= 2.
inline int btree_levels(long K, int B) {
  int levels = 1;
  for (long span = static_cast<long>(B) * B; span < K; span *= B) ++levels;
  return levels;
}

/// The internal nodes of the static B-tree over `keys` (K sorted, K a
/// multiple of B, K > B): `tree` gets the levels root first, `offset[l]` the
/// first entry of level l (offset[levels] = tree.size()); separator c of node
/// n of level l is the first key of child n*B + c, i.e. K[(n*B + c) *
/// B^(levels-l)], or +inf past the last key. @return the level count.
template <class Key, class Vector>
int btree_build(const Key* keys, long K, int B, Vector& tree, long* offset) {
  const int levels = btree_levels(K, B);
  tree.clear();
  for (int l = 0; l < levels; ++l) {
    long span = 1;  // keys under one child of a level-l node: B^(levels-l)
    for (int i = l; i < levels; ++i) span *= B;
    const long nodes = (K + span * B - 1) / (span * B);
    offset[l] = static_cast<long>(tree.size());
    for (long n = 0; n < nodes; ++n)
      for (int c = 0; c < B; ++c) {
        const long first = (n * B + c) * span;  // the child's first key
        tree.push_back(first < K ? keys[first] : std::numeric_limits<Key>::max());
      }
  }
  offset[levels] = static_cast<long>(tree.size());
  return levels;
}


}  // namespace bankcheck
