// Registry entries css and css-padded (sim/algorithms/sigmod/css_tree.hpp):
// SIGMOD 2008's CSS-tree search, one query per thread, checked against
// std::lower_bound.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/sigmod/css_tree.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

/// The search a registry entry's parameters describe (without its arrays).
CssTreeSearch<int> css_of(const Params& p, bool pad) {
  CssTreeSearch<int> c;
  c.keys_per_node = u32(p, "m");
  c.levels = u32(p, "levels");
  c.pad = pad;
  c.threads = u32(p, "u");
  return c;
}

/// One query per thread: from the file, the worst case, or random in [0, 2K + 2).
std::vector<int> css_queries(const InputChoice& in, const std::vector<int>& sorted, unsigned m, unsigned threads) {
  std::vector<int> q(threads);
  if (in.kind == InputChoice::Kind::file) {
    const auto v = input_integers(in);
    require(v.size() == q.size(), in.path + ": css needs u = " + num(q.size()) + " queries");
    for (std::size_t i = 0; i < q.size(); ++i) {
      require(v[i] >= INT32_MIN && v[i] <= INT32_MAX, in.path + ": queries must fit 32 bits");
      q[i] = static_cast<int>(v[i]);
    }
  } else if (in.kind == InputChoice::Kind::worst) {
    // Lane t descends into child (t mod (m+1)) of the root: distinct level-1 nodes whose
    // key i all sit in bank i when m = w.
    std::size_t child_keys = sorted.size() / (m + 1);  // keys under one root child
    for (unsigned t = 0; t < threads; ++t) q[t] = sorted[(t % (m + 1)) * (child_keys + 1)];
  } else {
    inputs::Random rng(in.seed);
    for (auto& v : q) v = static_cast<int>(rng.below(2 * sorted.size() + 2));
  }
  return q;
}

AlgorithmOutcome drive_css(const Params& p, const InputChoice& in, InstructionListener& out, bool pad) {
  CssTreeSearch<int> c = css_of(p, pad);
  const unsigned w = u32(p, "w"), m = c.keys_per_node;
  std::vector<int> sorted(c.keys());
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<int>(2 * i + 1);
  const auto tree = build_css_tree(sorted, m, c.levels);
  std::vector<int> q = css_queries(in, sorted, m, c.threads);
  std::vector<std::uint32_t> rank(c.threads, 0);
  c.tree = tree.data();
  c.queries = q.data();
  c.rank = rank.data();
  record_block(c, w, out);
  AlgorithmOutcome o;
  o.output_checked = true;
  o.check = "rank == std::lower_bound(keys, q) - keys";
  o.output_ok = true;
  for (unsigned t = 0; t < c.threads; ++t)
    o.output_ok &= rank[t] == static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), q[t]) -
                                                        sorted.begin());
  o.blocks = 1;
  o.items = c.threads;
  return o;
}

AlgorithmSpec css_spec(std::string name, bool pad) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = "lane t descends into root child t mod (m+1) (m-way probes when m = w, unpadded)";
  s.description = pad ? "CSS-tree search, nodes of m keys padded to m+1 slots"
                      : "CSS-tree search (SIGMOD 2008 INLJ), nodes of m keys packed level by level";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"m", 32, "keys per node, 1..256"},
              {"levels", 2, "tree levels, 1..8 (the tree holds (m+1)^levels - 1 keys)"},
              {"u", 32, "threads = queries per block, 1..1024"}};
  s.validate = [pad](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "m", 1, 256);
    require_range(p, "levels", 1, 8);
    require_range(p, "u", 1, 1024);
    css_of(p, pad).validate();
  };
  s.drive = [pad](const Params& p, const InputChoice& in, InstructionListener& out) {
    return drive_css(p, in, out, pad);
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> css_specs() {
  return {css_spec("css", false), css_spec("css-padded", true)};
}

}  // namespace bankcheck
