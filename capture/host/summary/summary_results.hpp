#pragma once
// OUT/summary.csv of `capture --summary` as Results, the one versioned
// schema (docs/results-schema.md): one site row per instruction
// (FUNCTION+0xOFFSET, with its kind and SASS), added up over every launch,
// the worst record of all named by bank and lanes. What `bankcheck capture
// --summary` prints and writes to OUT/summary.json.
#include <functional>
#include <string>
#include <vector>

#include "capture/host/summary/instruction_summary.hpp"
#include "model/bank_model.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::capture {

/// A row's kept worst execution as the CPU model takes it: its lanes'
/// addresses and, for a copy, their sources (the copy's cost depends on
/// them: docs/bank-model.md, rule 6). @pre row.worst
WorstInstruction worst_instruction(const InstructionSummary& row);

/// @param sass_of the SASS text of a site ("" where unknown).
/// @param source_of the line info of a site (sass.csv); empty: the sites carry none.
/// Sites are ordered by conflicts, most first, then by name. The worst
/// records are re-costed on the CPU by `model`; a disagreement with the
/// device's count is reported in the notes (it would mean the two sides'
/// rules differ).
report::Results summary_results(const std::vector<InstructionSummary>& rows, const BankModel& model,
                                const std::function<std::string(const std::string&)>& sass_of,
                                const std::string& capture_dir,
                                const std::function<report::SourceLine(const std::string&)>& source_of = {});

}  // namespace bankcheck::capture
