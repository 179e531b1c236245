#include "sim/layout/layout_check.hpp"

#include <stdexcept>

#include "model/cost_invariants.hpp"

namespace bankcheck::layout {

LayoutCheck check_layout(const LayoutAccessSpec& spec, const BankModel& model) {
  return check_layout(plan_layout_access(spec), model);
}

LayoutCheck check_layout(LayoutAccess access, const BankModel& model) {
  if (model.geometry().warp != kLayoutWarp)
    throw std::invalid_argument("the layout checker walks 32-lane warps; the model has warp " +
                                std::to_string(model.geometry().warp));
  LayoutCheck out;
  out.access = std::move(access);
  for (std::size_t i = 0; i < out.access.instructions.size(); ++i) {
    const RequestCost c = model.cost(out.access.instructions[i].request());
    out.costs.push_back(c);
    if (!c.modelled) {
      ++out.not_modelled;
      continue;
    }
    ++out.instructions;
    out.wavefronts += c.wavefronts;
    out.ideal += c.ideal;
    if (c.degree > out.worst_degree) {
      out.worst_degree = c.degree;
      if (c.degree >= 2) out.worst = i;
    }
  }
  out.conflicts = conflicts_of(out.wavefronts, out.ideal);
  return out;
}

}  // namespace bankcheck::layout
