#pragma once
// The points of one claim that a verify run checks: the claim's default
// ranges or the requested --w/--E, every point or a seeded sample, less the
// points outside the claim's domain (Region::outside) and those where its
// bank model has no preset (sm90 and Kepler exist at w = 32 only). The points
// left out are counted, so a report can say how many were not checked.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// An inclusive range lo..hi.
struct Range {
  std::uint64_t lo = 1, hi = 1;
};

/// Parse "A..B" or "A" (a single value).
/// @throws std::invalid_argument on syntax errors, empty/reversed ranges, values < 1 or > 2^20.
Range parse_range(const std::string& text, const std::string& flag);

/// Which grid a claim is checked on.
struct GridRequest {
  /// Override the claim's default ranges. An explicit E range also lifts
  /// the default grid's triangle E <= w (Domain::triangle).
  std::optional<Range> w, E;
  std::uint64_t sample_points = 0;       ///< draw this many distinct points (0 = every point)
  std::uint64_t seed = 1;                ///< the sample's seed (mixed with the claim's id)
  std::uint64_t point_limit = 50000000;  ///< refuse larger grids that are not sampled
};

struct ClaimGrid {
  Range w, E;                 ///< the ranges the points come from
  std::vector<Point> points;  ///< the points to check, in (w, E) order
  /// Points of the grid (of a sample: distinct points drawn) outside the
  /// claim's domain or the model's warp sizes, not checked.
  std::uint64_t outside = 0;
};

/// The grid of `claim` under bank model `model` ("" or "dmm": every warp size).
/// @throws std::invalid_argument when the grid has more than point_limit
///         points and is not sampled (the message says how to narrow it).
ClaimGrid claim_grid(const Claim& claim, const GridRequest& request, const std::string& model);

}  // namespace bankcheck::proofs
