#include "model/phase_rules.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace bankcheck {
namespace {

/// A bank word touched by a lane: its bank and its key among that bank's
/// words (distinct keys in one bank serialize; equal keys multicast).
struct Cell {
  std::uint32_t bank;
  std::uint64_t key;
};

/// Bytes per cell for this request: the DMM stores one element per cell.
unsigned cell_bytes(const BankGeometry& g, unsigned width) { return g.bank_bytes == 0 ? width : g.bank_bytes; }

/// Cells touched by one lane's access.
template <class F>
void for_each_cell(const BankGeometry& g, unsigned width, std::uint64_t addr, F&& f) {
  const unsigned cb = cell_bytes(g, width);
  const std::uint64_t first = addr / cb;
  const unsigned count = width <= cb ? 1u : width / cb;
  for (unsigned k = 0; k < count; ++k) {
    const std::uint64_t cell = first + k;
    const std::uint64_t row = cell / g.banks;
    f(Cell{static_cast<std::uint32_t>(cell % g.banks), row / g.rows_per_word});
  }
}

/// The distinct (bank, key) pairs a set of lanes needs: sorted, unique.
struct CellSet {
  std::vector<Cell> cells;
  void add(const Cell& c) { cells.push_back(c); }
  void normalize() {
    std::sort(cells.begin(), cells.end(),
              [](const Cell& a, const Cell& b) { return a.bank != b.bank ? a.bank < b.bank : a.key < b.key; });
    cells.erase(std::unique(cells.begin(), cells.end(),
                            [](const Cell& a, const Cell& b) { return a.bank == b.bank && a.key == b.key; }),
                cells.end());
  }
  /// Largest number of distinct keys in one bank (0 when empty).
  std::uint32_t degree() const {
    std::uint32_t best = 0, run = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      run = (i > 0 && cells[i].bank == cells[i - 1].bank) ? run + 1 : 1;
      best = std::max(best, run);
    }
    return best;
  }
  bool empty() const { return cells.empty(); }
};

/// Lanes [first, first+count) of the request as a normalized cell set.
CellSet cells_of(const BankGeometry& g, const WarpRequest& r, unsigned first, unsigned count) {
  CellSet s;
  for (unsigned l = first; l < first + count && l < r.addr.size(); ++l)
    if (r.addr[l] != kInactive) for_each_cell(g, r.width, r.addr[l], [&](const Cell& c) { s.add(c); });
  s.normalize();
  return s;
}

/// Lanes per phase: a wavefront carries banks*bank_bytes bytes of lane data.
unsigned phase_lanes(const BankGeometry& g, PhaseRule rule, unsigned width) {
  if (rule == PhaseRule::none || g.bank_bytes == 0) return g.warp;
  const unsigned bytes = g.banks * g.bank_bytes * g.rows_per_word;
  return std::clamp(bytes / width, 1u, g.warp);
}

struct Phase {
  unsigned first, count;
};

std::vector<Phase> phases_of(const BankGeometry& g, PhaseRule rule, unsigned width) {
  const unsigned n = phase_lanes(g, rule, width);
  std::vector<Phase> out;
  for (unsigned f = 0; f < g.warp; f += n) out.push_back({f, std::min(n, g.warp - f)});
  return out;
}

}  // namespace

RequestCost phase_cost(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  RequestCost cost;
  for (const auto& p : phases_of(g, rule, r.width)) {
    const CellSet s = cells_of(g, r, p.first, p.count);
    if (s.empty()) continue;
    const auto d = s.degree();
    cost.wavefronts += d;
    cost.ideal += 1;
    cost.degree = std::max(cost.degree, d);
  }
  cost.conflicts = cost.wavefronts - cost.ideal;
  return cost;
}

ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  ConflictCulprit out;
  std::uint32_t worst = 1;
  for (const auto& p : phases_of(g, rule, r.width)) {
    const CellSet s = cells_of(g, r, p.first, p.count);
    for (std::size_t i = 0; i < s.cells.size();) {
      std::size_t j = i;
      while (j < s.cells.size() && s.cells[j].bank == s.cells[i].bank) ++j;
      if (j - i > worst) {
        worst = static_cast<std::uint32_t>(j - i);
        out.bank = s.cells[i].bank;
        out.cells.clear();
        out.lanes.clear();
        for (std::size_t k = i; k < j; ++k) out.cells.push_back(s.cells[k].key);
        for (unsigned l = p.first; l < p.first + p.count; ++l)
          if (r.addr[l] != kInactive)
            for_each_cell(g, r.width, r.addr[l], [&](const Cell& c) {
              if (c.bank == out.bank && (out.lanes.empty() || out.lanes.back() != l)) out.lanes.push_back(l);
            });
      }
      i = j;
    }
  }
  return out;
}

}  // namespace bankcheck
