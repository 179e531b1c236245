#pragma once
// `bankcheck replay DIR`: every trace of a folder (a capture's launches, an
// application's kernels) as one report, sites merged by name across files.
// Under an MPI launcher the files are split over the ranks
// (sim/parallel/cluster.hpp): each rank replays its contiguous share, rank 0
// gathers the partial summaries in rank order, which is file order, and
// merges them exactly as one process does, so the report is the same. A rank
// that fails sends its error; rank 0 then fails the run with it.
#include <optional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/parallel/cluster.hpp"
#include "sim/report/replay_report.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::report {

/// The trace files of `dir` that replay reads (*.trace, *.txt, *.bktrace, *.bin), sorted by name.
/// @throws std::invalid_argument when `dir` is no folder or holds no trace.
std::vector<std::string> trace_files(const std::string& dir);

/// Replay `files` as one report (o.per_instruction and o.bank_words are not
/// supported here: a folder gives totals and sites). On rank 0 the Results,
/// elsewhere nothing.
/// @throws std::invalid_argument / TraceError for a bad file (on rank 0, with the failing rank's message).
std::optional<Results> replay_directory(const std::string& dir, const std::vector<std::string>& files,
                                        const BankModel& model, const ReplayReportOptions& o,
                                        const Cluster& cluster);

}  // namespace bankcheck::report
