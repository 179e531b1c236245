#include "capture/host/ncu/ncu_launches.hpp"

#include <cctype>
#include <charconv>
#include <algorithm>
#include <stdexcept>

#include "capture/host/ncu/ncu_page.hpp"

namespace bankcheck::capture {

namespace {

/// "(128, 1, 1)" -> {128, 1, 1}: exactly three whole numbers.
std::array<std::uint32_t, 3> parse_shape(const std::string& text, const char* column) {
  std::array<std::uint32_t, 3> d{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (text[i] != '(' && text[i] != ')' && text[i] != ',' && text[i] != ' ' && text[i] != 'x')
        throw std::invalid_argument(std::string("bad ") + column + " '" + text + "' (expected \"(x, y, z)\")");
      ++i;
      continue;
    }
    std::uint32_t v = 0;
    const auto r = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (r.ec != std::errc{} || n == 3)
      throw std::invalid_argument(std::string("bad ") + column + " '" + text + "' (expected \"(x, y, z)\")");
    d[n++] = v;
    i = static_cast<std::size_t>(r.ptr - text.data());
  }
  if (n != 3) throw std::invalid_argument(std::string("bad ") + column + " '" + text + "' (expected \"(x, y, z)\")");
  return d;
}

}  // namespace

std::vector<NcuLaunchShape> parse_ncu_launches(std::string_view text, const std::string& name) {
  const NcuTable table = ncu_table_rows(ncu_page_rows(text, name), name);
  int kernel = -1, grid = -1, block = -1;
  const auto& h = table.header.cells;
  for (int i = 0; i < static_cast<int>(h.size()); ++i) {
    if (h[i] == "Kernel Name") kernel = i;
    else if (h[i] == "Grid Size") grid = i;
    else if (h[i] == "Block Size") block = i;
  }
  if (kernel < 0 || grid < 0 || block < 0)
    throw std::invalid_argument(name + ":" + std::to_string(table.header.line) +
                                ": the first row names no \"Kernel Name\", \"Grid Size\" and \"Block Size\" "
                                "(ncu -i REPORT --page raw --csv --metrics launch__grid_size)");
  std::vector<NcuLaunchShape> launches;
  for (const NcuRow& row : table.rows) {
    const auto& f = row.cells;
    try {
      if (static_cast<int>(f.size()) <= std::max({kernel, grid, block}))
        throw std::invalid_argument("a row with " + std::to_string(f.size()) + " fields, the header has more");
      launches.push_back({f[kernel], parse_shape(f[grid], "Grid Size"), parse_shape(f[block], "Block Size")});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(name + ":" + std::to_string(row.line) + ": " + e.what());
    }
  }
  return launches;
}

std::size_t drop_copies_by_launch_list(NcuSourceTable& table, const std::vector<NcuLaunchShape>& launches) {
  auto& blocks = table.launches;
  std::vector<std::string> block_kernels;
  for (const NcuLaunch& b : blocks) block_kernels.push_back(b.kernel);
  std::vector<std::optional<std::string>> launch_kernels;
  for (const NcuLaunchShape& l : launches) launch_kernels.emplace_back(l.kernel);
  const auto kept = blocks_of_launches(block_kernels, launch_kernels,
                                       [&](std::size_t a, std::size_t b) { return same_block(blocks[a], blocks[b]); });
  std::vector<NcuLaunch> once;
  for (std::size_t i : kept) once.push_back(std::move(blocks[i]));
  const std::size_t dropped = blocks.size() - once.size();
  blocks = std::move(once);
  table.deduplicated = table.deduplicated || dropped > 0;
  return dropped;
}

}  // namespace bankcheck::capture
