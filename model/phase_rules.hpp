#pragma once
// The phase machinery behind BankModel: splitting a warp request into
// phases, costing each phase by its conflict degree, and (sm90) merging the
// phases of wide loads. Internal to model/; users call BankModel.
#include "model/bank_model.hpp"

namespace bankcheck {

RequestCost phase_cost(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);
ConflictCulprit phase_culprit(const BankGeometry& g, PhaseRule rule, const WarpRequest& request);

}  // namespace bankcheck
