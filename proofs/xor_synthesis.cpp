#include "proofs/xor_synthesis.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "proofs/layout_linear_map.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/xor_map_search.hpp"

namespace bankcheck::proofs {
namespace {

using Frame = XorFrame;

LayoutCandidate with_map(const LayoutCandidate& plain, XorAddressMap m) {
  LayoutCandidate c = plain;
  c.family = LayoutCandidate::Family::xor_map;
  c.map = std::move(m);
  return c;
}

/// 1. Construction from each access's phase space (its phase's lane columns), heaviest first.
std::vector<std::uint64_t> construct(const LayoutCandidate& plain, const TileAccesses& t, const Frame& f) {
  std::vector<std::size_t> order(t.accesses.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t.accesses[a].weight > t.accesses[b].weight; });
  std::vector<PhaseColumns> phases;
  for (const std::size_t i : order) {
    LayoutLinearMap lin;
    try {
      lin = derive_layout_linear_map(plan_candidate(plain, t, i), t.base);
    } catch (const std::invalid_argument&) {
      continue;  // the access cannot run on the plain layout: no phase space to learn from
    }
    if (lin.status != LayoutLinearMap::Status::linear) continue;
    const layout::AccessKind& k = t.accesses[i].kind;
    const unsigned group = std::min(phase_lane_bits(k.is_matrix(), k.bytes), lin.lane_bits);
    PhaseColumns phase;
    for (const AddressBit& b : lin.bits)
      if (b.role == AddressBit::Role::lane && b.position < group) phase.push_back(b.column);
    phases.push_back(std::move(phase));
  }
  return construct_xor_vectors(phases, f);
}

/// 2. Coordinate descent on the enumerated cost: the plain plans once, their addresses mapped per step.
void descend(const std::vector<layout::LayoutAccess>& plans, const TileAccesses& t, const BankModel& model,
             const Frame& f, std::vector<std::uint64_t>& c, std::uint64_t& evaluations) {
  const auto cost = [&](const XorAddressMap& m) {
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
  descend_xor_vectors(cost, f, c, evaluations);
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
  Frame f{cell_shift, cell_shift + nt::log2_floor(g.banks), nt::log2_floor(bytes), cell_shift};
  f.v = std::max(f.v, nt::log2_floor(t.element.bytes));
  for (const CostedAccess& a : t.accesses) f.v = std::max(f.v, nt::log2_floor(a.kind.bytes));
  if (f.v >= f.top || f.n <= f.top) {
    out.skipped = "no bank bit lies above every vector, or no address bit above the banks";
    return out;
  }
  out.targets = f.top - f.v;
  out.sources = f.n - f.top;
  std::vector<std::uint64_t> c = construct(plain, t, f);
  const XorAddressMap constructed = xor_map_of_vectors(c, f);
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
  const XorAddressMap refined = xor_map_of_vectors(c, f);
  if (!refined.is_identity() && !(refined == constructed)) out.candidates.push_back(with_map(plain, refined));
  return out;
}

}  // namespace bankcheck::proofs
