#pragma once
// The verifier: checks a list of claims over a grid of points (w, E) on
// several threads and summarizes each claim as holds / fails / finding.
//
//  * holds    no counterexample at any point inside the hypotheses, and none beyond
//  * fails    a counterexample inside the hypotheses: the paper's claim is refuted
//  * finding  holds inside the hypotheses but breaks beyond them (not a failure)
//  * vacuous  no point of the grid lies inside or beyond the hypotheses
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

enum class Status { holds, fails, finding, vacuous };
std::string status_name(Status s);

/// An inclusive range lo..hi.
struct Range {
  std::uint64_t lo = 1, hi = 1;
};

/// Parse "A..B" or "A" (a single value).
/// @throws std::invalid_argument on syntax errors, empty/reversed ranges, values < 1 or > 2^20.
Range parse_range(const std::string& text, const std::string& flag);

struct VerifyRequest {
  std::optional<Range> w, E;       ///< override every claim's domain
  CheckOptions options;
  std::uint64_t sample_points = 0; ///< Mode::sample: points drawn per claim (0 = every point)
  unsigned threads = 0;            ///< 0 = std::thread::hardware_concurrency()
  BigCount case_limit = BigCount(2000000000);  ///< refuse larger --exhaustive runs
  std::uint64_t point_limit = 50000000;        ///< refuse larger grids without --sample
  /// Called now and then from one thread: cases done and planned.
  std::function<void(std::uint64_t done_points, std::uint64_t total_points)> progress;
};

struct ClaimReport {
  const Claim* claim = nullptr;
  Range w, E;                          ///< the grid checked
  std::uint64_t points_within = 0, points_beyond = 0;
  std::uint64_t cases_within = 0, cases_beyond = 0;
  Status status = Status::vacuous;
  std::optional<Counterexample> counterexample;  ///< first inside the hypotheses (fails)
  std::optional<Counterexample> finding;         ///< first beyond them
  double seconds = 0;                  ///< thread time spent on this claim
};

struct VerifyReport {
  std::vector<ClaimReport> claims;
  double seconds = 0;  ///< wall time
  unsigned threads = 1;
  /// 0 if nothing fails inside its hypotheses, else 1.
  int exit_code() const;
};

/// Estimated cases of a run (for the size guard and messages).
BigCount planned_cases(const std::vector<const Claim*>& claims, const VerifyRequest& request);

/// @throws std::invalid_argument for grids or exhaustive runs over the limits
///         (the message gives the estimated case count).
VerifyReport verify(const std::vector<const Claim*>& claims, const VerifyRequest& request);

}  // namespace bankcheck::proofs
