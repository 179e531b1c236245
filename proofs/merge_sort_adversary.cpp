#include "proofs/merge_sort_adversary.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace bankcheck::proofs {

namespace {

std::uint64_t nearest_power_of_two(std::uint64_t v) {
  if (v <= 1) return 1;
  const std::uint64_t down = std::bit_floor(v), up = down * 2;
  return v - down <= up - v ? down : up;
}

/// Tile offset of the g-th output from A (list 0) and from B (list 1) of each
/// merge group of `group` outputs.
void selections(const std::vector<std::uint8_t>& from_b, std::size_t group, std::vector<std::uint32_t>& sel_a,
                std::vector<std::uint32_t>& sel_b) {
  sel_a.clear();
  sel_b.clear();
  for (std::size_t k = 0; k < from_b.size(); ++k) (from_b[k] ? sel_b : sel_a).push_back(static_cast<std::uint32_t>(k));
  (void)group;
}

}  // namespace

void check_merge_sort_shape(const MergeSortShape& s) {
  section4_parameters(s.warp, s.items);  // 1 < E <= w
  if (!std::has_single_bit(s.warp))
    throw std::invalid_argument("the merge-sort construction needs a power-of-two warp w (u is a power of two "
                                "multiple of w); got w = " + std::to_string(s.warp) + "; nearest valid value: " +
                                std::to_string(nearest_power_of_two(s.warp)));
  if (s.threads < 2 * s.warp || !std::has_single_bit(s.threads) || s.threads % s.warp != 0) {
    const std::uint64_t nearest = std::max<std::uint64_t>(nearest_power_of_two(s.threads), 2 * std::uint64_t{s.warp});
    throw std::invalid_argument("threads per block u must be a power of two and at least 2w = " +
                                std::to_string(2 * s.warp) + " (whole warp pairs per tile); got u = " +
                                std::to_string(s.threads) + "; nearest valid value: " + std::to_string(nearest));
  }
  const std::uint64_t tile = s.tile();
  if (s.keys < tile || s.keys % tile != 0 || !std::has_single_bit(s.keys / tile)) {
    const std::uint64_t down = std::bit_floor(std::max<std::uint64_t>(s.keys / tile, 1)) * tile, up = 2 * down;
    const std::uint64_t nearest = s.keys <= down || s.keys - down <= up - s.keys ? down : up;
    throw std::invalid_argument("n must be the tile u*E = " + std::to_string(tile) +
                                " times a power of two (every pass merges two equal runs); got n = " +
                                std::to_string(s.keys) + "; nearest valid value: " + std::to_string(nearest));
  }
  if (s.keys / tile > (std::uint64_t{1} << 40))
    throw std::invalid_argument("n is too large: at most 2^40 tiles");
}

MergeSortAdversary::MergeSortAdversary(const MergeSortShape& shape, SearchBudget budget) : shape_(shape) {
  check_merge_sort_shape(shape_);
  const unsigned w = shape_.warp, E = shape_.items, u = shape_.threads;
  const std::uint64_t T = shape_.tile();
  const Section4Parameters p = section4_parameters(w, E);
  // The Section 4 tile labeling: warps alternate A-major and B-major splits,
  // so every pair of warps, and so every merge of >= 2 warps, is balanced.
  std::vector<std::uint8_t> section4_tile;
  for (unsigned v = 0; v < u / w; ++v) {
    const auto labels = labels_from_splits(worst_warp_splits(p, v % 2 == 0), w);
    section4_tile.insert(section4_tile.end(), labels.begin(), labels.end());
  }
  // In-block passes.
  block_perm_.resize(T);
  for (std::uint32_t i = 0; i < T; ++i) block_perm_[i] = i;  // each thread's keys ascend in registers
  for (unsigned m = 2; m <= u; m *= 2) {
    MergePassPlan plan;
    plan.name = "block m=" + std::to_string(m);
    plan.merge_threads = m;
    plan.run = std::uint64_t{m} * E / 2;
    const std::size_t G = std::size_t{m} * E;
    if (m >= 2 * w) {
      plan.source = "section-4";
      plan.from_b = section4_tile;
    } else {
      const GroupedLabels shape{w, E, static_cast<unsigned>(G)};
      auto cost = [&](const std::vector<std::uint8_t>& l) { return grouped_paper_cost(shape, l); };
      SearchBudget b = budget;
      b.seed = budget.seed + m;
      // Per-thread splits first (where Section 4's answers live), then single-label polish.
      // The split landscape has deep local optima: restarts with new seeds beat one long run.
      LabelSearchResult coarse;
      SearchBudget restart = b;
      restart.seconds = b.seconds / 8;
      for (unsigned k = 0; k < 8; ++k) {
        restart.seed = b.seed * 1000 + k;
        LabelSearchResult one = search_splits(shape, restart);
        if (coarse.from_b.empty() || one.cost > coarse.cost) coarse = std::move(one);
      }
      LabelSearchResult r = search_labels(w * E, static_cast<unsigned>(G), cost, coarse.from_b, b);
      if (coarse.cost > r.cost) r = coarse;
      plan.source = r.exhaustive ? "search (exhaustive)" : "search (annealing)";
      for (unsigned v = 0; v < u / w; ++v) plan.from_b.insert(plan.from_b.end(), r.from_b.begin(), r.from_b.end());
    }
    // Compose: a key at tile offset x before the pass moves to the offset its group's labeling gives it.
    std::vector<std::uint32_t> sel_a, sel_b, move(T);
    for (std::size_t base = 0; base < T; base += G) {
      std::vector<std::uint8_t> group(plan.from_b.begin() + base, plan.from_b.begin() + base + G);
      selections(group, G, sel_a, sel_b);
      if (sel_a.size() != G / 2) throw std::logic_error("unbalanced merge group in pass " + plan.name);
      for (std::size_t y = 0; y < G; ++y)
        move[base + y] = static_cast<std::uint32_t>(base + (y < G / 2 ? sel_a[y] : sel_b[y - G / 2]));
    }
    for (auto& f : block_perm_) f = move[f];
    passes_.push_back(std::move(plan));
  }
  // Global passes: the tile is the merge group, its A half from run A.
  global_passes_ = static_cast<unsigned>(std::countr_zero(shape_.keys / T));
  selections(section4_tile, T, sel_[0], sel_[1]);
  if (sel_[0].size() != T / 2) throw std::logic_error("unbalanced tile labeling");
  for (unsigned k = 0; k < global_passes_; ++k) {
    MergePassPlan plan;
    plan.global = true;
    plan.merge_threads = u;
    plan.run = T << k;
    plan.name = "global runs=" + std::to_string(std::uint64_t{1} << k) + " tile(s)";
    plan.source = "section-4";
    plan.from_b = section4_tile;
    passes_.push_back(std::move(plan));
  }
}

