#include "model/phase_rules.hpp"

#include "model/conflict_degree.hpp"
#include "model/phase_lanes.hpp"
#include "model/simd_degree.hpp"
#include "model/sm90_warp_cost.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <cstring>
#include <vector>

namespace bankcheck {
namespace {

struct Phase {
  unsigned first = 0, count = 0;
};

/// Lanes per phase before sm90 pairs wide loads (model/phase_lanes.hpp): a
/// wavefront carries banks*bank_bytes bytes of lane data (times
/// rows_per_word where a bank word spans several rows); the DMM and
/// PhaseRule::none serve the whole warp at once.
unsigned unpaired_lanes_of(const BankGeometry& g, PhaseRule rule, unsigned width) {
  if (rule == PhaseRule::none || g.bank_bytes == 0) return g.warp;
  return unpaired_phase_lanes(std::uint64_t{g.banks} * g.bank_bytes * g.rows_per_word, width, g.warp);
}

/// Lanes per phase of a request on any preset: sm90 pairs wide loads by its
/// rule 3 (sm90::phase_lanes), the others do not.
unsigned lanes_per_phase(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  if (rule != PhaseRule::sm90) return unpaired_lanes_of(g, rule, r.width);
  std::uint32_t active = 0;  // sm90's geometry is fixed: 32 lanes (BankModel's constructor)
  for (unsigned l = 0; l < sm90::kLanes; ++l) active |= r.addr[l] != kInactive ? sm90::lane_bit(l) : 0u;
  return sm90::phase_lanes(r.op, r.width, r.addr.data(), active);
}

/// The lanes of a phase.
std::span<const std::uint64_t> lanes_of(const WarpRequest& r, Phase p) { return r.addr.subspan(p.first, p.count); }

/// Degree of a phase in the general case: the definition itself
/// (model/conflict_degree.hpp), which sorts the phase's bank words.
std::uint32_t degree_by_sorting(const BankGeometry& g, const WarpRequest& r, Phase p) {
  return conflict_degree(word_layout(g, r.width), r.width, lanes_of(r, p));
}

/// Bank and key of the single cell a lane touches (width <= cell bytes).
struct CellMap {
  unsigned cell_bytes, banks, rows_per_word;
  std::uint64_t bank(std::uint64_t a) const { return a / cell_bytes % banks; }
  std::uint64_t key(std::uint64_t a) const { return a / cell_bytes / banks / rows_per_word; }
};

/// Degree by bucketing: each bank keeps the distinct keys it has seen; a
/// lane compares only with its own bank's keys (about one, for random
/// addresses), so the cost stays linear in practice.
/// @pre banks <= 64, lanes <= kMaxBucket.
constexpr unsigned kMaxBucket = 64;
std::uint32_t degree_bucketed(const CellMap& m, std::span<const std::uint64_t> addr) {
  thread_local std::uint64_t keys[64][kMaxBucket];
  std::uint8_t count[64] = {};
  std::uint32_t best = 0;
  for (const std::uint64_t a : addr) {
    if (a == kInactive) continue;
    const auto b = m.bank(a);
    const auto k = m.key(a);
    std::uint64_t* bucket = keys[b];
    unsigned i = 0;
    while (i < count[b] && bucket[i] != k) ++i;
    if (i == count[b]) {
      bucket[count[b]++] = k;
      best = std::max<std::uint32_t>(best, count[b]);
    }
  }
  return best;
}

/// Degree of a phase whose lanes touch one cell each, with at most 64 banks,
/// without SIMD (see single_cell_degree). First a branch-free pass that the
/// compiler vectorizes: if the active lanes fall in pairwise different banks
/// the phase is conflict-free. Then
/// a pass that keeps the first key of each bank (multicast is free). Only a
/// real conflict reaches the bucketed count. Nearly every 1-, 2- and 4-byte
/// request ends in the first or second pass.
__attribute__((target_clones("avx2", "default"))) std::uint32_t degree_single_cell(
    const BankGeometry& g, unsigned width, std::span<const std::uint64_t> lanes) {
  const CellMap m{cell_bytes(g, width), g.banks, g.rows_per_word};
  const std::uint64_t* addr = lanes.data();
  const auto n = static_cast<unsigned>(lanes.size());
  if ((g.banks & (g.banks - 1)) == 0 && g.rows_per_word == 1 && n <= 64) {
    const unsigned shift = static_cast<unsigned>(__builtin_ctz(m.cell_bytes));
    const std::uint64_t bank_mask = g.banks - 1;
    std::uint64_t banks_hit = 0;
    unsigned active = 0;
    for (unsigned l = 0; l < n; ++l) {
      const std::uint64_t a = addr[l];
      const bool on = a != kInactive;
      banks_hit |= std::uint64_t{on} << ((a >> shift) & bank_mask);
      active += on;
    }
    if (static_cast<unsigned>(__builtin_popcountll(banks_hit)) == active) return active ? 1 : 0;
    std::uint64_t first_key[64];
    std::uint64_t seen = 0;
    bool clash = false;
    for (unsigned l = 0; l < n; ++l) {
      const std::uint64_t a = addr[l];
      if (a == kInactive) continue;
      const std::uint64_t cell = a >> shift;
      const std::uint64_t bank = cell & bank_mask;
      const std::uint64_t bit = std::uint64_t{1} << bank;
      first_key[bank] = (seen & bit) ? first_key[bank] : cell;
      clash |= first_key[bank] != cell;
      seen |= bit;
    }
    if (!clash) return 1;
  }
  if (n <= kMaxBucket) return degree_bucketed(m, lanes);
  return conflict_degree(word_layout(g, width), width, lanes);
}

/// How addresses of `width` map to cells, banks and bank words, as the SIMD
/// kernels take it; nullopt unless banks and rows per word are powers of two.
std::optional<CellKeyMap> cell_key_map(const BankGeometry& g, unsigned width) {
  if (!std::has_single_bit(g.banks) || !std::has_single_bit(g.rows_per_word)) return std::nullopt;
  const auto bank_bits = static_cast<unsigned>(std::countr_zero(g.banks));
  return CellKeyMap{static_cast<unsigned>(std::countr_zero(cell_bytes(g, width))), g.banks - 1,
                    (g.rows_per_word - 1) << bank_bits};
}

/// The SIMD path this CPU runs, resolved once: the hot path below pays no
/// dispatch beyond one call.
const SimdPath kSimdPath = best_simd_path();

/// Degree of a single-cell phase: SIMD where its assumptions hold
/// (model/simd_degree.hpp), else the scalar passes.
std::uint32_t single_cell_degree(const BankGeometry& g, const WarpRequest& r, Phase p) {
  if (kSimdPath != SimdPath::none && p.count <= 32)
    if (const auto map = cell_key_map(g, r.width)) {
      const std::uint32_t d = simd_degree(r.addr.data() + p.first, p.count, *map, kSimdPath);
      if (d != kNoSimdDegree) return d;
    }
  return degree_single_cell(g, r.width, lanes_of(r, p));
}

/// Degree of one phase on any geometry: the fast passes where a lane
/// touches one cell, else the definition (model/conflict_degree.hpp).
std::uint32_t degree_of_phase(const BankGeometry& g, const WarpRequest& r, Phase p) {
  if (g.banks <= 64 && r.width <= cell_bytes(g, r.width)) return single_cell_degree(g, r, p);
  return degree_by_sorting(g, r, p);
}

template <class F>
void for_each_phase(const BankGeometry& g, PhaseRule rule, const WarpRequest& r, F&& f) {
  const unsigned n = lanes_per_phase(g, rule, r);
  const auto warp = static_cast<unsigned>(r.addr.size());
  for (unsigned first = 0; first < warp; first += n) f(Phase{first, std::min(n, warp - first)});
}

}  // namespace

std::uint32_t scalar_single_cell_degree(const BankGeometry& g, unsigned width, std::span<const std::uint64_t> addr) {
  return degree_single_cell(g, width, addr);
}

SinglePhasePlan single_phase_plan(const BankGeometry& g, PhaseRule rule, unsigned width) {
  if (g.warp != 32 || !is_valid_width(width) || g.banks > 64 || width > cell_bytes(g, width)) return {};
  // One cell per lane: sm90's pairing of wide loads plays no part.
  if (unpaired_lanes_of(g, rule, width) < g.warp) return {};
  const auto map = cell_key_map(g, width);
  if (!map) return {};
  return SinglePhasePlan{simd_degree_kernel(*map, best_simd_path()), *map};  // not kSimdPath: models may be built during static initialisation
}

RequestCost cost_by_phases(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  RequestCost cost;
  const auto warp = static_cast<unsigned>(r.addr.size());
  if (g.banks <= 64 && r.width <= cell_bytes(g, r.width) && lanes_per_phase(g, rule, r) >= warp)
    return cost_of_degree(single_cell_degree(g, r, Phase{0, warp}));  // one phase: no phase loop
  unsigned active = 0;
  for (const std::uint64_t a : r.addr) active += a != kInactive;
  for_each_phase(g, rule, r, [&](Phase p) {
    const std::uint32_t d = degree_of_phase(g, r, p);
    cost.wavefronts += d;
    cost.ideal += d > 0 ? 1 : 0;
    cost.degree = std::max(cost.degree, d);
  });
  const unsigned cells = std::max(1u, r.width / cell_bytes(g, r.width));
  checked_cost(cost.wavefronts, cost.ideal, cost.degree, true, r.op, r.width, active, cells);  // throws on a fault
  return cost;
}

std::vector<std::uint32_t> phase_bank_words(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  std::vector<std::uint32_t> words(g.banks, 0);
  std::vector<BankWord> cells;
  for_each_phase(g, rule, r, [&](Phase p) {
    distinct_bank_words(word_layout(g, r.width), r.width, lanes_of(r, p), cells);
    for (const BankWord& c : cells) ++words[c.bank];
  });
  return words;
}

ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  ConflictCulprit out;
  std::size_t worst = 1;
  const WordLayout layout = word_layout(g, r.width);
  std::vector<BankWord> cells;
  for_each_phase(g, rule, r, [&](Phase p) {
    distinct_bank_words(layout, r.width, lanes_of(r, p), cells);
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
            for_each_bank_word(layout, r.width, r.addr[l],
                               [&](const BankWord& c) { hits = hits || c.bank == out.bank; });
          if (hits) out.lanes.push_back(l);
        }
      }
      i = j;
    }
  });
  return out;
}

