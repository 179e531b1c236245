#include "capture/host/ncu/ncu_page.hpp"

#include <stdexcept>

#include "capture/host/csv.hpp"

namespace bankcheck::capture {

namespace {

std::string at_line(const std::string& name, std::size_t line, const std::string& what) {
  return name + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

std::vector<NcuRow> ncu_page_rows(std::string_view text, const std::string& name) {
  std::vector<NcuRow> rows;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.empty() || line[0] != '"') continue;  // ncu's ==PROF== lines and the program's output
    try {
      rows.push_back({line_no, parse_csv_line(line)});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(at_line(name, line_no, e.what()));
    }
  }
  return rows;
}

NcuTable ncu_table_rows(std::vector<NcuRow> rows, const std::string& name) {
  if (rows.empty()) throw std::invalid_argument(name + ": no header row (the page has no quoted line)");
  NcuTable table{std::move(rows.front()), {}};
  const bool units = rows.size() > 1 && !rows[1].cells.empty() && rows[1].cells[0].empty();
  table.rows.assign(std::make_move_iterator(rows.begin() + (units ? 2 : 1)), std::make_move_iterator(rows.end()));
  return table;
}

const std::string& NcuBlock::kernel_name() const {
  static const std::string none;
  return kernel.cells.size() > 1 ? kernel.cells[1] : none;
}

std::vector<NcuBlock> ncu_source_blocks(const std::vector<NcuRow>& rows, const std::string& name) {
  std::vector<NcuBlock> blocks;
  for (const NcuRow& row : rows) {
    if (row.cells.empty()) continue;
    if (row.cells[0] == "Kernel Name") {
      blocks.push_back({row, std::nullopt, {}});
    } else if (row.cells[0] == "Address") {
      if (blocks.empty()) throw std::invalid_argument(at_line(name, row.line, "a header line before any \"Kernel Name\" line"));
      blocks.back().header = row;
    } else {
      if (blocks.empty() || !blocks.back().header)
        throw std::invalid_argument(at_line(name, row.line, "an instruction row before the \"Address\" header line"));
      blocks.back().rows.push_back(row);
    }
  }
  return blocks;
}

std::vector<std::size_t> blocks_without_copies(std::size_t blocks, const SameBlock& same) {
  bool pairs = blocks > 0 && blocks % 2 == 0;
  for (std::size_t i = 0; pairs && i < blocks; i += 2) pairs = same(i, i + 1);
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < blocks; i += pairs ? 2 : 1) kept.push_back(i);
  return kept;
}

std::vector<std::size_t> blocks_of_launches(const std::vector<std::string>& block_kernels,
                                            const std::vector<std::optional<std::string>>& launch_kernels,
                                            const SameBlock& same) {
  std::vector<std::size_t> kept;
  const std::size_t blocks = block_kernels.size(), launches = launch_kernels.size();
  std::size_t b = 0;
  for (std::size_t l = 0; l < launches; ++l) {
    const auto& named = launch_kernels[l];
    if (b >= blocks || (named && block_kernels[b] != *named))
      throw std::invalid_argument("the source page's block " + std::to_string(b) + " is not launch " + std::to_string(l) +
                                  (named ? " ('" + *named + "')" : std::string()) +
                                  " of the launch list: export both from one report");
    kept.push_back(b++);
    const std::size_t launches_left = launches - l - 1;
    if (b < blocks && blocks - b > launches_left && same(kept.back(), b)) ++b;
  }
  if (b != blocks)
    throw std::invalid_argument("the source page has " + std::to_string(blocks - b) + " blocks more than the launch list's " +
                                std::to_string(launches) + " launches");
  return kept;
}

}  // namespace bankcheck::capture
