#include "sim/inputs/grouped_merge_worst_case.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "sim/inputs/random.hpp"

namespace bankcheck::inputs {

void check_grouped_merge_shape(const GroupedMergeShape& s) {
  if (s.warp < 1 || s.warp > 1024)
    throw std::invalid_argument("warp size w must be in 1..1024 (got " + std::to_string(s.warp) + ")");
  if (s.items < 1 || s.items > s.warp)
    throw std::invalid_argument("items per thread E must be in 1..w = " + std::to_string(s.warp) + " (got " +
                                std::to_string(s.items) + ")");
  if (s.merge_threads < 1 || s.warp % s.merge_threads != 0)
    throw std::invalid_argument("threads per merge m must divide w = " + std::to_string(s.warp) + " (got " +
                                std::to_string(s.merge_threads) + ")");
  if (s.b_offset != 0 && s.merge_threads != s.warp)
    throw std::invalid_argument("a gap between A and B (b_offset = " + std::to_string(s.b_offset) +
                                ") needs one merge group per warp, m = w = " + std::to_string(s.warp));
  if (s.group() % 2 != 0)
    throw std::invalid_argument("m E must be even (two equal runs per merge); got m = " +
                                std::to_string(s.merge_threads) + ", E = " + std::to_string(s.items));
}

namespace {

/// The exact inner problem for one target sequence.
class TargetSolver {
 public:
  TargetSolver(const GroupedMergeShape& shape, std::span<const unsigned> targets)
      : w_(shape.warp), E_(shape.items), m_(shape.merge_threads), H_(shape.group() / 2), gap_(shape.b_offset),
        targets_(targets.begin(), targets.end()) {
    if (targets_.size() != E_) throw std::invalid_argument("need one target bank per step (E of them)");
    for (unsigned t : targets_)
      if (t >= w_) throw std::invalid_argument("target banks must be < w");
    build_thread_table();
  }

  /// Best hits of group with base bank beta, and each thread's A count (filled when `splits`).
  std::uint64_t group(unsigned beta, std::vector<unsigned>* splits) const {
    const unsigned W = H_ + 1;
    constexpr int kNone = -1;
    std::vector<int> best(std::size_t{m_ + 1} * W, kNone);
    std::vector<std::uint16_t> arg(std::size_t{m_ + 1} * W, 0);
    best[0] = 0;
    for (unsigned i = 0; i < m_; ++i)
      for (unsigned ca = 0; ca <= H_; ++ca) {
        const int here = best[std::size_t{i} * W + ca];
        if (here == kNone) continue;
        const unsigned cb = i * E_ - ca;  // B items taken by threads before i
        const unsigned sa = (beta + ca) % w_, sb = (beta + H_ + gap_ + cb) % w_;
        const std::uint16_t* v = thread_values(sa, sb);
        for (unsigned a = 0; a <= E_; ++a) {
          if (ca + a > H_ || cb + (E_ - a) > H_) continue;
          int& slot = best[std::size_t{i + 1} * W + ca + a];
          const int cand = here + v[a];
          if (cand > slot) {
            slot = cand;
            arg[std::size_t{i + 1} * W + ca + a] = static_cast<std::uint16_t>(a);
          }
        }
      }
    const int total = best[std::size_t{m_} * W + H_];
    if (total < 0) throw std::logic_error("grouped merge: no balanced split");
    if (splits) {
      splits->assign(m_, 0);
      for (unsigned i = m_, ca = H_; i > 0; --i) {
        const unsigned a = arg[std::size_t{i} * W + ca];
        (*splits)[i - 1] = a;
        ca -= a;
      }
    }
    return static_cast<std::uint64_t>(total);
  }

  /// Order (0 = A, 1 = B per step) of one thread's best path.
  std::vector<std::uint8_t> thread_order(unsigned sa, unsigned sb, unsigned a) const {
    std::vector<int> f;
    lattice(sa, sb, f);
    std::vector<std::uint8_t> order(E_);
    unsigned i = a, k = E_ - a;
    const unsigned S = E_ + 1;
    while (i + k > 0) {
      const unsigned j = i + k - 1;
      const int via_a = i > 0 ? f[(i - 1) * S + k] + ((sa + i - 1) % w_ == targets_[j]) : -1;
      const int via_b = k > 0 ? f[i * S + k - 1] + ((sb + k - 1) % w_ == targets_[j]) : -1;
      if (via_a >= via_b && i > 0) {
        order[j] = 0;
        --i;
      } else {
        order[j] = 1;
        --k;
      }
    }
    return order;
  }

