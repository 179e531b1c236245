#include "proofs/layout_candidate.hpp"

#include <algorithm>
#include <stdexcept>

namespace bankcheck::proofs {
namespace {

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("weighted wavefronts past 2^64");
  return r;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("weighted wavefronts past 2^64");
  return r;
}

layout::IntTuple leaf(std::uint64_t v) { return layout::IntTuple{static_cast<std::int64_t>(v), {}}; }

}  // namespace

const char* LayoutCandidate::family_name(Family f) {
  switch (f) {
    case Family::given: return "given";
    case Family::plain: return "plain";
    case Family::padded: return "padding";
    case Family::cute_swizzle: return "cute-swizzle";
    case Family::tma_atom: return "tma-atom";
    case Family::xor_map: return "xor-map";
  }
  return "plain";
}

std::string LayoutCandidate::text() const {
  const std::string l = layout.text();
  if (map.is_identity()) return l;
  return l + ", byte offset b -> " + map.cpp("b");
}

unsigned LayoutCandidate::simplicity() const {
  switch (family) {
    case Family::given:
    case Family::plain: return 0;
    case Family::padded: return 1;
    case Family::cute_swizzle:
    case Family::tma_atom: return 2 + static_cast<unsigned>(layout.swizzle ? layout.swizzle->bits : 0);
    case Family::xor_map: {
      unsigned sources = 0;
      for (const XorTerm& t : map.terms) sources += static_cast<unsigned>(__builtin_popcountll(t.sources));
      return 8 + sources;
    }
  }
  return 0;
}

layout::CuteLayout plain_layout(std::uint64_t rows, std::uint64_t cols, bool row_major, std::uint64_t pad) {
  layout::IntTuple shape{0, {leaf(rows), leaf(cols)}};
  layout::IntTuple stride = row_major ? layout::IntTuple{0, {leaf(cols + pad), leaf(1)}}
                                      : layout::IntTuple{0, {leaf(1), leaf(rows + pad)}};
  return layout::CuteLayout(std::move(shape), std::move(stride));
}

layout::LayoutAccess plan_candidate(const LayoutCandidate& c, const TileAccesses& t, std::size_t access) {
  const CostedAccess& a = t.accesses.at(access);
  layout::LayoutAccess plan = layout::plan_layout_access(c.layout, t.element, a.kind, a.along, t.base);
  if (c.map.is_identity()) return plan;
  const unsigned kept = c.map.lowest_target();
  if ((std::uint64_t{1} << kept) < a.kind.bytes || (std::uint64_t{1} << kept) < t.element.bytes)
    throw std::invalid_argument("the XOR map moves bit " + std::to_string(kept) + ", inside the " +
                                std::to_string(a.kind.bytes) + " bytes a lane of " + a.kind.name() +
                                " moves together");
  for (layout::LayoutInstruction& ins : plan.instructions)
    for (std::uint64_t& addr : ins.addr)
      if (addr != kInactive) addr = plan.base + c.map.apply(addr - plan.base);
  return plan;
}

CandidateCost cost_candidate(const LayoutCandidate& c, const TileAccesses& t, const BankModel& model) {
  CandidateCost out;
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    layout::LayoutAccess plan;
    try {
      plan = plan_candidate(c, t, i);
    } catch (const std::invalid_argument& e) {
      out.why = e.what();
      out.checks.clear();
      return out;
    }
    for (const layout::LayoutInstruction& ins : plan.instructions)
      for (const std::uint64_t a : ins.addr)
        if (a != kInactive) lo = std::min(lo, a), hi = std::max(hi, a + ins.width);
    out.checks.push_back(layout::check_layout(std::move(plan), model));
    const layout::LayoutCheck& k = out.checks.back();
    out.weighted = checked_add(out.weighted, checked_mul(t.accesses[i].weight, k.wavefronts));
    out.not_modelled = checked_add(out.not_modelled, k.not_modelled);
  }
  out.feasible = true;
  out.footprint = hi > lo ? hi - lo : 0;
  return out;
}

}  // namespace bankcheck::proofs
