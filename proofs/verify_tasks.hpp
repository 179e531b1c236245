#pragma once
// The work of a verify run, one task per (claim, point), and how it is
// spread: the largest points first (a point's work grows with w*E) so the
// threads finish together; under MPI each rank takes every size-th task of
// that order, so each gets a like share of large and small points; on a
// rank the tasks run on a pool of threads that reports progress from the
// calling thread.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

struct PointTask {
  std::size_t claim = 0;    ///< index into the run's claims
  Point point;
  std::uint64_t order = 0;  ///< position in the claim's (w, E) order: the "first" counterexample is the lowest
};

/// How far a run is: points checked of all, and the same weighted by w*E
/// (a point's work grows with it), for a progress bar's estimate.
struct VerifyProgress {
  std::uint64_t done_points = 0, total_points = 0;
  std::uint64_t done_work = 0, total_work = 0;
};

/// A task's work estimate, w*E.
inline std::uint64_t work_of(const PointTask& t) { return t.point.w * t.point.E; }

/// Largest work first; tasks of equal work keep their order.
void order_by_work(std::vector<PointTask>& tasks);

/// The tasks of `rank` among `ranks`: every ranks-th task from position `rank`.
/// @pre 0 <= rank < ranks.
std::vector<PointTask> rank_share(const std::vector<PointTask>& tasks, int rank, int ranks);

/// Runs `run` once for every task on `threads` threads (0: one per core; never
/// more than there are tasks, at least one), while `progress` (if set) is
/// called about every 100 ms from the calling thread and once at the end.
/// If a `run` throws, no further task starts and the first exception is
/// rethrown once every thread has stopped. Once `stop` (if set) returns
/// true, no further task starts either: the tasks left are not run.
/// @return the number of threads used.
unsigned run_tasks(const std::vector<PointTask>& tasks, unsigned threads,
                   const std::function<void(const PointTask&)>& run,
                   const std::function<void(const VerifyProgress&)>& progress,
                   const std::function<bool()>& stop = {});

}  // namespace bankcheck::proofs
