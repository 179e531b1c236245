#pragma once
// The papers' picture of shared memory: a grid with one row per bank and one
// column per row of shared memory (cell c sits in bank c mod w, column
// c div w), each cell labelled by its address or by the thread that touches
// it, the cells one round touches highlighted, those in a conflicting bank in
// red. SPAA 2025 Figures 1-4 and HiPC 2015 Figures 4-6 are such grids.
//
// Data flow stays one way: the grid is built from recorded warp instructions
// (what an algorithm issued) and the bank model's geometry and cost; it knows
// nothing of the algorithm that produced them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/bank_model.hpp"
#include "model/warp_request.hpp"
#include "sim/algorithms/block_recorder.hpp"

namespace bankcheck {

/// One warp instruction with the round it belongs to (a round = one
/// (phase, site, k) instruction group of the block recorder, numbered 0, 1, ...
/// in issue order) and the warp that issued it.
struct GridInstruction {
  std::size_t round = 0;
  unsigned warp_index = 0;               ///< warp within the block; thread = warp_index * warp + lane
  std::string site;                      ///< e.g. "merge.gather_a"; cells are tinted by site
  Op op = Op::load;
  unsigned width = 4;                    ///< bytes per lane
  std::vector<std::uint64_t> addr;       ///< byte address per lane, kInactive if idle
};

/// Collects one block of a BlockRecorder run as GridInstructions; a round is
/// one (phase, site, k) of the recorder (the k-th execution of a site in a
/// phase, over all warps: the registry's RoundCost), numbered in the order the
/// rounds first issue. Instructions of other blocks are ignored.
class GridRecorder final : public InstructionListener {
 public:
  explicit GridRecorder(std::uint64_t block = 0) : block_(block) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override;
  const std::vector<GridInstruction>& trace() const { return trace_; }
  struct Round {
    unsigned phase = 0;
    unsigned site = 0;
    std::uint64_t k = 0;
    std::string name;  ///< the site's qualified name
    bool operator==(const Round& o) const { return phase == o.phase && site == o.site && k == o.k; }
  };
  const std::vector<Round>& rounds() const { return rounds_; }

 private:
  std::uint64_t block_;
  std::vector<GridInstruction> trace_;
  std::vector<Round> rounds_;
};

enum class GridLabel : std::uint8_t { address, thread };

/// What a cell shows in the chosen round.
enum class CellState : std::uint8_t {
  unused,     ///< no instruction of the trace touches it
  touched,    ///< touched in some other round (tinted by its site)
  accessed,   ///< touched in the chosen round, bank conflict-free there (green)
  conflict,   ///< touched in the chosen round, in a bank holding >= 2 distinct cells of one instruction (red)
};

struct GridCell {
  /// The label: cell index, or thread id(s): those touching it in the round; else those
  /// touching it through the round's sites in other rounds; else blank.
  std::string text;
  CellState state = CellState::unused;
  int region = -1;         ///< index into BankGrid::regions: the site that first touched it; -1 if unused
};

/// @post cells.size() == banks * columns; cell (bank b, column c) is cells[b * columns + c]
///       and holds shared-memory cell (first_column + c) * banks + b.
struct BankGrid {
  unsigned banks = 0;
  std::uint64_t columns = 0;
  std::uint64_t first_column = 0;     ///< column 0 of the grid is shared-memory column first_column
  std::vector<GridCell> cells;
  std::vector<std::string> regions;   ///< site names, in order of first touch
  std::string title;
  std::size_t rounds = 0;             ///< rounds in the trace
  std::uint64_t round_wavefronts = 0; ///< bank-model cost of the chosen round(s)
  std::uint64_t round_conflicts = 0;
  bool state_legend = true;

  const GridCell& at(unsigned bank, std::uint64_t column) const { return cells[bank * columns + column]; }
};

struct BankGridOptions {
  /// The round to highlight; kAllRounds highlights every round (a summary picture
  /// such as SPAA Figure 4, whose red cells gather the conflicts of all rounds).
  std::size_t round = 0;
  static constexpr std::size_t kAllRounds = ~std::size_t{0};
  /// If non-empty, overrides `round`: round r is highlighted iff r < size and rounds[r]
  /// (e.g. every round of one phase).
  std::vector<bool> rounds;
  GridLabel label = GridLabel::address;
  /// Only instructions of this warp are drawn (the papers draw one warp); kAllWarps draws all.
  unsigned warp_index = 0;
  static constexpr unsigned kAllWarps = ~0u;
  std::string title;
  /// The first shared-memory cell drawn, rounded down to a whole column (a
  /// picture of a tile far into shared memory need not draw the empty cells
  /// below it); cells keep their addresses.
  std::uint64_t first_cell = 0;
  /// Whether the legend names the round's states ("accessed this round",
  /// "bank conflict"); off for a picture that highlights no round.
  bool state_legend = true;
};

/// Build the grid. Cells are the model's cells: addr / width when the model has one
/// element per cell (dmm), addr / bank_bytes otherwise.
/// @throws std::invalid_argument if the round does not exist (naming the range) or the
///         trace has no instruction.
BankGrid build_bank_grid(const BankModel& model, const std::vector<GridInstruction>& trace,
                         const BankGridOptions& options);

/// The grid as text, one line per bank ("b: cell cell ..."), conflict cells marked
/// with '*' and accessed ones with '+': for terminals and tests.
std::string grid_text(const BankGrid& grid);

/// The grid as a Graphviz graph (one node whose HTML-like label is the table).
std::string grid_dot(const BankGrid& grid);

/// Render through Graphviz (libgvc) to `path`, written atomically; the format
/// is the extension: .svg, .png or .dot.
/// @throws std::invalid_argument on another extension or a path that cannot be
///         created (naming it and why), std::runtime_error on a Graphviz or write failure.
void render_bank_grid(const BankGrid& grid, const std::string& path);

}  // namespace bankcheck
