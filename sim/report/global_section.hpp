#pragma once
// The global-memory part of a report: gld/gst instructions are
// costed in sectors, lines and Karsin pages (model/global_access.hpp), never
// in wavefronts, so they get their own rows, section and JSON object
// (docs/results-schema.md, "Global memory"). A report without them prints
// nothing of this.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/results.hpp"

namespace bankcheck::report {

/// {"instructions", "loads", "stores", "lane_accesses", "sectors", "ideal_sectors", "excess_sectors", "lines", "pages"}.
nlohmann::ordered_json global_totals_json(const GlobalTotals& t);

/// An instruction row of a gld/gst. @pre row.global.
nlohmann::ordered_json global_instruction_json(const InstructionRow& row);
/// The same as a text row (the bank columns are "-") and a CSV row (scope global-instruction).
void write_global_instruction_text(std::ostream& out, const InstructionRow& row);
void write_global_instruction_csv(std::ostream& out, const InstructionRow& row);

/// The "global" JSON object: geometry, totals, sites. @pre r.global.instructions > 0.
nlohmann::ordered_json global_json(const Results& r);
/// The text section and the CSV rows (global-total, global-site); nothing when r has no global instruction.
void write_global_text(std::ostream& out, const Results& r);
void write_global_csv(std::ostream& out, const Results& r);

/// "no shared-memory access; N global instructions ...": the verdict of a global-only report.
std::string global_only_line(const Results& r);

}  // namespace bankcheck::report
