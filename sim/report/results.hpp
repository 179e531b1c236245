#pragma once
// Results: the one shape of a bank-cost report, shared by `replay`, `run`
// and the commands that add to them (compare, capture summaries). Writers
// (sim/report/results_writer.hpp) print it as text, JSON or CSV with the
// column names of docs/results-schema.md; schema_version changes whenever a
// field changes meaning or goes away (new fields keep the version).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/bank_model.hpp"
#include "model/shared_timing.hpp"
#include "sim/replay/cost_totals.hpp"
#include "sim/replay/global_totals.hpp"
#include "sim/replay/replay.hpp"
#include "sim/report/source_line.hpp"

namespace bankcheck::report {

/// 2: every row says whether it was costed (`modelled`); costs not known are null or empty, not 0.
/// 3: captured instructions carry their source line (`source`; CSV column `source` after `sass`).
inline constexpr int kSchemaVersion = 3;

/// Instructions of one access kind that the bank model does not cost: they
/// are counted here and never replayed as another kind.
struct UnmodelledCount {
  std::uint64_t instructions = 0;
  std::uint64_t lane_accesses = 0;
};
using Unmodelled = std::map<std::string, UnmodelledCount>;  ///< by kind ("atom", "ldsm", ...)

struct SiteRow {
  std::string site;  ///< "" for instructions without a site
  CostTotals totals;
  Unmodelled unmodelled;
  /// Where a site is one instruction (`capture --summary`): its kind and SASS; empty otherwise.
  std::string op;
  unsigned width = 0;
  std::string sass;
  /// A captured site's line info (a site of a capture is one instruction); none for other traces.
  std::optional<SourceLine> source;
};

/// One round of an algorithm: the k-th execution of a site in a phase, over all warps.
struct RoundRow {
  unsigned phase = 0;
  std::uint64_t k = 0;
  std::string site;
  CostTotals totals;
};

/// One warp instruction, with where to find it.
struct InstructionRow {
  std::uint64_t index = 0;   ///< 0-based position in the trace
  std::string location;      ///< "FILE:LINE" (text trace), "FILE:byte N" (binary), or the captured FUNCTION+0xOFFSET
  std::string site;
  std::string op;            ///< "ld", "st", ...
  unsigned width = 0;        ///< bytes per lane
  unsigned active = 0;       ///< active lanes
  RequestCost cost;
  std::vector<std::uint32_t> bank_words;  ///< words each bank served (BankModel::bank_words); empty unless asked
  std::string sass;          ///< the instruction's SASS text where known
  std::optional<SourceLine> source;  ///< a captured instruction's line info; none for other traces
  std::optional<GlobalCost> global;  ///< set for gld/gst: their sectors (then `cost` means nothing)
};

/// The keys that say which instruction a row is, in the result schema's order
/// (index, location, site, op, width, lane_accesses): the JSON views of a
/// shared-memory and of a global-memory row add their counts after them.
nlohmann::ordered_json instruction_identity_json(const InstructionRow& row);

/// One site's global-memory instructions (gld, gst).
struct GlobalSiteRow {
  std::string site;
  GlobalTotals totals;
};

/// The worst conflict: the first instruction of the highest degree, and the bank where it happens.
struct WorstRow {
  std::uint64_t index = 0;
  std::string location;
  std::string site;
  std::string op;
  unsigned width = 0;
  std::uint32_t degree = 0;
  unsigned bank = 0;                 ///< a bank where the conflict piles up
  std::vector<unsigned> lanes;       ///< the lanes whose words pile up there (none: a copy's stages, rule 6)
  std::vector<std::uint64_t> cells;  ///< those words (bank-word index)
  /// What piles up: distinct words, or lanes each its own pass (atomics).
  ConflictCulprit::Unit unit = ConflictCulprit::Unit::cells;
  std::optional<SourceLine> source;  ///< a captured instruction's line info
};

/// Why `row` cannot be a request's worst conflict under any rule, or "":
/// a degree below 2, lanes without words or words without lanes, more
/// words (or, for atomics, lanes) in the bank than the degree, one word
/// that conflicts with nothing, lanes out of order or outside a warp of
/// `warp` lanes (0: not checked), or no bank at all for a kind other than
/// a copy with its sources (whose stages, not a bank, make its cost).
/// The writers refuse such a row (std::logic_error) rather than print it.
std::string impossible_worst(const WorstRow& row, unsigned warp);

enum class Verdict : std::uint8_t {
  conflict_free,  ///< accesses were costed and none conflicts
  conflicts,      ///< at least one bank conflict
  no_accesses,    ///< nothing was costed (empty trace, no active lane, or a site with no instruction): no proof of anything
  not_all_modelled,  ///< no conflict among the costed instructions, but some were of kinds the model does not cost
  global_only,    ///< no shared-memory access, but global ones (gld, gst), costed in sectors
};

struct Results {
  std::string command;            ///< "replay", "run", ...
  std::string model;              ///< BankModel::name()
  std::string model_description;  ///< BankModel::describe()
  unsigned warp = 0;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();  ///< what was costed: [{"kind": "trace", "path": ...}, ...]
  std::vector<std::string> selected_sites;          ///< --site filter; empty: every site
  CostTotals totals;
  Unmodelled unmodelled;
  std::vector<SiteRow> sites;
  std::vector<RoundRow> rounds;   ///< run --per-round
  GlobalTotals global;            ///< gld/gst instructions (model/global_access.hpp); in no field above
  unsigned page_elements = 0;     ///< Karsin's page size in elements (the warp) the pages were counted in
  std::vector<GlobalSiteRow> global_sites;  ///< sites with global instructions
  std::optional<WorstRow> worst;
  std::optional<std::uint64_t> fail_on_conflicts;  ///< the CI gate's threshold, when set
  /// Text lines printed before the totals (what was costed, the model).
  std::vector<std::string> header;
  /// Text lines printed after the tables (a command's own findings: output check, prediction).
  std::vector<std::string> notes;
  /// The model's measured time per wavefront, when it has one (model/shared_timing.hpp).
  std::optional<SharedTiming> timing;
  /// Whether totals.fewer_on_kernel_counter was counted (replay): the
  /// kernel-level counter's wavefronts are then known and, where they differ,
  /// reported beside the per-instruction ones.
  bool kernel_counter_known = false;
  /// Command-specific fields merged into the JSON document's top level.
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
};

/// The verdict on totals: no_accesses when no active lane was costed.
Verdict verdict_of(const CostTotals& totals);
/// The verdict on results: as on their totals, except that conflict-free
/// becomes not_all_modelled when instructions were left unmodelled.
Verdict verdict_of(const Results& r);
/// Instructions of kinds the model does not cost, over every kind.
std::uint64_t unmodelled_instructions(const Results& r);
/// "conflict-free", "conflicts", "no-accesses", "not-all-modelled", "global-only" (the JSON value).
const char* verdict_name(Verdict v);

/// Whether the CI gate passes: conflicts <= threshold and nothing left unmodelled.
bool gate_passes(const Results& r);

/// The exit code the results call for: 2 when nothing was costed (an empty
/// trace proves nothing), 1 when the gate fails, else 0.
int exit_code_of(const Results& r);

/// The message that goes with exit_code_of's 2 or 1 (empty for 0).
std::string exit_reason(const Results& r);

/// The one-line verdict (without the "verdict: " prefix).
std::string verdict_line(const Results& r);

/// The worst instruction as a row naming the bank and lanes of its conflict under `model`.
/// @pre worst.present.
WorstRow worst_row(const BankModel& model, const WorstInstruction& worst, std::string location);

/// "0-3,8,10-11": sorted lanes as ranges.
std::string lane_ranges(const std::vector<unsigned>& lanes);

}  // namespace bankcheck::report
