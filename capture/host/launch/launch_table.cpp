#include "capture/host/launch/launch_table.hpp"

#include <fstream>
#include <stdexcept>

#include "capture/host/csv.hpp"
#include "capture/host/launch/launch_filter.hpp"

namespace bankcheck::capture {

namespace {
constexpr const char* kLaunchTableColumns[] = {"id",      "kernel",          "demangled",      "grid",   "block",
                                    "dynamic_shared_bytes", "records_written", "device_records", "status",
                                    "untraced", "trace", "graph_exec", "graph_launch", "graph_node"};
constexpr std::size_t kLaunchTableColumnCount = sizeof kLaunchTableColumns / sizeof kLaunchTableColumns[0];
/// Tables written before graph launches were traced end at "trace".
constexpr std::size_t kLaunchTableColumnsWithoutGraphs = kLaunchTableColumnCount - 3;

std::string header_line(std::size_t columns) {
  return csv_line(std::vector<std::string>(std::begin(kLaunchTableColumns), std::begin(kLaunchTableColumns) + columns));
}

std::string optional_text(const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : ""; }

std::optional<std::uint64_t> optional_count(const std::string& field, const char* what) {
  if (field.empty()) return std::nullopt;
  return parse_count(field, what);
}

std::array<std::uint32_t, 3> parse_dims(const std::string& text) {
  std::array<std::uint32_t, 3> d{};
  std::size_t from = 0;
  for (unsigned axis = 0; axis < 3; ++axis) {
    const std::size_t x = text.find('x', from);
    if ((axis < 2) != (x != std::string::npos)) throw std::invalid_argument("bad dimensions '" + text + "' (expected XxYxZ)");
    const std::uint64_t v = parse_count(text.substr(from, x == std::string::npos ? std::string::npos : x - from), "a dimension");
    if (v > 0xFFFFFFFFu) throw std::invalid_argument("dimension " + std::to_string(v) + " out of range");
    d[axis] = static_cast<std::uint32_t>(v);
    from = x + 1;
  }
  return d;
}
}  // namespace

std::string dims_text(const std::array<std::uint32_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string launch_table_header() { return header_line(kLaunchTableColumnCount); }

std::string launch_row_line(const LaunchRow& r) {
  return csv_line({std::to_string(r.id), r.kernel, r.demangled, dims_text(r.grid), dims_text(r.block),
                   r.dynamic_shared ? std::to_string(*r.dynamic_shared) : "", std::to_string(r.records_written),
                   optional_text(r.device_records), r.status, r.untraced, r.trace, optional_text(r.graph_exec),
                   optional_text(r.graph_launch), optional_text(r.graph_node)});
}

std::vector<LaunchRow> read_launch_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::string line;
  std::vector<LaunchRow> rows;
  std::size_t number = 0, columns = kLaunchTableColumnCount;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line + "\n" == header_line(kLaunchTableColumnsWithoutGraphs)) columns = kLaunchTableColumnsWithoutGraphs;
      else if (line + "\n" != launch_table_header())
        throw std::invalid_argument(path + ":1: not a launch table (header '" + line + "')");
      continue;
    }
    if (line.empty()) continue;
    try {
      const auto f = parse_csv_line(line);
      if (f.size() != columns)
        throw std::invalid_argument("expected " + std::to_string(columns) + " fields, got " + std::to_string(f.size()));
      LaunchRow r;
      r.id = parse_count(f[0], "id");
      r.kernel = f[1];
      r.demangled = f[2];
      r.grid = parse_dims(f[3]);
      r.block = parse_dims(f[4]);
      if (!f[5].empty()) r.dynamic_shared = parse_count(f[5], "dynamic_shared_bytes");
      r.records_written = parse_count(f[6], "records_written");
      r.device_records = optional_count(f[7], "device_records");
      r.status = f[8];
      r.untraced = f[9];
      r.trace = f[10];
      if (columns == kLaunchTableColumnCount) {
        r.graph_exec = optional_count(f[11], "graph_exec");
        r.graph_launch = optional_count(f[12], "graph_launch");
        r.graph_node = optional_count(f[13], "graph_node");
      }
      rows.push_back(std::move(r));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  if (number == 0) throw std::invalid_argument(path + ": empty (no header)");
  return rows;
}

}  // namespace bankcheck::capture
