#pragma once
// The host side of `capture --summary` (docs/capture.md): the device table
// (capture/host/summary/summary_table.hpp) read back after a launch becomes one row
// per instruction (function + offset), the shards added up; rows go to
// OUT/summary.csv, one per (launch, instruction), and after the run their
// kinds are refined from the SASS as traces are (op_refinement.hpp).
// Standard library only: the injection library writes these rows.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "capture/host/summary/summary_table.hpp"
#include "model/warp_request.hpp"

namespace bankcheck::capture {

/// One cost column summed over an instruction's executions.
struct CostColumn {
  std::uint64_t unmodelled = 0;        ///< executions the rules do not cost
  std::uint64_t unmodelled_lanes = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal = 0;
  std::uint32_t degree = 0;
  bool operator==(const CostColumn&) const = default;
};

/// The execution with the most excess wavefronts (first kept of equals).
struct WorstRecord {
  std::array<std::uint32_t, 3> block{};
  std::uint32_t warp = 0;
  std::uint32_t mask = 0;        ///< lanes that took part
  std::uint32_t wavefronts = 0;  ///< as the device costed it
  std::uint32_t excess = 0;      ///< wavefronts - ideal, as the device costed it
  std::array<std::uint32_t, 32> addr{};
  std::optional<std::array<std::uint64_t, 32>> source;  ///< a copy's global sources
  bool operator==(const WorstRecord&) const = default;
};

struct InstructionSummary {
  std::uint64_t launch = 0;
  std::string site;              ///< FUNCTION+0xOFFSET, as in traces
  Op op = Op::load;
  unsigned width = 4;
  std::uint64_t executions = 0;  ///< warp executions, modelled or not
  std::uint64_t lanes = 0;       ///< active lanes over all executions
  CostColumn costs;
  std::optional<CostColumn> alt;  ///< the cost as alternative_op(op), until refined
  std::optional<WorstRecord> worst;
  std::optional<WorstRecord> alt_worst;  ///< the worst execution under `alt`, until refined
  bool operator==(const InstructionSummary&) const = default;
};

/// Rows of one launch from the device table (shards * capacity slots),
/// shards added up, sorted by site. Slots with an unknown pc get "?+0xPC".
std::vector<InstructionSummary> collect_summary(const SummarySlot* slots, std::uint64_t count, std::uint64_t launch,
                                                FunctionMap& functions);

/// The kind the SASS says the instruction is (refine_op), applied: an
/// atom.popc or cpasync.cg takes the alternative column, an atom.cas
/// costs twice an atom; the alternative column is dropped either way.
void refine_summary(InstructionSummary& row, const SassTable& sass);

std::string summary_table_header();
std::string summary_row_line(const InstructionSummary& row);
/// Read summary.csv. @throws std::invalid_argument naming the file and line for a malformed row.
std::vector<InstructionSummary> read_summary_table(const std::string& path);

}  // namespace bankcheck::capture
