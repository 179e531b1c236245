#pragma once
// Replay on several cores. A binary trace in a regular file is cut into
// chunks at bookmarks (TraceBookmark): those of its index (format version 4,
// sim/trace/trace_index.hpp; each checked by the reader of its chunk), or,
// without one, those the calling thread finds by skimming the records
// (BinaryTraceReader::skip(): each checked, none handed out) while the other threads each open the file and replay whole chunks from
// their bookmarks; then it joins them. Any other trace is a stream: the calling thread
// reads records into batches and the other threads cost them. Each thread
// keeps its own per-site totals, unmodelled counts and worst instructions,
// merged at the end. Sums of integers do not depend on the order they are
// added in, and the worst instruction is the one of the highest degree with
// the lowest trace index, so the summary is identical to replay()'s for
// every thread count, and so is the error of a malformed file: the first in
// file order (tests/sim/replay/parallel_replay_test.cpp).
#include <cstdint>
#include <functional>

#include "sim/replay/replay.hpp"

namespace bankcheck {

/// Records per batch handed to a worker: large enough that the queue's
/// locking is negligible, small enough to keep every core busy near the end.
inline constexpr std::size_t kReplayBatchRecords = 4096;

/// Called from the reading thread with the number of records read so far.
using ReplayProgress = std::function<void(std::uint64_t records)>;

/// How the skim and the chunks of a binary file get at its bytes: read()
/// into a buffer each thread reuses, or mapped a window at a time (every
/// window mapped is a set of page faults and an unmap that interrupts every
/// core the process runs on), or the skim mapped and the chunks read. bench.replay measures the three.
enum class ChunkAccess : std::uint8_t { read, map, mapped_skim };

/// replay() on `threads` threads (threads <= 1: replay() itself, on this thread).
/// @pre nothing; as replay().
/// @post the result equals replay(source, model) for the same trace.
/// @throws as replay(): a reader's TraceError stops the workers and is rethrown here.
ReplaySummary replay_parallel(TraceSource& source, const BankModel& model, unsigned threads,
                              const ReplayProgress& progress = {}, ChunkAccess access = ChunkAccess::read);

}  // namespace bankcheck
