#include "sim/inputs/adversary_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "sim/inputs/random.hpp"

namespace bankcheck::inputs {

std::uint64_t grouped_paper_cost(const GroupedLabels& shape, const std::vector<std::uint8_t>& from_b) {
  const unsigned w = shape.warp, E = shape.items, G = shape.group;
  if (from_b.size() != std::size_t{w} * E || G == 0 || G % 2 != 0 || from_b.size() % G != 0)
    throw std::invalid_argument("grouped labeling: need warp*items labels and an even group dividing them");
  std::vector<std::uint64_t> pos(from_b.size());
  for (std::size_t base = 0; base < from_b.size(); base += G) {
    std::uint64_t a = base, b = base + G / 2;
    for (std::size_t k = base; k < base + G; ++k) pos[k] = from_b[k] ? b++ : a++;
  }
  std::uint64_t total = 0;
  std::vector<unsigned> count(w);
  for (unsigned j = 0; j < E; ++j) {
    std::fill(count.begin(), count.end(), 0u);
    unsigned worst = 0;
    for (unsigned t = 0; t < w; ++t) worst = std::max(worst, ++count[pos[std::size_t{t} * E + j] % w]);
    total += worst;  // positions read in one step are distinct: count = distinct cells
  }
  return total;
}

namespace {

bool out_of_time(std::chrono::steady_clock::time_point start, const SearchBudget& budget, std::uint64_t it) {
  if (it >= budget.max_iterations) return true;
  if ((it & 255) != 0) return false;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > budget.seconds;
}

double binomial(unsigned n, unsigned k) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
}

}  // namespace

LabelSearchResult search_labels(unsigned length, unsigned group,
                                const std::function<std::uint64_t(const std::vector<std::uint8_t>&)>& cost,
                                const std::vector<std::uint8_t>& start, const SearchBudget& budget,
                                std::uint64_t exhaustive_limit) {
  if (group == 0 || group % 2 != 0 || length % group != 0)
    throw std::invalid_argument("label search: group must be even and divide the length " + std::to_string(length));
  const unsigned groups = length / group;
  LabelSearchResult best;
  const double space = std::pow(binomial(group, group / 2), groups);
  if (space <= static_cast<double>(exhaustive_limit)) {
    // Odometer over each group's balanced labelings (std::next_permutation of a sorted 0..01..1).
    std::vector<std::uint8_t> one(group, 0);
    std::fill(one.begin() + group / 2, one.end(), 1);
    std::vector<std::vector<std::uint8_t>> digits(groups, one);
    std::vector<std::uint8_t> labels(length);
    best.exhaustive = true;
    while (true) {
      for (unsigned g = 0; g < groups; ++g) std::copy(digits[g].begin(), digits[g].end(), labels.begin() + g * group);
      const std::uint64_t c = cost(labels);
      ++best.iterations;
      if (best.from_b.empty() || c > best.cost) {
        best.cost = c;
        best.from_b = labels;
      }
      unsigned g = 0;
      while (g < groups && !std::next_permutation(digits[g].begin(), digits[g].end())) ++g;  // wraps to sorted
      if (g == groups) break;
    }
    return best;
  }
  Random rng(budget.seed);  // drawn through the standard distributions: the committed searched inputs used libstdc++'s
  std::vector<std::uint8_t> cur = start;
  if (cur.size() != length) {  // balanced start: A half then B half in each group
    cur.assign(length, 0);
    for (unsigned g = 0; g < groups; ++g) std::fill(cur.begin() + g * group + group / 2, cur.begin() + (g + 1) * group, 1);
  }
  std::uint64_t cur_cost = cost(cur);
  best.from_b = cur;
  best.cost = cur_cost;
  const auto t0 = std::chrono::steady_clock::now();
  std::uniform_int_distribution<unsigned> pick(0, length - 1), within(0, group - 1);
  std::uniform_real_distribution<double> unit(0, 1);
  const double t_start = 2.0, t_end = 0.05;
  const std::uint64_t planned = std::min<std::uint64_t>(budget.max_iterations, 200000);
  for (std::uint64_t it = 0; !out_of_time(t0, budget, it); ++it) {
    const unsigned i = pick(rng), j = (i / group) * group + within(rng);
    if (cur[i] == cur[j]) continue;
    std::swap(cur[i], cur[j]);
    const std::uint64_t c = cost(cur);
    const double frac = std::min(1.0, static_cast<double>(it) / static_cast<double>(planned));
    const double temp = t_start * std::pow(t_end / t_start, frac);
    const double delta = static_cast<double>(c) - static_cast<double>(cur_cost);
    if (delta >= 0 || unit(rng) < std::exp(delta / temp)) {
      cur_cost = c;
      if (c > best.cost) {
        best.cost = c;
        best.from_b = cur;
      }
    } else {
      std::swap(cur[i], cur[j]);
    }
    best.iterations = it + 1;
  }
  return best;
}