 private:
  // f[i*(E+1)+k]: most hits after i A-reads and k B-reads (step i+k-1 was
  // the last). The (i+1)-th A item is in bank sa + i, so it hits target t_j
  // iff sa == (t_j - i) mod w: shift_[j*(E+1)+i] holds (t_j - i) mod w.
  void lattice(unsigned sa, unsigned sb, std::vector<int>& f) const {
    const unsigned S = E_ + 1;
    f.assign(std::size_t{S} * S, -1);
    f[0] = 0;
    for (unsigned s = 1; s <= E_; ++s) {
      const unsigned* shift = &shift_[std::size_t{s - 1} * S];
      for (unsigned i = 0; i <= s; ++i) {
        const unsigned k = s - i;
        int v = -1;
        if (i > 0) v = f[(i - 1) * S + k] + (shift[i - 1] == sa);
        if (k > 0) v = std::max(v, f[i * S + k - 1] + static_cast<int>(shift[k - 1] == sb));
        f[i * S + k] = v;
      }
    }
  }

  void build_thread_table() {
    const unsigned S = E_ + 1;
    shift_.assign(std::size_t{E_} * S, 0);
    for (unsigned j = 0; j < E_; ++j)
      for (unsigned i = 0; i <= E_; ++i) shift_[std::size_t{j} * S + i] = (targets_[j] + w_ * S - i) % w_;
    table_.assign(std::size_t{w_} * w_ * S, 0);
    filled_.assign(std::size_t{w_} * w_, 0);
  }

  /// Best hits of a thread whose A starts in bank sa and B in bank sb, for a = 0..E A-items
  /// (computed on first use: small merges visit few (sa, sb) pairs).
  const std::uint16_t* thread_values(unsigned sa, unsigned sb) const {
    const unsigned S = E_ + 1;
    std::uint16_t* v = &table_[(std::size_t{sa} * w_ + sb) * S];
    if (!filled_[std::size_t{sa} * w_ + sb]) {
      lattice(sa, sb, scratch_);
      for (unsigned a = 0; a <= E_; ++a) v[a] = static_cast<std::uint16_t>(scratch_[a * S + E_ - a]);
      filled_[std::size_t{sa} * w_ + sb] = 1;
    }
    return v;
  }

  unsigned w_, E_, m_, H_, gap_;
  std::vector<unsigned> targets_;
  std::vector<unsigned> shift_;
  mutable std::vector<std::uint16_t> table_;  // [sa][sb][a]
  mutable std::vector<std::uint8_t> filled_;  // [sa][sb]
  mutable std::vector<int> scratch_;  // [sa][sb][a]: best hits of one thread (<= E <= 1024)
};

/// Hits of the best labeling for the targets, without building it.
std::uint64_t targeted_hits(const GroupedMergeShape& shape, std::span<const unsigned> targets) {
  const TargetSolver solver(shape, targets);
  const unsigned w = shape.warp, G = shape.group();
  std::vector<std::int64_t> by_base(w, -1);
  std::uint64_t total = 0;
  for (unsigned g = 0; g < w / shape.merge_threads; ++g) {
    const unsigned beta = static_cast<unsigned>((std::uint64_t{g} * G) % w);
    if (by_base[beta] < 0) by_base[beta] = static_cast<std::int64_t>(solver.group(beta, nullptr));
    total += static_cast<std::uint64_t>(by_base[beta]);
  }
  return total;
}

/// Paper-step cost (the counting in the header) and the fullest bank of each step.
std::uint64_t cost_and_banks(const GroupedMergeShape& shape, const std::vector<std::uint8_t>& from_b,
                             std::vector<unsigned>& banks) {
  const unsigned w = shape.warp, E = shape.items, G = shape.group();
  std::vector<std::uint64_t> pos(from_b.size());
  for (std::size_t base = 0; base < from_b.size(); base += G) {
    std::uint64_t a = base, b = base + G / 2 + shape.b_offset;
    for (std::size_t k = base; k < base + G; ++k) pos[k] = from_b[k] ? b++ : a++;
  }
  banks.assign(E, 0);
  std::uint64_t total = 0;
  std::vector<unsigned> count(w);
  for (unsigned j = 0; j < E; ++j) {
    std::fill(count.begin(), count.end(), 0u);
    for (unsigned t = 0; t < w; ++t) ++count[pos[std::size_t{t} * E + j] % w];
    const auto it = std::max_element(count.begin(), count.end());
    banks[j] = static_cast<unsigned>(it - count.begin());
    total += *it;
  }
  return total;
}

}  // namespace

TargetedLabeling best_labeling_for_targets(const GroupedMergeShape& shape, std::span<const unsigned> targets) {
  check_grouped_merge_shape(shape);
  const TargetSolver solver(shape, targets);
  const unsigned w = shape.warp, E = shape.items, m = shape.merge_threads, G = shape.group(), H = G / 2;
  TargetedLabeling out;
  out.from_b.resize(std::size_t{w} * E);
  std::vector<unsigned> splits;
  for (unsigned g = 0; g < w / m; ++g) {
    const unsigned beta = static_cast<unsigned>((std::uint64_t{g} * G) % w);
    out.hits += solver.group(beta, &splits);
    unsigned ca = 0;
    for (unsigned i = 0; i < m; ++i) {
      const unsigned cb = i * E - ca;
      const auto order = solver.thread_order((beta + ca) % w, (beta + H + shape.b_offset + cb) % w, splits[i]);
      std::copy(order.begin(), order.end(), out.from_b.begin() + (std::size_t{g} * m + i) * E);
      ca += splits[i];
    }
  }
  return out;
}

namespace {

/// The search of grouped_worst_case: the best labeling found so far, and the
/// targets it tries (exhaustively, or by local ascent within a budget).
class GroupedSearch {
 public:
  GroupedSearch(const GroupedMergeShape& shape, const SearchBudget& budget) : shape_(shape), budget_(budget) {}