void MergeSortAdversary::generate(std::span<std::int32_t> out) const {
  if (out.size() != shape_.keys) throw std::invalid_argument("output span must hold n keys");
  if (shape_.keys > (std::uint64_t{1} << 31)) throw std::invalid_argument("n > 2^31 keys: use 8-byte keys");
  const std::size_t T = shape_.tile();
  write_tiles<std::int32_t>([&](std::uint64_t tile) { return out.data() + tile * T; }, [](std::uint64_t) {});
}

void MergeSortAdversary::generate(std::span<std::int64_t> out) const {
  if (out.size() != shape_.keys) throw std::invalid_argument("output span must hold n keys");
  const std::size_t T = shape_.tile();
  write_tiles<std::int64_t>([&](std::uint64_t tile) { return out.data() + tile * T; }, [](std::uint64_t) {});
}

std::vector<MergePassCost> MergeSortAdversary::pass_costs() const {
  const unsigned w = shape_.warp, E = shape_.items;
  const std::size_t T = shape_.tile();
  const std::uint64_t tiles = shape_.keys / T;
  const BankModel model = make_preset("dmm", w);
  const Section4Parameters p = section4_parameters(w, E);
  std::vector<MergePassCost> out;
  for (const MergePassPlan& plan : passes_) {
    const std::size_t G = plan.global ? T : std::size_t{plan.merge_threads} * E;
    // Shared-memory element of every merged output: A at the group's start, B at start + G/2.
    std::vector<std::uint64_t> pos(T), first_a(T / E), first_b(T / E);
    for (std::size_t base = 0; base < T; base += G) {
      std::uint64_t a = base, b = base + G / 2;
      for (std::size_t k = base; k < base + G; ++k) {
        if (k % E == 0) {
          first_a[k / E] = a;
          first_b[k / E] = b;
        }
        pos[k] = plan.from_b[k] ? b++ : a++;
      }
    }
    MergePassCost c;
    c.warps = tiles * (T / (std::size_t{w} * E));
    std::vector<std::uint64_t> addr(w);
    std::uint64_t paper = 0, cub = 0;
    auto cost = [&] { return model.cost(WarpRequest{Op::load, 4, addr}).wavefronts; };
    for (std::size_t warp0 = 0; warp0 < T / E; warp0 += w) {
      for (unsigned t = 0; t < w; ++t) addr[t] = first_a[warp0 + t] * 4;
      cub += cost();
      for (unsigned t = 0; t < w; ++t) addr[t] = first_b[warp0 + t] * 4;
      cub += cost();
      for (unsigned j = 0; j < E; ++j) {
        for (unsigned t = 0; t < w; ++t) addr[t] = pos[(warp0 + t) * E + j] * 4;
        paper += cost();
        for (unsigned t = 0; t < w; ++t) addr[t] = (pos[(warp0 + t) * E + j] + 1) * 4;
        cub += cost();
      }
    }
    c.paper_wavefronts = paper * tiles;
    c.cub_wavefronts = cub * tiles;
    c.bound = c.warps * (plan.source == "section-4" ? theorem8_count(p) : std::uint64_t{E} * E);
    out.push_back(c);
  }
  return out;
}

}  // namespace bankcheck::proofs