namespace {

struct SplitState {
  std::vector<unsigned> from_a;
  std::vector<std::uint8_t> a_last;
};

std::vector<std::uint8_t> labels_of(const SplitState& st, unsigned E) {
  std::vector<std::uint8_t> out;
  out.reserve(st.from_a.size() * E);
  for (std::size_t t = 0; t < st.from_a.size(); ++t) {
    const unsigned a = st.from_a[t], b = E - a;
    if (st.a_last[t]) {
      out.insert(out.end(), b, 1);
      out.insert(out.end(), a, 0);
    } else {
      out.insert(out.end(), a, 0);
      out.insert(out.end(), b, 1);
    }
  }
  return out;
}

/// Paper-step cost and the sum of squared bank loads (the smooth tie-breaker).
std::pair<std::uint64_t, std::uint64_t> scored(const GroupedLabels& shape, const std::vector<std::uint8_t>& from_b) {
  const unsigned w = shape.warp, E = shape.items, G = shape.group;
  std::vector<std::uint64_t> pos(from_b.size());
  for (std::size_t base = 0; base < from_b.size(); base += G) {
    std::uint64_t a = base, b = base + G / 2;
    for (std::size_t k = base; k < base + G; ++k) pos[k] = from_b[k] ? b++ : a++;
  }
  std::uint64_t total = 0, squares = 0;
  std::vector<unsigned> count(w);
  for (unsigned j = 0; j < E; ++j) {
    std::fill(count.begin(), count.end(), 0u);
    unsigned worst = 0;
    for (unsigned t = 0; t < w; ++t) worst = std::max(worst, ++count[pos[std::size_t{t} * E + j] % w]);
    total += worst;
    for (unsigned c : count) squares += std::uint64_t{c} * c;
  }
  return {total, squares};
}

}  // namespace

