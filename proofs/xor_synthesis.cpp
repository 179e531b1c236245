#include "proofs/xor_synthesis.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "proofs/layout_linear_map.hpp"
#include "proofs/number_theory.hpp"

namespace bankcheck::proofs {
namespace {

/// The lane bits one phase spans, as the model's rules group lanes
/// (docs/bank-model.md: rule 1 the warp for 1-4 bytes, rule 2 half and
/// quarter warps for 8 and 16, rule 5 a matrix, rule 6 a copy's store
/// phases). Only a seed for the construction: every cost is enumerated.
unsigned phase_lane_bits(const layout::AccessKind& k) {
  if (k.is_matrix()) return 3;
  return k.bytes <= 4 ? 5 : k.bytes == 8 ? 4 : 3;
}

struct Frame {
  unsigned v = 0, top = 0, n = 0;  ///< lowest target, bank top, tile bits
  std::uint64_t target_mask() const { return ((std::uint64_t{1} << (top - v)) - 1); }
};

XorAddressMap map_of(const std::vector<std::uint64_t>& c, const Frame& f) {
  XorAddressMap m;
  for (unsigned j = 0; j < f.top - f.v; ++j) {
    XorTerm t{f.v + j, 0};
    for (std::size_t h = 0; h < c.size(); ++h)
      if ((c[h] >> j) & 1) t.sources |= std::uint64_t{1} << (f.top + h);
    if (t.sources != 0) m.terms.push_back(t);
  }
  return m;
}

/// Bank image of delta x under c: its bits [cell, top) after the map.
std::uint64_t image(std::uint64_t x, const std::vector<std::uint64_t>& c, const Frame& f, unsigned cell_shift) {
  std::uint64_t img = (x >> f.v) & f.target_mask();
  for (std::size_t h = 0; h < c.size(); ++h)
    if ((x >> (f.top + h)) & 1) img ^= c[h];
  const std::uint64_t low = (x >> cell_shift) & ((std::uint64_t{1} << (f.v - cell_shift)) - 1);
  return (img << (f.v - cell_shift)) | low;
}

/// Reduce `x` against an echelon basis (keyed by leading bit); 0 when dependent.
std::uint64_t reduce(std::uint64_t x, const std::vector<std::uint64_t>& basis) {
  for (const std::uint64_t b : basis)
    if ((x ^ b) < x) x ^= b;
  return x;
}

void insert(std::uint64_t x, std::vector<std::uint64_t>& basis) {
  x = reduce(x, basis);
  if (x == 0) return;
  basis.push_back(x);
  std::sort(basis.begin(), basis.end(), std::greater<>());
}

LayoutCandidate with_map(const LayoutCandidate& plain, XorAddressMap m) {
  LayoutCandidate c = plain;
  c.family = LayoutCandidate::Family::xor_map;
  c.map = std::move(m);
  return c;
}

/// 1. Construction from each access's phase space, heaviest first.
std::vector<std::uint64_t> construct(const LayoutCandidate& plain, const TileAccesses& t, const Frame& f,
                                     unsigned cell_shift) {
  const unsigned sources = f.n - f.top;
  std::vector<std::uint64_t> c(sources, 0);
  std::vector<bool> given(sources, false);
  std::vector<std::size_t> order(t.accesses.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t.accesses[a].weight > t.accesses[b].weight; });
  for (const std::size_t i : order) {
    LayoutLinearMap lin;
    try {
      lin = derive_layout_linear_map(plan_candidate(plain, t, i), t.base);
    } catch (const std::invalid_argument&) {
      continue;  // the access cannot run on the plain layout: no phase space to learn from
    }
    if (lin.status != LayoutLinearMap::Status::linear) continue;
    const unsigned group = std::min(phase_lane_bits(t.accesses[i].kind), lin.lane_bits);
    std::vector<std::uint64_t> basis;
    for (const AddressBit& b : lin.bits) {
      if (b.role != AddressBit::Role::lane || b.position >= group) continue;
      const std::uint64_t x = b.column;
      // A conflict direction: give one of its unassigned source bits the first bank bits that separate it.
      for (unsigned h = 0; h < sources && reduce(image(x, c, f, cell_shift), basis) == 0; ++h) {
        if (given[h] || !((x >> (f.top + h)) & 1)) continue;
        for (std::uint64_t v = 1; v <= f.target_mask() && !given[h]; ++v) {
          c[h] = v;
          given[h] = reduce(image(x, c, f, cell_shift), basis) != 0;
        }
        if (!given[h]) c[h] = 0;
      }
      insert(image(x, c, f, cell_shift), basis);
    }
  }
  return c;
}

/// 2. Coordinate descent on the enumerated cost: the plain plans once, their addresses mapped per step.
void descend(const std::vector<layout::LayoutAccess>& plans, const TileAccesses& t, const BankModel& model,
             const Frame& f, std::vector<std::uint64_t>& c, std::uint64_t& evaluations) {
  const auto cost = [&](const std::vector<std::uint64_t>& cv) {
    ++evaluations;
    const XorAddressMap m = map_of(cv, f);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      layout::LayoutAccess p = plans[i];
      for (layout::LayoutInstruction& ins : p.instructions)
        for (std::uint64_t& a : ins.addr)
          if (a != kInactive) a = p.base + m.apply(a - p.base);
      std::uint64_t w = 0;
      if (__builtin_mul_overflow(t.accesses[i].weight, layout::check_layout(std::move(p), model).wavefronts, &w) ||
          __builtin_add_overflow(total, w, &total))
        throw std::overflow_error("weighted wavefronts past 2^64");
    }
    return total;
  };
  std::uint64_t best = cost(c);
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (std::size_t h = 0; h < c.size(); ++h) {
      const std::uint64_t current = c[h];
      std::uint64_t chosen = current;
      for (std::uint64_t v = 0; v <= f.target_mask(); ++v) {
        if (v == current) continue;
        c[h] = v;
        const std::uint64_t k = cost(c);
        if (k < best) best = k, chosen = v, changed = true;
      }
      c[h] = chosen;
    }
    if (!changed) break;
  }
}

}  // namespace

