#pragma once
// Nsight Compute's CSV pages as rows and blocks, and which blocks are ncu's
// copies: the one reader of the pages' structure. ncu_table.hpp and
// ncu_launches.hpp read their columns from it, and the Python module hands
// it to validate/'s scripts (validate/harness/ncu_csv.py).
//
// Every table line ncu writes is a quoted CSV row; its own messages
// (==PROF==, ==WARNING==) and the profiled program's output share stdout
// with them and are dropped. A table page (`--page raw`, or the details
// page's long form) is a header row, maybe a row of units under it (its
// first cell empty), then one row per launch or metric. The source page
// (`--page source --print-source sass`) holds per profiled launch a block:
// a "Kernel Name" row, a header row opened by "Address", then one row per
// SASS instruction.
//
// ncu 2025.3 prints most source-page blocks twice in a row, but not all
// (cuDNN's sm90 attention kernels once, H100, 2026-11-26), so copies cannot
// be told from launches by the page alone. Without the launch list, the
// copies go only where every block is followed by an identical one (two
// genuinely identical launches stay two otherwise); with it, each launch
// takes the next block (of its name, where the list names it), and a block
// identical to the one before it is a copy while more blocks than launches
// remain.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::capture {

struct NcuRow {
  std::size_t line = 0;  ///< 1-based, in the page's text
  std::vector<std::string> cells;
};

/// The quoted rows of a page, in page order.
/// @throws std::invalid_argument naming `name` and the line of a row that is not CSV.
std::vector<NcuRow> ncu_page_rows(std::string_view text, const std::string& name);

struct NcuTable {
  NcuRow header;
  std::vector<NcuRow> rows;  ///< the rows under the header, its row of units left out
};

/// A table page's header and rows. @throws std::invalid_argument naming `name` where it has no row.
NcuTable ncu_table_rows(std::vector<NcuRow> rows, const std::string& name);

struct NcuBlock {
  NcuRow kernel;                 ///< the "Kernel Name" row: the name is cells[1] ("" where missing)
  std::optional<NcuRow> header;  ///< the "Address" row
  std::vector<NcuRow> rows;      ///< one per SASS instruction
  const std::string& kernel_name() const;
};

/// A source page's blocks, in page order.
/// @throws std::invalid_argument naming `name` and the line of a row outside any block or
///         above its block's header.
std::vector<NcuBlock> ncu_source_blocks(const std::vector<NcuRow>& rows, const std::string& name);

/// Whether block `a` and block `b` (indices) are the same to every counter.
using SameBlock = std::function<bool(std::size_t a, std::size_t b)>;

/// The blocks to keep, by the page alone: every other one where each block is
/// followed by one the same, else all of them.
std::vector<std::size_t> blocks_without_copies(std::size_t blocks, const SameBlock& same);

/// The block each launch of the launch list takes, in order. `block_kernels`
/// are the blocks' kernel names; `launch_kernels` each launch's, or nullopt
/// where the list does not name it (then order and count alone pair them).
/// @throws std::invalid_argument when the blocks cannot be matched to the list in order.
std::vector<std::size_t> blocks_of_launches(const std::vector<std::string>& block_kernels,
                                            const std::vector<std::optional<std::string>>& launch_kernels,
                                            const SameBlock& same);

}  // namespace bankcheck::capture
