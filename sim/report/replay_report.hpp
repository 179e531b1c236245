#pragma once
// `bankcheck replay` as one library call: replay a trace through a model,
// stream the per-instruction rows (each naming where it is in the trace),
// and return the Results of the selected sites.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/results.hpp"
#include "sim/report/results_writer.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck::report {

/// "FILE:LINE" for a text trace, "FILE:byte N" for a binary one, "" without a position.
std::string location_of(const std::string& file, const RecordPosition& position);

/// "launch L block X,Y,Z warp W": where a captured instruction ran.
std::string captured_at(const TraceLocation& where);

/// The kind of an unmodelled access as reports name it: "atom 4", "ld 12", ...
std::string kind_name(Op op, unsigned width);

struct ReplayReportOptions {
  std::string trace_name;          ///< as shown in reports ("<stdin>" for '-')
  std::vector<std::string> sites;  ///< report only these sites (exact names); empty: all
  bool per_instruction = false;    ///< a row per instruction
  bool bank_words = false;         ///< rows carry the words each bank served (implies per_instruction)
  std::optional<std::uint64_t> fail_on_conflicts;
  /// The SASS text of a site, for captured traces (their sites are
  /// FUNCTION+0xOFFSET; capture writes sass.csv beside them); empty: none.
  std::function<std::string(const std::string& site)> sass_of;
  /// Worker threads for a report without instruction rows (sim/replay/parallel_replay.hpp);
  /// rows are written in trace order by one thread.
  unsigned threads = 1;
  /// Called on the results before they are written: lets a command that
  /// replays a trace of its own making (`bankcheck layout`) name itself and
  /// add its header lines and notes. Empty: the results are replay's.
  std::function<void(Results&)> amend;
  /// The line info of a captured site (from the same sass.csv); empty: rows carry no source.
  std::function<SourceLine(const std::string& site)> source_of;
};

/// Replay `source` through `model`, writing rows to `writer` as they come and
/// the summary at the end; returns what was written.
/// @throws as replay() does.
Results replay_report(TraceSource& source, const BankModel& model, const ReplayReportOptions& options,
                      ResultsWriter& writer, Progress& progress);

}  // namespace bankcheck::report
