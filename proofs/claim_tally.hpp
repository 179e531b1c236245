#pragma once
// What the verifier counts for one claim while its points are checked, and
// how the tallies of several processes (the ranks of `mpirun -n N bankcheck
// verify`, sim/parallel/cluster.hpp) travel and merge. The merge keeps the
// counterexample of lowest order, the one a single process reports, so the
// certificate is the same for every number of ranks.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck {
class Cluster;
}

namespace bankcheck::proofs {

/// A counterexample and its point's position in (w, E) order.
struct Found {
  std::uint64_t order = 0;
  Counterexample counterexample;
};

struct ClaimTally {
  std::mutex mutex;  ///< held by the thread that adds a point
  std::uint64_t points_within = 0, points_beyond = 0, cases_within = 0, cases_beyond = 0;
  std::uint64_t points_undecided = 0;   ///< checked points where the check decided nothing
  std::optional<Found> within, beyond;  ///< the first found (lowest order)
  std::optional<Found> undecided;       ///< the first undecided point, with what was searched
  std::optional<Found> error;           ///< the first point whose check threw (with the message)
  double seconds = 0;

  /// Adds one checked point (thread-safe): where it lies, what its check
  /// found, its position in (w, E) order and the thread time it took.
  void add(Region region, const PointResult& result, std::uint64_t order, double seconds);
  /// Adds one point of the domain whose check threw (thread-safe): it
  /// counts as checked where it lies, and `what` says what went wrong.
  void add_error(Region region, const Counterexample& what, std::uint64_t order, double seconds);
  /// Keep `found` in `slot` when it comes earlier in (w, E) order.
  static void keep_first(std::optional<Found>& slot, const Found& found);
  /// Add another process's tally of the same claim.
  void merge(const ClaimTally& other);
};

/// One process's tallies, one per claim in the verifier's order, as text.
std::string tallies_to_text(const std::vector<ClaimTally>& tallies);
/// @throws std::invalid_argument when `text` is not what tallies_to_text wrote for `claims` tallies.
void merge_tallies_from_text(const std::string& text, std::vector<ClaimTally>& into);

/// Every rank's tallies merged, on every rank (Cluster::reduce), so all
/// ranks build the same report and exit code.
/// @throws std::runtime_error on every rank when a rank failed.
void merge_over_ranks(const Cluster& cluster, std::vector<ClaimTally>& tallies);

}  // namespace bankcheck::proofs
