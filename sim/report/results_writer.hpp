#pragma once
// Prints Results as text, JSON or CSV (docs/results-schema.md). Rows of a
// per-instruction report are streamed as they come (text and CSV write them
// at once, JSON writes them into its "instructions" array), so a long trace
// needs no memory per instruction; the summary follows at finish().
#include <cstdint>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/results.hpp"

namespace bankcheck::report {

enum class Format : std::uint8_t { text, json, csv };

/// The CSV header of schema 3: every row is the cost of one scope (an
/// instruction, a site, a round, the total) under the same column names as
/// JSON, and ends with whether each of the scope's instructions was costed.
inline constexpr const char* kCsvHeader =
    "scope,site,index,location,op,width,phase,k,instructions,lane_accesses,wavefronts,ideal,conflicts,"
    "worst_degree,bank_words,sass,source,modelled,unmodelled_instructions";

/// A row's `source` cell: its line info as text, "no line info", or empty (not a captured instruction).
std::string source_cell(const std::optional<SourceLine>& s);

/// JSON of totals: the CostTotals fields (null where nothing was costed but
/// something was left unmodelled), `modelled` and `unmodelled` by kind.
nlohmann::ordered_json totals_json(const CostTotals& t, const Unmodelled& unmodelled = {});
nlohmann::ordered_json instruction_json(const InstructionRow& row);
nlohmann::ordered_json worst_json(const WorstRow& row);

/// A site as the text tables show it: "(none)" for instructions without one.
std::string display_site(const std::string& s);

class ResultsWriter {
 public:
  /// `per_instruction`: the report has an instruction table (possibly empty).
  ResultsWriter(std::ostream& out, Format format, bool per_instruction);

  /// One instruction row, written now (text, CSV) or into the JSON array.
  void instruction(const InstructionRow& row);
  /// The summary. @pre called once, after every instruction().
  void finish(const Results& results);

 private:
  void start();
  void finish_text(const Results& r);
  void finish_csv(const Results& r);
  void finish_json(const Results& r);

  std::ostream& out_;
  Format format_;
  bool per_instruction_;
  bool started_ = false;
  std::uint64_t rows_ = 0;
};

}  // namespace bankcheck::report
