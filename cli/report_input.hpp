#pragma once
// What `bankcheck report` reads, gathered into the report's input
// (sim/html/report_document.hpp): a capture folder (full traces or
// --summary), a trace, or a results document, and a `compare --json` result
// joined onto a capture's instructions. The capture's files are read here,
// through the capture layer; the HTML layer gets plain results.
#include <string>

#include "model/bank_model.hpp"
#include "sim/html/report_document.hpp"

namespace bankcheck::cli {

/// A capture folder (OUT of `bankcheck capture`, with launches.csv): every captured launch's trace,
/// or its summary.csv, with the SASS and line info of sass.csv where it has one.
html::ReportInput capture_report_input(const std::string& dir, const BankModel& model);

/// A trace file (text or binary) or a results document (.json, docs/results-schema.md).
html::ReportInput file_report_input(const std::string& path, const BankModel& model);

/// Join `bankcheck compare --json` rows (kernel, offset) onto captured instructions: their verdicts
/// and ncu's counts. Instructions the comparison does not have keep no verdict; rows matching no
/// instruction are counted in a note. @throws std::invalid_argument for a file that is not compare's JSON.
void join_compare(html::ReportInput& input, const std::string& compare_json);

}  // namespace bankcheck::cli
