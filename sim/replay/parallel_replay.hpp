#pragma once
// Replay on several cores. A trace is read in order (text and binary
// readers are streams), so the calling thread reads records into batches
// and worker threads cost them with the bank model; each worker keeps its
// own per-site totals, unmodelled counts and worst instructions, and the
// partial results are merged at the end. Sums of integers do not depend on
// the order they are added in, and the worst instruction is the one of the
// highest degree with the lowest trace index, so the summary is identical to
// replay()'s for every thread count (tests/sim/replay/parallel_replay_test.cpp).
#include <cstdint>
#include <functional>

#include "sim/replay/replay.hpp"

namespace bankcheck {

/// Records per batch handed to a worker: large enough that the queue's
/// locking is negligible, small enough to keep every core busy near the end.
inline constexpr std::size_t kReplayBatchRecords = 4096;

/// Called from the reading thread with the number of records read so far.
using ReplayProgress = std::function<void(std::uint64_t records)>;

/// replay() with `threads` workers besides the reading thread (threads <= 1:
/// replay() itself, on this thread).
/// @pre nothing; as replay().
/// @post the result equals replay(source, model) for the same trace.
/// @throws as replay(): a reader's TraceError stops the workers and is rethrown here.
ReplaySummary replay_parallel(TraceSource& source, const BankModel& model, unsigned threads,
                              const ReplayProgress& progress = {});

}  // namespace bankcheck
