#pragma once
// Which inputs a claim examines at one point: every input when there are few
// (or --exhaustive), otherwise structured inputs and a seeded sample whose
// stream depends only on (seed, w, E), so a counterexample reproduces from its
// point alone. One helper for the pattern every input-quantified claim uses.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// Whether a point with `all` inputs is enumerated under these options.
inline bool enumerates(const BigCount& all, const CheckOptions& o) {
  return o.mode == Mode::exhaustive || (o.mode == Mode::automatic && all <= o.inputs_limit);
}

/// Random inputs a point samples when it does not enumerate: o.inputs, or
/// with a work bound, as many as fit in it at `work` element visits each (at
/// least one, at most o.inputs).
inline std::uint64_t sampled_inputs(const CheckOptions& o, std::uint64_t work) {
  if (o.mode == Mode::exhaustive || o.input_work == 0 || work == 0) return o.inputs;
  return std::max<std::uint64_t>(1, std::min(o.inputs, o.input_work / work));
}

/// Cases the automatic/sample mode plans at a point: `all` when enumerated,
/// else the structured inputs plus the sampled ones (`work` element visits each).
inline BigCount planned_inputs(const BigCount& all, const CheckOptions& o, std::uint64_t structured,
                               std::uint64_t work = 0) {
  return enumerates(all, o) ? all : BigCount(sampled_inputs(o, work) + structured);
}

/// The point's random stream (splitmix64 of seed, w, E).
inline std::mt19937_64 point_rng(const Point& p, const CheckOptions& o) { return std::mt19937_64(point_seed(o.seed, p)); }

/// Vectors of `length` values in [lo, hi]: every one in odometer order (the
/// first entry turns fastest) when enumerated, else `structured` followed by
/// sampled_inputs(o, work) vectors of uniform values from the point's stream.
/// @pre lo <= hi.
inline std::vector<std::vector<long>> vectors_or_sample(std::uint64_t length, long lo, long hi, const Point& p,
                                                        const CheckOptions& o,
                                                        std::vector<std::vector<long>> structured,
                                                        std::uint64_t work = 0) {
  const BigCount all = boost::multiprecision::pow(BigCount(hi - lo + 1), static_cast<unsigned>(length));
  std::vector<std::vector<long>> sets;
  if (enumerates(all, o)) {
    std::vector<long> v(length, lo);
    for (;;) {
      sets.push_back(v);
      std::size_t i = 0;
      while (i < length && v[i] == hi) v[i++] = lo;
      if (i == length) return sets;
      ++v[i];
    }
  }
  sets = std::move(structured);
  std::mt19937_64 rng = point_rng(p, o);
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  const std::uint64_t sampled = sampled_inputs(o, work);
  for (std::uint64_t s = 0; s < sampled; ++s) {
    std::vector<long> v(length);
    for (auto& x : v) x = lo + static_cast<long>(rng() % span);
    sets.push_back(std::move(v));
  }
  return sets;
}

}  // namespace bankcheck::proofs
