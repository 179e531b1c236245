#pragma once
// The verifier: checks a list of claims over a grid of points (w, E)
// (proofs/claim_grid.hpp) on several threads and MPI ranks
// (proofs/verify_tasks.hpp), counts what each point found
// (proofs/claim_tally.hpp) and summarizes each claim as holds / fails / finding.
//
//  * holds           no counterexample at any point inside the hypotheses, and none beyond
//  * fails           a counterexample inside the hypotheses: the paper's claim is refuted
//                    (a check reports one only with a proof: proofs/claim.hpp);
//                    or the check threw at a point of the claim's domain (the message is kept)
//  * undecided       no counterexample, but at some point a bounded search found neither a
//                    counterexample nor the claim's witness: neither holds nor fails
//  * partial         the run was stopped (a signal, --time-limit) before every point was checked
//                    and none of the above was found in the points that were
//  * finding         holds inside the hypotheses but breaks beyond them (not a failure)
//  * vacuous         every point of the grid lies outside the claim's domain: nothing checked
//  * not applicable  the claim is not stated for the requested bank model (not run)
//
// Points outside a claim's domain are those its `region` declares so
// (proofs/claim.hpp); they are counted in the report, never inferred from
// an exception.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proofs/claim.hpp"
#include "proofs/claim_grid.hpp"
#include "proofs/verify_tasks.hpp"

namespace bankcheck {
class Cluster;
}

namespace bankcheck::proofs {

enum class Status { holds, fails, undecided, partial, finding, vacuous, not_applicable };
std::string status_name(Status s);

struct VerifyRequest {
  std::optional<Range> w, E;       ///< override every claim's domain
  CheckOptions options;            ///< options.model is set per claim (see `model`)
  /// The bank model to check under; claims not stated for it are "not
  /// applicable". Unset: every claim under its own first model.
  std::optional<std::string> model;
  std::uint64_t sample_points = 0; ///< Mode::sample: points drawn per claim (0 = every point)
  unsigned threads = 0;            ///< 0 = std::thread::hardware_concurrency()
  BigCount case_limit = BigCount(2000000000);  ///< refuse larger --exhaustive runs
  std::uint64_t point_limit = 50000000;        ///< refuse larger grids without --sample
  /// Called about every 100 ms from the calling thread while the checks run.
  std::function<void(const VerifyProgress&)> progress;
  /// Set (by a signal handler, say) to stop the run: no point starts once
  /// it is set, and the report is partial. nullptr: never.
  const std::atomic<bool>* stop = nullptr;
  double time_limit = 0;           ///< seconds after which no point starts (0: none); the report is then partial
  /// The ranks of an MPI job (sim/parallel/cluster.hpp) share the points;
  /// every rank returns the same report. nullptr: this process checks all.
  const Cluster* cluster = nullptr;
};

struct ClaimReport {
  const Claim* claim = nullptr;
  std::string model;                   ///< the model it was checked under ("" if model-independent)
  Range w, E;                          ///< the grid checked
  std::uint64_t points_within = 0, points_beyond = 0;
  std::uint64_t points_outside = 0;    ///< of the grid, outside the claim's domain or its model's warp sizes: not checked
  std::uint64_t cases_within = 0, cases_beyond = 0;
  std::uint64_t points_undecided = 0;  ///< checked points where a search decided nothing
  std::uint64_t points_unchecked = 0;  ///< of the grid's points in the domain, not reached before the run stopped
  Status status = Status::vacuous;
  std::optional<Counterexample> counterexample;  ///< first inside the hypotheses (fails)
  std::optional<Counterexample> error;           ///< first point of the domain whose check threw (fails)
  std::optional<Counterexample> finding;         ///< first beyond them
  std::optional<Counterexample> undecided;       ///< first undecided point, with what was searched
  double seconds = 0;                  ///< thread time spent on this claim
};

struct VerifyReport {
  std::vector<ClaimReport> claims;
  double seconds = 0;  ///< wall time
  unsigned threads = 1;  ///< per rank
  unsigned ranks = 1;    ///< MPI ranks that shared the points
  std::string stopped;   ///< why the run stopped before its last point ("" when it did not): the report is partial
  /// 1 if a claim fails inside its hypotheses, else 3 if one is undecided
  /// or the run is partial, else 2 if no claim had a point to check (all
  /// vacuous or not applicable), else 0.
  int exit_code() const;
};

/// The model `claim` is checked under: `requested` when the claim is stated
/// for it (or depends on no model), else nullopt (not applicable); without a
/// request, the claim's first model ("" for a model-independent claim).
std::optional<std::string> model_for(const Claim& claim, const std::optional<std::string>& requested);

/// Estimated cases of a run (for the size guard and messages).
BigCount planned_cases(const std::vector<const Claim*>& claims, const VerifyRequest& request);

/// @throws std::invalid_argument for grids or exhaustive runs over the limits
///         (the message gives the estimated case count), and when no claim
///         applies to the requested model.
VerifyReport verify(const std::vector<const Claim*>& claims, const VerifyRequest& request);

}  // namespace bankcheck::proofs
