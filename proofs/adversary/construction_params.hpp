#pragma once
// The parameters of `bankcheck adversary NAME name=value ...`: the papers'
// constructions (pbs, merge, the merge sorts) and the one-warp merge labeling
// search (merge-warp), with the names `bankcheck run` uses for the same
// algorithms, their defaults and their allowed ranges.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck::proofs {

struct RangedParam {
  std::string name;
  std::int64_t default_value = 0;
  std::int64_t lo = 0, hi = 0;  ///< allowed values, inclusive
  std::string help;
};

struct ConstructionSpec {
  std::string name;
  std::string description;
  std::vector<RangedParam> params;
};

/// pbs, merge, merge-sort, cub-merge-sort, spaa-merge-sort, merge-warp.
const std::vector<ConstructionSpec>& constructions();

/// nullptr when `name` is none of them.
const ConstructionSpec* find_construction(std::string_view name);

/// Defaults filled in; an unknown name or a value outside its range is an
/// error naming the parameter and the allowed range.
/// @throws std::invalid_argument
Params resolve_construction_params(const ConstructionSpec& spec, const Params& given);

}  // namespace bankcheck::proofs
