#pragma once
// A binary trace's index (version 4, docs/trace-format.md "The index"): the
// bookmarks its writer took every kTraceIndexEvery instructions and every
// site's name, so that the threads of a parallel replay start at once
// instead of waiting for one thread to skim the whole file. Read here for
// its shape only; what it says about the records is checked by the readers
// that resume from it (sim/replay/parallel_replay.cpp), which fall back to
// reading the file in order when any bookmark is wrong.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace/trace_binary.hpp"

namespace bankcheck {

struct TraceIndex {
  std::vector<TraceBookmark> marks;  ///< the first before the first instruction; offsets increasing
  std::vector<std::string> sites;    ///< every site's name, in id order
  std::uint64_t index_offset = 0;    ///< where the index record starts: the records before it are the trace's
  std::uint64_t instructions = 0;    ///< the end record's count
};

/// The index of the binary trace at `path`, or nullopt when it has none
/// (versions 1 to 3, fewer than 2 bookmarks' worth of instructions, not a
/// regular file) or when the index is malformed. Never throws for a bad file.
std::optional<TraceIndex> read_trace_index(const std::string& path);

}  // namespace bankcheck
