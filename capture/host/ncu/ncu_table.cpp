#include "capture/host/ncu/ncu_table.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "capture/host/ncu/ncu_page.hpp"

namespace bankcheck::capture {

namespace {

std::uint64_t number(const std::string& text, const char* column) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ') digits += c;  // ncu may group thousands
  if (digits.empty() || digits == "-") return 0;
  std::uint64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, 10);
  if (r.ec != std::errc{} || r.ptr != digits.data() + digits.size())
    throw std::invalid_argument(std::string("bad number '") + text + "' in column \"" + column + "\"");
  return v;
}

std::uint64_t address(const std::string& text) {
  std::string_view t = text;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  std::uint64_t v = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  if (t.empty() || r.ec != std::errc{} || r.ptr != t.data() + t.size())
    throw std::invalid_argument("bad address '" + text + "' (expected 0x-hex)");
  return v;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

bool same_block(const NcuLaunch& a, const NcuLaunch& b) {
  if (a.kernel != b.kernel || a.measured != b.measured || a.instructions.size() != b.instructions.size()) return false;
  for (std::size_t i = 0; i < a.instructions.size(); ++i) {
    const auto &x = a.instructions[i], &y = b.instructions[i];
    if (x.offset != y.offset || x.sass != y.sass || x.executed != y.executed || x.wavefronts != y.wavefronts ||
        x.ideal != y.ideal || x.sectors != y.sectors || x.ideal_sectors != y.ideal_sectors)
      return false;
  }
  return true;
}


namespace {

/// Where the source page's columns are (-1: absent).
struct Columns {
  int address = -1, source = -1, executed = -1, wavefronts = -1, ideal = -1, sectors = -1, ideal_sectors = -1;
  bool samples_only = false;  ///< a launch that failed under the profiler: its listing and samples, no counters
};

/// The columns of an "Address" header line, checked.
Columns header_columns(const std::vector<std::string>& f) {
  Columns col;
  for (int i = 0; i < static_cast<int>(f.size()); ++i) {
    if (f[i] == "Address") col.address = i;
    else if (f[i] == "Source") col.source = i;
    else if (f[i] == "Instructions Executed") col.executed = i;
    else if (f[i] == "L1 Wavefronts Shared") col.wavefronts = i;
    else if (f[i] == "L1 Wavefronts Shared Ideal") col.ideal = i;
    else if (f[i] == "L2 Theoretical Sectors Global") col.sectors = i;
    else if (f[i] == "L2 Theoretical Sectors Global Ideal") col.ideal_sectors = i;
  }
  if ((col.sectors < 0) != (col.ideal_sectors < 0))
    throw std::invalid_argument("the header has one of \"L2 Theoretical Sectors Global\" and its \"Ideal\" "
                                "but not the other");
  // ncu leaves the shared-memory columns out of a kernel that has no
  // shared-memory instruction (CUB's merge-path partition kernel, for
  // one): there every instruction's shared wavefronts are 0.
  if ((col.wavefronts < 0) != (col.ideal < 0))
    throw std::invalid_argument("the header has one of \"L1 Wavefronts Shared\" and its \"Ideal\" but not "
                                "the other");
  if (col.source < 0 || col.address < 0)
    throw std::invalid_argument("the header has no \"Address\" and \"Source\" columns (run ncu with --section "
                                "SourceCounters --page source --print-source sass --csv)");
  // A launch that failed under the profiler keeps its listing and its
  // warp-state samples, and loses its counters (seen with ncu 2025.3, H100).
  const bool samples = std::find(f.begin(), f.end(), "Warp Stall Sampling (All Samples)") != f.end();
  col.samples_only = samples && col.executed < 0 && col.wavefronts < 0 && col.sectors < 0;
  if (!col.samples_only && col.executed < 0)
    throw std::invalid_argument("the header has no \"Instructions Executed\" column (run ncu with --section "
                                "SourceCounters --page source --print-source sass --csv)");
  return col;
}

/// One instruction row into the launch's list (offsets from the block's first address).
void add_instruction(NcuLaunch& launch, const std::vector<std::string>& f, const Columns& col) {
  const int need =
      std::max({col.address, col.source, col.executed, col.wavefronts, col.ideal, col.sectors, col.ideal_sectors});
  if (static_cast<int>(f.size()) <= need)
    throw std::invalid_argument("a row with " + std::to_string(f.size()) + " fields, the header has more");
  const std::uint64_t pc = address(f[col.address]);
  if (launch.instructions.empty()) launch.first_pc = pc;
  if (pc < launch.first_pc) throw std::invalid_argument("address below the block's first address");
  const bool shared = col.wavefronts >= 0;
  launch.instructions.push_back({pc - launch.first_pc, trim(f[col.source]),
                                 number(f[col.executed], "Instructions Executed"),
                                 shared ? number(f[col.wavefronts], "L1 Wavefronts Shared") : 0,
                                 shared ? number(f[col.ideal], "L1 Wavefronts Shared Ideal") : 0,
                                 col.sectors >= 0 ? number(f[col.sectors], "L2 Theoretical Sectors Global") : 0,
                                 col.ideal_sectors >= 0
                                     ? number(f[col.ideal_sectors], "L2 Theoretical Sectors Global Ideal")
                                     : 0});
}

}  // namespace

NcuSourceTable parse_ncu_source(std::string_view text, const std::string& name) {
  NcuSourceTable table;
  for (const NcuBlock& block : ncu_source_blocks(ncu_page_rows(text, name), name)) {
    NcuLaunch& launch = table.launches.emplace_back(NcuLaunch{block.kernel_name(), {}});
    if (!block.header) continue;
    std::size_t line = block.header->line;
    try {
      const Columns col = header_columns(block.header->cells);
      launch.measured = !col.samples_only;
      for (const NcuRow& row : block.rows) {
        line = row.line;
        if (launch.measured) add_instruction(launch, row.cells, col);
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + e.what());
    }
  }
  const auto kept = blocks_without_copies(table.launches.size(), [&](std::size_t a, std::size_t b) {
    return same_block(table.launches[a], table.launches[b]);
  });
  if (kept.size() < table.launches.size()) {
    std::vector<NcuLaunch> once;
    for (std::size_t i : kept) once.push_back(std::move(table.launches[i]));
    table.launches = std::move(once);
    table.deduplicated = true;
  }
  return table;
}

}  // namespace bankcheck::capture
