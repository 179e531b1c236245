#pragma once
// The project's thread pool: f(0) .. f(n - 1) on a few threads, each index
// once, handed out in increasing order as threads come free (so a slow
// index never holds back the others). Used where a run's independent items
// (verify's points, replay DIR's files) share the cores; the ranks of an MPI
// job split work with sim/parallel/cluster.hpp instead.
#include <chrono>
#include <cstddef>
#include <functional>

namespace bankcheck {

/// Calls f(i) once for each i in [0, n) on up to `threads` threads (0: one
/// per core; never more than n, at least one). A call that throws stops the
/// handing out: indices not yet begun are skipped, those begun finish, and
/// after every thread has joined the exception of the lowest failing index is
/// rethrown: what one thread running the indices in order would have thrown.
/// While the threads work, the calling thread calls watch(done) every
/// `interval` and once at the end, `done` counting the indices finished or
/// skipped. Returns the number of threads used.
unsigned parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& f,
                      const std::function<void(std::size_t done)>& watch = {},
                      std::chrono::milliseconds interval = std::chrono::milliseconds(100));

}  // namespace bankcheck
