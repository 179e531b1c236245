#include "sim/inputs/merge_sort_adversary.hpp"

#include "model/analytic.hpp"
#include "sim/trace/atomic_file.hpp"
#include "sim/inputs/grouped_merge_worst_case.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <stdexcept>
#include <string>

namespace bankcheck::inputs {

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

namespace {

/// The labeling of one tile for merges of two or more warps, and where it
/// comes from. The Section 4 tile labeling: warps alternate A-major and
/// B-major splits, so every pair of warps, and so every merge of >= 2 warps,
/// is balanced. Or, with WidePasses::warp_search: warp k of a merge of
/// m >= 2w threads has its A part at k wE/2 of A, its B part at k wE/2 of B,
/// and B starts m E/2 (a multiple of w) after A, so the warp's B part starts
/// in the bank of its A part: a gap of -wE/2 mod w after the A part. Every
/// warp takes wE/2 from each list, so any number of warps per merge stays
/// balanced, and a bank rotation maps warp k's problem onto warp 0's: one
/// labeling serves every warp.
std::vector<std::uint8_t> wide_tile_labeling(const MergeSortShape& shape, const SearchBudget& budget,
                                             MergeSortAdversary::WidePasses wide, std::string& source) {
  const unsigned w = shape.warp, E = shape.items, u = shape.threads;
  std::vector<std::uint8_t> tile;
  const Section4Parameters p = section4_parameters(w, E);  // checks (w, E) for either labeling
  if (wide != MergeSortAdversary::WidePasses::warp_search) {
    for (unsigned v = 0; v < u / w; ++v) {
      const auto labels = labels_from_splits(worst_warp_splits(p, v % 2 == 0), w);
      tile.insert(tile.end(), labels.begin(), labels.end());
    }
    source = "section-4";
    return tile;
  }
  const unsigned gap = (w - (w * E / 2) % w) % w;
  SearchBudget b = budget;
  b.seed = budget.seed + 2 * u;
  const GroupedWorstCase r = grouped_worst_case(GroupedMergeShape{w, E, w, gap}, b);
  for (unsigned v = 0; v < u / w; ++v) tile.insert(tile.end(), r.from_b.begin(), r.from_b.end());
  source = r.exact ? "warp search (exact)" : "warp search";
  return tile;
}

/// The in-block pass of merges of m threads.
MergePassPlan block_pass(const MergeSortShape& shape, const SearchBudget& budget, unsigned m,
                         const std::vector<std::uint8_t>& wide_tile, const std::string& wide_source) {
  const unsigned w = shape.warp, E = shape.items, u = shape.threads;
  MergePassPlan plan;
  plan.name = "block m=" + std::to_string(m);
  plan.merge_threads = m;
  plan.run = std::uint64_t{m} * E / 2;
  if (m >= 2 * w) {
    plan.source = wide_source;
    plan.from_b = wide_tile;
    return plan;
  }
  // Fewer than two warps per merge: no published construction. The
  // labeling is the grouped worst case (proofs/grouped_merge_worst_case):
  // exact inner optimization for each target bank sequence, the targets
  // searched (or enumerated when w^E is small).
  SearchBudget b = budget;
  b.seed = budget.seed + m;
  const GroupedWorstCase r = grouped_worst_case(GroupedMergeShape{w, E, m}, b);
  plan.source = r.exact ? "exact (all targets)" : "targeted search";
  for (unsigned v = 0; v < u / w; ++v) plan.from_b.insert(plan.from_b.end(), r.from_b.begin(), r.from_b.end());
  return plan;
}

/// Composes a pass into the tile permutation: a key at tile offset x before
/// the pass moves to the offset its group (of G keys) labeling gives it.
void compose_pass(const MergePassPlan& plan, std::size_t G, std::vector<std::uint32_t>& perm) {
  const std::size_t T = perm.size();
  std::vector<std::uint32_t> sel_a, sel_b, move(T);
  for (std::size_t base = 0; base < T; base += G) {
    std::vector<std::uint8_t> group(plan.from_b.begin() + base, plan.from_b.begin() + base + G);
    selections(group, G, sel_a, sel_b);
    if (sel_a.size() != G / 2) throw std::logic_error("unbalanced merge group in pass " + plan.name);
    for (std::size_t y = 0; y < G; ++y)
      move[base + y] = static_cast<std::uint32_t>(base + (y < G / 2 ? sel_a[y] : sel_b[y - G / 2]));
  }
  for (auto& f : perm) f = move[f];
}

}  // namespace

MergeSortAdversary::MergeSortAdversary(const MergeSortShape& shape, SearchBudget budget, WidePasses wide)
    : shape_(shape) {
  check_merge_sort_shape(shape_);
  const unsigned E = shape_.items, u = shape_.threads;
  const std::uint64_t T = shape_.tile();
  std::string wide_source;
  const std::vector<std::uint8_t> section4_tile = wide_tile_labeling(shape_, budget, wide, wide_source);
  // In-block passes.
  block_perm_.resize(T);
  for (std::uint32_t i = 0; i < T; ++i) block_perm_[i] = i;  // each thread's keys ascend in registers
  for (unsigned m = 2; m <= u; m *= 2) {
    MergePassPlan plan = block_pass(shape_, budget, m, section4_tile, wide_source);
    compose_pass(plan, std::size_t{m} * E, block_perm_);
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
    plan.source = wide_source;
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

namespace {

template <class Key>
PermutationFileWrite write_keys(const MergeSortAdversary& adv, const std::filesystem::path& path,
                                std::size_t chunk_bytes) {
  static_assert(std::endian::native == std::endian::little, "binary output is written in host order");
  const std::size_t T = adv.shape().tile();
  const std::size_t tiles_per_chunk = std::max<std::size_t>(1, chunk_bytes / (T * sizeof(Key)));
  const auto t0 = std::chrono::steady_clock::now();
  AtomicFile file(path);
  std::vector<Key> buffer(tiles_per_chunk * T);
  std::size_t filled = 0;
  auto flush = [&] {
    file.write(std::as_bytes(std::span<const Key>(buffer.data(), filled * T)));
    filled = 0;
  };
  adv.write_tiles<Key>([&](std::uint64_t) { return buffer.data() + filled * T; },
                       [&](std::uint64_t) {
                         if (++filled == tiles_per_chunk) flush();
                       });
  if (filled > 0) flush();
  const auto t1 = std::chrono::steady_clock::now();
  file.commit();
  const auto t2 = std::chrono::steady_clock::now();
  return {adv.shape().keys * sizeof(Key), std::chrono::duration<double>(t1 - t0).count(),
          std::chrono::duration<double>(t2 - t1).count()};
}

}  // namespace

PermutationFileWrite write_permutation_file(const MergeSortAdversary& adversary, const std::filesystem::path& path,
                                            unsigned key_bytes, std::size_t chunk_bytes) {
  if (key_bytes == 4) {
    if (adversary.shape().keys > (std::uint64_t{1} << 31))
      throw std::invalid_argument("n = " + std::to_string(adversary.shape().keys) +
                                  " keys do not fit 4-byte keys (at most 2^31); use 8-byte keys");
    return write_keys<std::int32_t>(adversary, path, chunk_bytes);
  }
  if (key_bytes == 8) return write_keys<std::int64_t>(adversary, path, chunk_bytes);
  throw std::invalid_argument("key bytes must be 4 or 8 (got " + std::to_string(key_bytes) + ")");
}

std::vector<MergePassCost> MergeSortAdversary::pass_costs() const {
  const unsigned w = shape_.warp, E = shape_.items;
  const std::size_t T = shape_.tile();
  const std::uint64_t tiles = shape_.keys / T;
  const BankModel model = make_preset("dmm", w);
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
    std::uint64_t paper = 0, cub = 0, refill = 0;
    auto cost = [&] { return model.cost(WarpRequest{Op::load, 4, addr}).wavefronts; };
    for (std::size_t warp0 = 0; warp0 < T / E; warp0 += w) {
      for (unsigned t = 0; t < w; ++t) addr[t] = first_a[warp0 + t] * 4;
      const std::uint64_t init_a = cost();
      for (unsigned t = 0; t < w; ++t) addr[t] = first_b[warp0 + t] * 4;
      const std::uint64_t init_b = cost();
      cub += init_a + init_b;
      refill += init_a + init_b;
      for (unsigned j = 0; j < E; ++j) {
        for (unsigned t = 0; t < w; ++t) addr[t] = pos[(warp0 + t) * E + j] * 4;
        paper += cost();
        for (unsigned t = 0; t < w; ++t) addr[t] = (pos[(warp0 + t) * E + j] + 1) * 4;
        const std::uint64_t next = cost();
        cub += next;
        if (j + 1 < E) refill += next;
      }
    }
    c.paper_wavefronts = paper * tiles;
    c.cub_wavefronts = cub * tiles;
    c.serial_merge_wavefronts = refill * tiles;
    // Theorem 8 for the wide passes (a warp search may exceed it: ratio > 1), E^2 for the grouped ones.
    const bool wide = plan.global || plan.merge_threads >= 2 * w;
    c.bound = c.warps * (wide ? static_cast<std::uint64_t>(analytic::merge_worst_conflicts_per_warp(w, E))
                               : std::uint64_t{E} * E);
    out.push_back(c);
  }
  return out;
}

}  // namespace bankcheck::inputs
