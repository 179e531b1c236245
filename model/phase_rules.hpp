#pragma once
// The phase machinery behind BankModel: splitting a warp request into
// phases and costing each phase by its conflict degree, for every preset;
// sm90's own rules (merged phases of wide loads, atomics, copies) are in
// model/sm90_warp_cost.hpp. Internal to model/; users call BankModel.
#include <cstdint>
#include <span>
#include <vector>

#include "model/bank_model.hpp"
#include "model/conflict_degree.hpp"
#include "model/cost_invariants.hpp"

namespace bankcheck {

/// Bytes per cell for a request of `width` bytes: the DMM stores one element per cell.
constexpr unsigned cell_bytes(const BankGeometry& g, unsigned width) {
  return g.bank_bytes == 0 ? width : g.bank_bytes;
}

/// The layout conflict_degree (model/conflict_degree.hpp) takes for requests of `width` on `g`.
constexpr WordLayout word_layout(const BankGeometry& g, unsigned width) {
  return WordLayout{cell_bytes(g, width), g.banks, g.rows_per_word};
}

/// The degree of a phase whose lanes touch one cell each (width <= the cell
/// bytes, banks <= 64) by the scalar passes alone, as the model costs it
/// where no SIMD kernel applies: branch-free bank bits, then the first key
/// per bank, then per-bank buckets. @post equals
/// conflict_degree(word_layout(g, width), width, addr).
std::uint32_t scalar_single_cell_degree(const BankGeometry& g, unsigned width, std::span<const std::uint64_t> addr);

/// The shortcut for the common request: a full 32-lane warp of one width
/// whose lanes touch one cell each and are served in one phase, on a
/// power-of-two geometry. Then the cost is the conflict degree alone, and a
/// SIMD kernel computes it. Resolved once per model and width.
/// @post kernel == nullptr where the shortcut does not apply; where it
///       does, cost_by_phases(g, rule, r) == cost_of_degree(kernel(r.addr, map))
///       for every r of that width, unless the kernel answers kNoSimdDegree.
SinglePhasePlan single_phase_plan(const BankGeometry& g, PhaseRule rule, unsigned width);

/// The cost of a one-phase request of conflict degree d.
inline RequestCost cost_of_degree(std::uint32_t d) {
  const std::uint64_t ideal = d > 0 ? 1u : 0u;
  return RequestCost{d, ideal, d};
}

/// The cost of a plain load or store under the phase rules of the presets
/// other than sm90 (sm90 requests go to model/sm90_warp_cost.hpp, whose
/// sm90::phase_cost adds the H100's per-instruction count of paired loads).
RequestCost cost_by_phases(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);

std::vector<std::uint32_t> phase_bank_words(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);
ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);
/// The bank most lanes of one phase touch (whatever their cells: atomics), with those lanes.
ConflictCulprit phase_lane_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);

}  // namespace bankcheck