ConflictCulprit phase_lane_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& r) {
  ConflictCulprit out;
  out.unit = ConflictCulprit::Unit::lanes;
  std::size_t worst = 1;
  const WordLayout layout = word_layout(g, r.width);
  for_each_phase(g, rule, r, [&](Phase p) {
    std::vector<std::vector<unsigned>> lanes_of_bank(g.banks);
    for (unsigned l = p.first; l < p.first + p.count; ++l)
      if (r.addr[l] != kInactive)
        for_each_bank_word(layout, r.width, r.addr[l], [&](const BankWord& c) {
          auto& lanes = lanes_of_bank[c.bank];
          if (lanes.empty() || lanes.back() != l) lanes.push_back(l);
        });
    for (unsigned b = 0; b < g.banks; ++b) {
      if (lanes_of_bank[b].size() <= worst) continue;
      worst = lanes_of_bank[b].size();
      out.bank = b;
      out.lanes = lanes_of_bank[b];
      out.cells.clear();
      for (unsigned l : out.lanes)
        for_each_bank_word(layout, r.width, r.addr[l], [&](const BankWord& c) {
          if (c.bank == b && std::find(out.cells.begin(), out.cells.end(), c.key) == out.cells.end())
            out.cells.push_back(c.key);
        });
    }
  });
  return out;
}

}  // namespace bankcheck
