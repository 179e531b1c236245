#include "capture/host/ncu/ncu_launches.hpp"

#include <cctype>
#include <charconv>
#include <algorithm>
#include <stdexcept>

#include "capture/host/csv.hpp"

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
  std::vector<NcuLaunchShape> launches;
  int kernel = -1, grid = -1, block = -1;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] != '"') continue;  // ncu's ==PROF== lines and the program's output
    try {
      const auto f = parse_csv_line(line);
      if (kernel < 0) {
        for (int i = 0; i < static_cast<int>(f.size()); ++i) {
          if (f[i] == "Kernel Name") kernel = i;
          else if (f[i] == "Grid Size") grid = i;
          else if (f[i] == "Block Size") block = i;
        }
        if (kernel < 0 || grid < 0 || block < 0)
          throw std::invalid_argument("the first row names no \"Kernel Name\", \"Grid Size\" and \"Block Size\" "
                                      "(ncu -i REPORT --page raw --csv --metrics launch__grid_size)");
        continue;
      }
      const int need = std::max({kernel, grid, block});
      if (static_cast<int>(f.size()) <= need)
        throw std::invalid_argument("a row with " + std::to_string(f.size()) + " fields, the header has more");
      const std::string& g = f[grid];
      if (g.empty() || (g[0] != '(' && !std::isdigit(static_cast<unsigned char>(g[0]))))
        continue;  // the row of units under the header
      launches.push_back({f[kernel], parse_shape(f[grid], "Grid Size"), parse_shape(f[block], "Block Size")});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(name + ":" + std::to_string(line_no) + ": " + e.what());
    }
  }
  if (kernel < 0) throw std::invalid_argument(name + ": no header row with \"Kernel Name\", \"Grid Size\", \"Block Size\"");
  return launches;
}

std::size_t drop_copies_by_launch_list(NcuSourceTable& table, const std::vector<NcuLaunchShape>& launches) {
  std::vector<NcuLaunch> kept;
  std::size_t b = 0, dropped = 0;
  auto& blocks = table.launches;
  for (std::size_t l = 0; l < launches.size(); ++l) {
    if (b >= blocks.size() || blocks[b].kernel != launches[l].kernel)
      throw std::invalid_argument("the source page's block " + std::to_string(b) + " is not launch " + std::to_string(l) +
                                  " ('" + launches[l].kernel + "') of the launch list: export both from one report");
    kept.push_back(std::move(blocks[b]));
    ++b;
    const std::size_t launches_left = launches.size() - l - 1;
    if (b < blocks.size() && blocks.size() - b > launches_left && same_block(kept.back(), blocks[b])) {
      ++b;
      ++dropped;
    }
  }
  if (b != blocks.size())
    throw std::invalid_argument("the source page has " + std::to_string(blocks.size() - b) +
                                " blocks more than the launch list's " + std::to_string(launches.size()) + " launches");
  blocks = std::move(kept);
  table.deduplicated = table.deduplicated || dropped > 0;
  return dropped;
}

}  // namespace bankcheck::capture