XorSynthesis synthesize_xor_maps(const LayoutCandidate& plain, const TileAccesses& t, const BankModel& model) {
  XorSynthesis out;
  const BankGeometry& g = model.geometry();
  const std::uint64_t bytes = t.rows * t.cols * t.element.bytes;
  if (g.bank_bytes == 0 || !nt::is_power_of_two(g.banks) || !nt::is_power_of_two(g.bank_bytes) ||
      !nt::is_power_of_two(bytes)) {
    out.skipped = "XOR maps need power-of-two banks, bank bytes and tile bytes";
    return out;
  }
  const unsigned cell_shift = nt::log2_floor(g.bank_bytes);
  Frame f{cell_shift, cell_shift + nt::log2_floor(g.banks), nt::log2_floor(bytes)};
  f.v = std::max(f.v, nt::log2_floor(t.element.bytes));
  for (const CostedAccess& a : t.accesses) f.v = std::max(f.v, nt::log2_floor(a.kind.bytes));
  if (f.v >= f.top || f.n <= f.top) {
    out.skipped = "no bank bit lies above every vector, or no address bit above the banks";
    return out;
  }
  out.targets = f.top - f.v;
  out.sources = f.n - f.top;
  std::vector<std::uint64_t> c = construct(plain, t, f, cell_shift);
  const XorAddressMap constructed = map_of(c, f);
  if (!constructed.is_identity()) out.candidates.push_back(with_map(plain, constructed));
  std::vector<layout::LayoutAccess> plans;
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    try {
      plans.push_back(plan_candidate(plain, t, i));
    } catch (const std::invalid_argument&) {
      return out;  // the map keeps vectors where they are: what the plain layout cannot serve, no map serves
    }
  }
  descend(plans, t, model, f, c, out.evaluations);
  const XorAddressMap refined = map_of(c, f);
  if (!refined.is_identity() && !(refined == constructed)) out.candidates.push_back(with_map(plain, refined));
  return out;
}

}  // namespace bankcheck::proofs