  /// Every target sequence, when w^E of them fit the limit.
  GroupedWorstCase exhaustive() {
    const unsigned w = shape_.warp, E = shape_.items;
    std::vector<unsigned> t(E, 0);
    best_.exact = true;
    while (true) {
      const std::uint64_t hits = targeted_hits(shape_, t);
      ++best_.targets_tried;
      consider(t, hits);
      unsigned j = 0;
      while (j < E && ++t[j] == w) t[j++] = 0;
      if (j == E) break;
    }
    return std::move(best_);
  }

  /// Structured starts first: consecutive banks b_j = s + j (Section 4 aligns
  /// its scans this way), then random target sequences, until the budget ends.
  GroupedWorstCase search() {
    const unsigned w = shape_.warp, E = shape_.items;
    std::vector<unsigned> t(E, 0);
    for (unsigned s = 0; s < w && !out_of_budget(); ++s) {
      for (unsigned j = 0; j < E; ++j) t[j] = (s + j) % w;
      ascend(t);
    }
    Random rng(budget_.seed);  // drawn through the standard distributions: the committed searched inputs used libstdc++'s
    std::uniform_int_distribution<unsigned> bank(0, w - 1);
    while (!out_of_budget()) {
      for (unsigned j = 0; j < E; ++j) t[j] = bank(rng);
      ascend(t);
    }
    return std::move(best_);
  }

 private:
  bool out_of_budget() const {
    return best_.targets_tried >= budget_.max_iterations ||
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > budget_.seconds;
  }

  /// Keeps the labeling of `targets` if it costs more than the best so far.
  void consider(const std::vector<unsigned>& targets, std::uint64_t hits) {
    if (!best_.from_b.empty() && hits <= best_.cost) return;
    TargetedLabeling l = best_labeling_for_targets(shape_, targets);
    const std::uint64_t cost = cost_and_banks(shape_, l.from_b, banks_);
    if (best_.from_b.empty() || cost > best_.cost) {
      best_.cost = cost;
      best_.from_b = std::move(l.from_b);
      best_.targets = targets;
    }
  }

  /// Moves to `cand` when it hits more than the current sequence.
  bool try_move(const std::vector<unsigned>& cand) {
    const std::uint64_t h = targeted_hits(shape_, cand);
    ++best_.targets_tried;
    if (h <= cur_hits_) return false;
    cur_ = cand;
    cur_hits_ = h;
    return true;
  }

  /// Local ascent from a start. Moves: retarget one step j to any bank, or
  /// shift every target from step p on by the same amount (the best sequences
  /// found are runs of consecutive banks with a jump: b_j = s + j, then
  /// s' + j). After each sweep the labeling's own fullest banks are tried as
  /// targets (they score at least as much).
  void ascend(const std::vector<unsigned>& start) {
    const unsigned w = shape_.warp, E = shape_.items;
    cur_ = start;
    cur_hits_ = targeted_hits(shape_, cur_);
    ++best_.targets_tried;
    consider(cur_, cur_hits_);
    std::vector<unsigned> next;
    for (bool improved = true; improved && !out_of_budget();) {
      improved = false;
      for (unsigned j = 0; j < E && !out_of_budget(); ++j)
        for (unsigned d = 1; d < w; ++d) {
          next = cur_;
          next[j] = (next[j] + d) % w;
          improved |= try_move(next);
          next = cur_;
          for (unsigned k = j; k < E; ++k) next[k] = (next[k] + d) % w;
          improved |= try_move(next);
        }
      consider(cur_, cur_hits_);
      const TargetedLabeling l = best_labeling_for_targets(shape_, cur_);
      cost_and_banks(shape_, l.from_b, banks_);
      if (try_move(banks_)) {
        improved = true;
        consider(cur_, cur_hits_);
      }
    }
  }

  const GroupedMergeShape& shape_;
  const SearchBudget& budget_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  GroupedWorstCase best_;
  std::vector<unsigned> banks_, cur_;
  std::uint64_t cur_hits_ = 0;
};

}  // namespace

GroupedWorstCase grouped_worst_case(const GroupedMergeShape& shape, const SearchBudget& budget,
                                    std::uint64_t exhaustive_limit) {
  check_grouped_merge_shape(shape);
  GroupedSearch search(shape, budget);
  if (std::pow(static_cast<double>(shape.warp), shape.items) <= static_cast<double>(exhaustive_limit))
    return search.exhaustive();
  return search.search();
}

}  // namespace bankcheck::inputs
