#pragma once
// What `bankcheck report` shows, gathered before it is drawn: the shared-
// memory instructions of a run, each with its kernel, SASS, source line,
// costs, the lanes of its worst execution and, where Nsight Compute was
// compared, its verdict. It is built from results the lower layers made (a
// replayed trace, a results document); the capture-specific lookups (a
// site's kernel, SASS, line) come in as functions, so this layer reads
// results and never a capture's files.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/bank_model.hpp"
#include "sim/replay/cost_totals.hpp"
#include "sim/replay/replay.hpp"
#include "sim/report/source_line.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck::html {

/// One shared-memory instruction (a site), over every execution the input holds.
struct ReportInstruction {
  std::string kernel;  ///< the kernel it belongs to (a trace's name where there is no kernel)
  std::string site;    ///< FUNCTION+0xOFFSET in a capture, the trace's site name otherwise
  std::string op;
  unsigned width = 0;
  std::string sass;
  std::optional<report::SourceLine> source;  ///< none: not a captured instruction
  CostTotals totals;                         ///< its costed executions
  std::uint64_t unmodelled = 0;              ///< executions the model does not cost
  WorstInstruction worst;                    ///< its worst execution (most excess wavefronts), where known
  std::string verdict;                       ///< compare's verdict text; empty without a comparison
  std::optional<std::uint64_t> measured_wavefronts;  ///< Nsight Compute's count, with a verdict
};

/// What the report is of and the instructions in it.
struct ReportInput {
  std::string title;  ///< what was reported (a capture folder, a trace, a results file)
  std::vector<ReportInstruction> instructions;
  std::map<std::string, std::uint64_t> launches;               ///< by kernel (absent: 1)
  std::map<std::string, std::vector<std::string>> kernel_notes;  ///< by kernel: not traced, incomplete, ...
  std::vector<std::string> notes;                              ///< for the whole report
};

/// The capture-specific lookups for a trace's sites; each may be empty.
struct SiteInfo {
  std::function<std::string(const std::string& site)> kernel_of;
  std::function<std::string(const std::string& site)> sass_of;
  std::function<report::SourceLine(const std::string& site)> source_of;
};

/// Replay `source` through `model` and add its shared-memory sites to `into` (the same kernel and site
/// already there: totals added, the worse worst execution kept). `name`: the kernel of sites that
/// `info.kernel_of` does not name.
void add_trace(std::vector<ReportInstruction>& into, TraceSource& source, const BankModel& model,
               const std::string& name, const SiteInfo& info);

/// The sites (and instructions, where present) of a results document (docs/results-schema.md), as
/// instructions of one kernel named `name`: they have no lanes, so no grid.
/// @throws std::invalid_argument for a document of another schema version or shape.
std::vector<ReportInstruction> instructions_of_results(const nlohmann::json& doc, const std::string& name);

}  // namespace bankcheck::html
