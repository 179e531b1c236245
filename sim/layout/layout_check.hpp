#pragma once
// The layout checker as one library call (what `bankcheck layout` prints
// and what a Python binding wraps): the instructions that cover a tile
// (sim/layout/layout_access.hpp), each costed by the bank model's own rules
// (BankModel::cost), the totals, and the worst instruction. An instruction
// the model has no rule for is counted apart (not_modelled), never as a
// number.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/layout/layout_access.hpp"

namespace bankcheck::layout {

struct LayoutCheck {
  LayoutAccess access;
  std::vector<RequestCost> costs;   ///< one per access.instructions entry
  std::uint64_t instructions = 0;   ///< instructions costed (modelled)
  std::uint64_t not_modelled = 0;   ///< instructions the model has no rule for
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal = 0;
  std::uint64_t conflicts = 0;      ///< wavefronts - ideal
  std::uint32_t worst_degree = 0;
  /// The first modelled instruction of the highest degree, when that degree is >= 2.
  std::optional<std::size_t> worst;

  bool conflict_free() const { return not_modelled == 0 && conflicts == 0; }
};

/// Plan and cost. @throws as plan_layout_access; CostInvariantError on a model bug.
LayoutCheck check_layout(const LayoutAccessSpec& spec, const BankModel& model);

/// Cost an already planned access.
LayoutCheck check_layout(LayoutAccess access, const BankModel& model);

}  // namespace bankcheck::layout
