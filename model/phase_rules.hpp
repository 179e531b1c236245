#pragma once
// The phase machinery behind BankModel: splitting a warp request into
// phases, costing each phase by its conflict degree, and (sm90) merging the
// phases of wide loads. Internal to model/; users call BankModel.
#include <cstdint>
#include <vector>

#include "model/bank_model.hpp"

namespace bankcheck {

/// The shortcut for the common request: a full 32-lane warp of one width
/// whose lanes touch one cell each and are served in one phase, on a
/// power-of-two geometry. Then the cost is the conflict degree alone, and a
/// SIMD kernel computes it. Resolved once per model and width.
/// @post kernel == nullptr where the shortcut does not apply; where it
///       does, phase_cost(g, rule, r) == cost_of_degree(kernel(r.addr, map))
///       for every r of that width, unless the kernel answers kNoSimdDegree.
SinglePhasePlan single_phase_plan(const BankGeometry& g, PhaseRule rule, unsigned width);

/// The cost of a one-phase request of conflict degree d.
constexpr RequestCost cost_of_degree(std::uint32_t d) {
  return RequestCost{d, d > 0 ? 1u : 0u, d > 0 ? d - 1u : 0u, d};
}

RequestCost phase_cost(const BankGeometry& g, PhaseRule rule, const WarpRequest& request,
                       Counter counter = Counter::instruction);

/// How the lanes of a phase are served one pass at a time.
enum class LanePasses : std::uint8_t {
  atomic,            ///< always: each active lane is one pass of every bank it touches (no multicast)
  when_conflicting,  ///< only in a phase with a conflict; a conflict-free phase costs 1
};

/// Cost of a request served in a store's phases where lanes take passes of
/// their own (docs/bank-model.md, rules 4 and 6): per phase, the most active
/// lanes touching one bank (LanePasses::atomic), or the active lanes when the
/// phase has a conflict (LanePasses::when_conflicting); `repeat` passes of
/// each (a compare-and-swap reads, then writes).
/// @post wavefronts == repeat * sum of the phases' costs; ideal == repeat * phases with an active lane.
RequestCost lane_pass_cost(const BankGeometry& g, PhaseRule rule, const WarpRequest& request, LanePasses passes,
                           unsigned repeat);
std::vector<std::uint32_t> phase_bank_words(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);
ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);

}  // namespace bankcheck