LabelSearchResult search_splits(const GroupedLabels& shape, const SearchBudget& budget) {
  const unsigned w = shape.warp, E = shape.items, G = shape.group;
  if (G % E != 0 || (std::size_t{w} * E) % G != 0 || G % 2 != 0)
    throw std::invalid_argument("split search: the group must be a whole, even number of threads' outputs");
  const unsigned per_group = G / E;
  SplitState st{std::vector<unsigned>(w), std::vector<std::uint8_t>(w, 0)};
  for (unsigned g = 0; g < w / per_group; ++g) {  // spread group/2 A items over the group's threads
    unsigned left = G / 2;
    for (unsigned i = 0; i < per_group; ++i) {
      const unsigned t = g * per_group + i, take = std::min(left, E);
      st.from_a[t] = take;
      left -= take;
    }
  }
  auto eval = [&](const SplitState& s) { return scored(shape, labels_of(s, E)); };
  auto [cur_cost, cur_sq] = eval(st);
  LabelSearchResult best;
  best.from_b = labels_of(st, E);
  best.cost = cur_cost;
  Random rng(budget.seed);  // drawn through the standard distributions: the committed searched inputs used libstdc++'s
  std::uniform_int_distribution<unsigned> thread(0, w - 1), within(0, per_group - 1), kind(0, 3);
  std::uniform_real_distribution<double> unit(0, 1);
  const auto t0 = std::chrono::steady_clock::now();
  const double smooth = 1.0 / (static_cast<double>(w) * w * E);  // squares never outweigh one wavefront
  for (std::uint64_t it = 0; !out_of_time(t0, budget, it); ++it) {
    SplitState next = st;
    const unsigned t = thread(rng);
    if (kind(rng) == 0 || per_group == 1) {
      next.a_last[t] ^= 1;
    } else {
      const unsigned u = (t / per_group) * per_group + within(rng);
      if (u == t || next.from_a[t] == 0 || next.from_a[u] == E) continue;
      --next.from_a[t];
      ++next.from_a[u];
    }
    const auto [c, sq] = eval(next);
    const double delta = (static_cast<double>(c) + smooth * static_cast<double>(sq)) -
                         (static_cast<double>(cur_cost) + smooth * static_cast<double>(cur_sq));
    const double frac = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                        std::max(budget.seconds, 1e-9);
    const double temp = 1.5 * std::pow(0.01, std::min(1.0, frac));
    if (delta >= 0 || unit(rng) < std::exp(delta / temp)) {
      st = std::move(next);
      cur_cost = c;
      cur_sq = sq;
      if (c > best.cost) {
        best.cost = c;
        best.from_b = labels_of(st, E);
      }
    }
    best.iterations = it + 1;
  }
  return best;
}

VectorSearchResult search_vectors(unsigned lanes, std::uint64_t range,
                                  const std::function<std::uint64_t(const std::vector<std::uint64_t>&)>& cost,
                                  const SearchBudget& budget, std::uint64_t exhaustive_limit) {
  if (lanes == 0 || range == 0) throw std::invalid_argument("vector search: need lanes >= 1 and range >= 1");
  VectorSearchResult best;
  const double space = std::pow(static_cast<double>(range), lanes);
  std::vector<std::uint64_t> v(lanes, 0);
  if (space <= static_cast<double>(exhaustive_limit)) {
    best.exhaustive = true;
    while (true) {
      const std::uint64_t c = cost(v);
      ++best.iterations;
      if (best.values.empty() || c > best.cost) {
        best.cost = c;
        best.values = v;
      }
      unsigned k = 0;
      while (k < lanes && ++v[k] == range) v[k++] = 0;
      if (k == lanes) break;
    }
    return best;
  }
  Random rng(budget.seed);  // drawn through the standard distributions: the committed searched inputs used libstdc++'s
  std::uniform_int_distribution<std::uint64_t> value(0, range - 1);
  std::uniform_int_distribution<unsigned> lane(0, lanes - 1);
  std::uniform_real_distribution<double> unit(0, 1);
  for (auto& x : v) x = value(rng);
  std::uint64_t cur_cost = cost(v);
  best.values = v;
  best.cost = cur_cost;
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t planned = std::min<std::uint64_t>(budget.max_iterations, 100000);
  for (std::uint64_t it = 0; !out_of_time(t0, budget, it); ++it) {
    const unsigned l = lane(rng);
    const std::uint64_t old = v[l];
    v[l] = value(rng);
    const std::uint64_t c = cost(v);
    const double frac = std::min(1.0, static_cast<double>(it) / static_cast<double>(planned));
    const double temp = 2.0 * std::pow(0.025, frac);
    const double delta = static_cast<double>(c) - static_cast<double>(cur_cost);
    if (delta >= 0 || unit(rng) < std::exp(delta / temp)) {
      cur_cost = c;
      if (c > best.cost) {
        best.cost = c;
        best.values = v;
      }
    } else {
      v[l] = old;
    }
    best.iterations = it + 1;
  }
  return best;
}

}  // namespace bankcheck::inputs
