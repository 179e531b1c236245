#include "model/phase_rules.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace bankcheck {
namespace {

/// A bank word touched by a lane: its bank and its key among that bank's
/// words (distinct keys in one bank serialize; equal keys multicast).
struct Cell {
  std::uint64_t bank;
  std::uint64_t key;
  friend bool operator<(const Cell& a, const Cell& b) { return a.bank != b.bank ? a.bank < b.bank : a.key < b.key; }
  friend bool operator==(const Cell& a, const Cell& b) = default;
};

/// Bytes per cell for a request: the DMM stores one element per cell.
unsigned cell_bytes(const BankGeometry& g, unsigned width) { return g.bank_bytes == 0 ? width : g.bank_bytes; }

/// The cells one lane's access touches, passed to f.
template <class F>
void for_each_cell(const BankGeometry& g, unsigned width, std::uint64_t addr, F&& f) {
  const unsigned cb = cell_bytes(g, width);
  const std::uint64_t first = addr / cb;
  const unsigned count = width <= cb ? 1u : width / cb;
  for (unsigned k = 0; k < count; ++k) {
    const std::uint64_t cell = first + k;
    const std::uint64_t row = cell / g.banks;
    f(Cell{cell % g.banks, row / g.rows_per_word});
  }
}

struct Phase {
  unsigned first = 0, count = 0;
};

/// sm90 loads wider than a bank word: the hardware serves two phases' worth
/// of lanes at once when every lane can be paired with a partner that reads
/// the same address, partners being l^1 for all lanes or l^2 for all lanes
/// (inactive partners pair with anything). Measured: docs/bank-model.md.
bool lanes_pair_up(const WarpRequest& r, unsigned partner) {
  const auto n = static_cast<unsigned>(r.addr.size());
  for (unsigned l = 0; l < n; ++l) {
    const unsigned m = l ^ partner;
    if (m < n && r.addr[l] != kInactive && r.addr[m] != kInactive && r.addr[l] != r.addr[m]) return false;
  }
  return true;
}

/// Lanes per phase: a wavefront carries banks*bank_bytes bytes of lane data
/// (times rows_per_word where a bank word spans several rows).
unsigned phase_lanes(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  if (rule == PhaseRule::none || g.bank_bytes == 0) return g.warp;
  const std::uint64_t bytes = std::uint64_t{g.banks} * g.bank_bytes * g.rows_per_word;
  auto lanes = static_cast<unsigned>(std::clamp<std::uint64_t>(bytes / r.width, 1, g.warp));
  if (rule == PhaseRule::sm90 && r.op == Op::load && r.width > g.bank_bytes && lanes < g.warp &&
      (lanes_pair_up(r, 1) || lanes_pair_up(r, 2)))
    lanes = std::min(g.warp, lanes * 2);
  return lanes;
}

/// Scratch space reused across calls so the hot path never allocates.
std::vector<Cell>& scratch() {
  thread_local std::vector<Cell> cells;
  return cells;
}

/// Degree of a phase in the general case: sort the cells, count the longest
/// run of distinct keys in one bank.
std::uint32_t degree_by_sorting(const BankGeometry& g, const WarpRequest& r, Phase p) {
  auto& cells = scratch();
  cells.clear();
  for (unsigned l = p.first; l < p.first + p.count; ++l)
    if (r.addr[l] != kInactive) for_each_cell(g, r.width, r.addr[l], [&](const Cell& c) { cells.push_back(c); });
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  std::uint32_t best = 0, run = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    run = (i > 0 && cells[i].bank == cells[i - 1].bank) ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

/// Degree of a phase whose lanes touch one cell each, with at most 64 banks:
/// one pass keeps the first key seen in each bank; only lanes that meet a
/// different key in an occupied bank (a real conflict) fall back to sorting.
/// This is the path nearly every 1-, 2- and 4-byte request takes.
std::uint32_t degree_single_cell(const BankGeometry& g, const WarpRequest& r, Phase p) {
  const unsigned cb = cell_bytes(g, r.width);
  const bool pow2 = (g.banks & (g.banks - 1)) == 0 && g.rows_per_word == 1;
  const unsigned shift = static_cast<unsigned>(__builtin_ctz(cb));
  const std::uint64_t bank_mask = g.banks - 1;
  std::uint64_t seen = 0;
  std::uint64_t first_key[64];
  const std::uint64_t* addr = r.addr.data();
  for (unsigned l = p.first; l < p.first + p.count; ++l) {
    const std::uint64_t a = addr[l];
    if (a == kInactive) continue;
    std::uint64_t bank, key;
    if (pow2) {
      const std::uint64_t cell = a >> shift;
      bank = cell & bank_mask;
      key = cell;  // distinct cells of one bank have distinct indices
    } else {
      const std::uint64_t cell = a / cb;
      bank = cell % g.banks;
      key = cell / g.banks / g.rows_per_word;
    }
    const std::uint64_t bit = std::uint64_t{1} << bank;
    if (!(seen & bit)) {
      seen |= bit;
      first_key[bank] = key;
    } else if (first_key[bank] != key) {
      return degree_by_sorting(g, r, p);
    }
  }
  return seen ? 1 : 0;
}

std::uint32_t phase_degree(const BankGeometry& g, const WarpRequest& r, Phase p) {
  if (g.banks <= 64 && r.width <= cell_bytes(g, r.width)) return degree_single_cell(g, r, p);
  return degree_by_sorting(g, r, p);
}

template <class F>
void for_each_phase(const BankGeometry& g, PhaseRule rule, const WarpRequest& r, F&& f) {
  const unsigned n = phase_lanes(g, rule, r);
  const auto warp = static_cast<unsigned>(r.addr.size());
  for (unsigned first = 0; first < warp; first += n) f(Phase{first, std::min(n, warp - first)});
}

}  // namespace

RequestCost phase_cost(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  RequestCost cost;
  for_each_phase(g, rule, r, [&](Phase p) {
    const std::uint32_t d = phase_degree(g, r, p);
    cost.wavefronts += d;
    cost.ideal += d > 0 ? 1 : 0;
    cost.degree = std::max(cost.degree, d);
  });
  cost.conflicts = cost.wavefronts - cost.ideal;
  return cost;
}

ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  ConflictCulprit out;
  std::size_t worst = 1;
  for_each_phase(g, rule, r, [&](Phase p) {
    std::vector<Cell> cells;
    for (unsigned l = p.first; l < p.first + p.count; ++l)
      if (r.addr[l] != kInactive) for_each_cell(g, r.width, r.addr[l], [&](const Cell& c) { cells.push_back(c); });
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    for (std::size_t i = 0; i < cells.size();) {
      std::size_t j = i;
      while (j < cells.size() && cells[j].bank == cells[i].bank) ++j;
      if (j - i > worst) {
        worst = j - i;
        out.bank = static_cast<unsigned>(cells[i].bank);
        out.cells.clear();
        out.lanes.clear();
        for (std::size_t k = i; k < j; ++k) out.cells.push_back(cells[k].key);
        for (unsigned l = p.first; l < p.first + p.count; ++l) {
          bool hits = false;
          if (r.addr[l] != kInactive)
            for_each_cell(g, r.width, r.addr[l], [&](const Cell& c) { hits = hits || c.bank == out.bank; });
          if (hits) out.lanes.push_back(l);
        }
      }
      i = j;
    }
  });
  return out;
}

}  // namespace bankcheck
