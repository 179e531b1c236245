#include "sim/layout/layout_explanation.hpp"

#include <algorithm>

namespace bankcheck::layout {
namespace {

std::string element_text(const LayoutAccess& a, const LaneElement& e) {
  return (a.tiles > 1 ? "tile " + std::to_string(e.tile) + " " : std::string()) + "(" + std::to_string(e.row) + "," +
         std::to_string(e.col) + ")";
}

}  // namespace

std::vector<std::string> describe_access(const LayoutAccess& a) {
  const unsigned per_lane = a.access.bytes / a.element.bytes;
  const std::string unit = !a.layout.swizzle ? ""
                           : a.layout.unit == SwizzleUnit::byte ? ", swizzle on byte addresses"
                                                                : ", swizzle on element offsets";
  std::vector<std::string> out;
  out.push_back("layout " + a.layout.text());
  out.push_back("        " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " elements of " + a.element.name +
                " (" + std::to_string(a.element.bytes) + " bytes)" +
                (a.tiles > 1 ? ", " + std::to_string(a.tiles) + " tiles (mode 2)" : std::string(", 1 tile")) + unit);
  out.push_back("access " + a.access.name() + " (trace op " + std::string(op_name(a.access.op())) + " " +
                std::to_string(a.access.bytes) + "): " + std::to_string(per_lane) + " element" +
                (per_lane == 1 ? "" : "s") + " per lane along mode " + std::to_string(a.along) +
                (a.along == 1 ? " (columns)" : " (rows)") + ", " + std::to_string(a.instructions.size()) +
                " warp instructions (docs/layout.md gives their order)");
  return out;
}

std::pair<unsigned, unsigned> phase_of(const LayoutAccess& a, std::size_t index, const std::vector<unsigned>& lanes) {
  (void)index;
  unsigned block = std::clamp(128u / a.access.bytes, 1u, kLayoutWarp);
  if (a.access.is_matrix()) block = 8;
  if (lanes.empty()) return {0, block - 1};
  const unsigned lo = *std::min_element(lanes.begin(), lanes.end());
  const unsigned hi = *std::max_element(lanes.begin(), lanes.end());
  while (block < kLayoutWarp && lo / block != hi / block) block *= 2;
  return {lo / block * block, lo / block * block + block - 1};
}

std::vector<std::string> explain_conflict(const LayoutAccess& a, const BankGeometry& geometry, std::size_t index,
                                          const std::vector<unsigned>& lanes, unsigned bank) {
  const LayoutInstruction& ins = a.instructions.at(index);
  const auto [first, last] = phase_of(a, index, lanes);
  std::string phase = "lanes " + std::to_string(first) + "-" + std::to_string(last) + " form one phase";
  if (a.access.is_matrix()) phase += " (matrix " + std::to_string(first / 8) + " of " + a.access.name() + ")";
  std::vector<std::string> out;
  out.push_back("worst instruction " + ins.site + ": " + phase + "; the lanes whose words meet in bank " +
                std::to_string(bank) + ":");
  const std::uint64_t cell = geometry.bank_bytes ? geometry.bank_bytes : ins.width;
  const auto bank_of = [&](std::uint64_t byte) { return std::to_string(byte / cell % geometry.banks); };
  for (unsigned l : lanes) {
    if (l >= ins.addr.size() || ins.addr[l] == kInactive) continue;
    out.push_back("  lane " + std::to_string(l) + "  element " + element_text(a, ins.lanes[l]) + "  bytes " +
                  std::to_string(ins.addr[l]) + "-" + std::to_string(ins.addr[l] + ins.width - 1) + "  banks " +
                  bank_of(ins.addr[l]) + "-" + bank_of(ins.addr[l] + ins.width - 1));
  }
  return out;
}

}  // namespace bankcheck::layout
