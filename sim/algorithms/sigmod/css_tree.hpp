#pragma once
// CSS-tree node search in shared memory (SIGMOD 2008 Sec. 2/4: the INLJ
// keeps a CSS-tree's top levels in local memory; Rao & Ross' CSS-tree packs
// m keys per node and lays nodes out level by level, children found by
// arithmetic, no pointers). Here the whole tree is a complete (m+1)-ary
// search tree of D levels, nodes stored contiguously level by level:
// node n holds keys at n * pitch + 0..m-1, its children are
// n*(m+1)+1 .. n*(m+1)+m+1. Each thread searches one query, scanning all m
// keys of each node on its path (no divergence) and accumulating its rank
// (number of keys < query).
//
// Banks: lanes in different nodes reading key i touch n*pitch + i; with
// pitch = m = w every lane hits bank i, so a level whose lanes sit in x
// distinct nodes is x-way. pitch = m + 1 (one pad key per node) staggers them.
//
// Phases: 0 copy the tree from global memory (coalesced, strided by the
// block); 1 search.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp

namespace bankcheck {

template <class T = int>
struct CssTreeSearch {
  static constexpr const char* kName = "css";
  enum Site : int { kCopy, kProbe };
  static constexpr const char* kSiteNames[2] = {"copy", "probe"};
  static constexpr int kPhases = 2;

  unsigned keys_per_node = 8;  ///< m
  unsigned levels = 2;         ///< D
  bool pad = false;            ///< pitch m+1 instead of m
  unsigned threads = 32;
  const T* tree = nullptr;     ///< nodes() * m keys, node-major (see build_css_tree)
  const T* queries = nullptr;  ///< threads queries
  std::uint32_t* rank = nullptr;  ///< rank[t] = #keys < queries[t]

  void validate() const {
    if (keys_per_node == 0 || keys_per_node > 256)
      throw std::invalid_argument("css: keys per node must be in [1, 256] (got " + std::to_string(keys_per_node) +
                                  ")");
    if (levels == 0 || levels > 8)
      throw std::invalid_argument("css: levels must be in [1, 8] (got " + std::to_string(levels) + ")");
    if (threads == 0 || threads > 1024)
      throw std::invalid_argument("css: threads must be in [1, 1024] (got " + std::to_string(threads) + ")");
    if (shared_bytes() > (std::size_t{1} << 24))
      throw std::invalid_argument("css: the tree needs " + std::to_string(shared_bytes()) +
                                  " bytes of shared memory (at most 16 MiB); use fewer levels or keys per node");
  }
  BANKCHECK_HD std::size_t nodes() const {
    std::size_t total = 0, level = 1;
    for (unsigned d = 0; d < levels; ++d, level *= keys_per_node + 1) total += level;
    return total;
  }
  BANKCHECK_HD std::size_t keys() const { return nodes() * keys_per_node; }
  BANKCHECK_HD std::size_t pitch() const { return keys_per_node + (pad ? 1 : 0); }
  BANKCHECK_HD std::size_t shared_bytes() const { return nodes() * pitch() * sizeof(T); }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const std::size_t m = keys_per_node;
    if (k == 0) {
      for (std::size_t i = static_cast<std::size_t>(tid); i < keys(); i += threads)
        smem.template store<T>(kCopy, (i / m) * pitch() + i % m, tree[i]);
      return;
    }
    const T q = queries[tid];
    std::size_t node = 0;
    std::uint64_t r = 0;
    std::uint64_t subtree = 1;  // keys under one child of a node at the current level, plus one
    for (unsigned d = 1; d < levels; ++d) subtree *= m + 1;
    for (unsigned d = 0; d < levels; ++d) {
      std::size_t slot = 0;
      for (std::size_t i = 0; i < m; ++i)
        if (smem.template load<T>(kProbe, node * pitch() + i) < q) ++slot;
      r += slot * subtree;  // slot keys of this node and slot full subtrees of (subtree - 1) keys
      node = node * (m + 1) + slot + 1;
      subtree /= m + 1;
    }
    rank[tid] = static_cast<std::uint32_t>(r);
  }
};

/// Lay out sorted keys (size (m+1)^D - 1) as the tree CssTreeSearch reads:
/// an in-order fill of the complete (m+1)-ary tree, node-major.
template <class T>
std::vector<T> build_css_tree(const std::vector<T>& sorted, unsigned m, unsigned levels) {
  std::size_t nodes = 0, level = 1;
  for (unsigned d = 0; d < levels; ++d, level *= m + 1) nodes += level;
  if (sorted.size() != nodes * m)
    throw std::invalid_argument("css: a tree of " + std::to_string(levels) + " levels of " + std::to_string(m) +
                                "-key nodes holds " + std::to_string(nodes * m) + " keys (got " +
                                std::to_string(sorted.size()) + ")");
  std::vector<T> tree(sorted.size());
  std::size_t next = 0;
  // In-order: child 0, key 0, child 1, key 1, ..., key m-1, child m.
  auto fill = [&](auto&& self, std::size_t node, std::size_t depth) -> void {
    for (std::size_t i = 0; i <= m; ++i) {
      if (depth + 1 < levels) self(self, node * (m + 1) + i + 1, depth + 1);
      if (i < m) tree[node * m + i] = sorted[next++];
    }
  };
  fill(fill, 0, 0);
  return tree;
}

static_assert(BlockAlgorithm<CssTreeSearch<int>>);

}  // namespace bankcheck
