#include "model/global_access.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace bankcheck {
namespace {

/// Distinct values of floor(byte / unit) over every byte the active lanes touch.
std::uint64_t distinct_units(const WarpRequest& r, std::uint64_t unit, std::vector<std::uint64_t>& scratch) {
  scratch.clear();
  for (std::uint64_t a : r.addr) {
    if (a == kInactive) continue;
    const std::uint64_t first = a / unit, last = (a + r.width - 1) / unit;
    for (std::uint64_t u = first; u <= last; ++u) scratch.push_back(u);
  }
  std::sort(scratch.begin(), scratch.end());
  return static_cast<std::uint64_t>(std::unique(scratch.begin(), scratch.end()) - scratch.begin());
}

}  // namespace

GlobalCost global_cost(const GlobalGeometry& g, const WarpRequest& r) {
  if (g.sector_bytes == 0 || g.line_bytes == 0 || g.page_elements == 0 || g.line_bytes % g.sector_bytes != 0)
    throw std::invalid_argument("global geometry: sector, line and page sizes must be >= 1, lines whole sectors");
  if (!is_valid_width(r.width)) throw std::invalid_argument("global request width must be 1, 2, 4, 8 or 16");
  thread_local std::vector<std::uint64_t> scratch;
  GlobalCost c;
  if (std::all_of(r.addr.begin(), r.addr.end(), [](std::uint64_t a) { return a == kInactive; })) return c;
  c.sectors = distinct_units(r, g.sector_bytes, scratch);
  c.lines = distinct_units(r, g.line_bytes, scratch);
  c.pages = distinct_units(r, std::uint64_t{g.page_elements} * r.width, scratch);
  // Ideal: the distinct bytes asked for, packed into whole sectors (lanes
  // reading one address share its bytes, as the hardware's broadcast does).
  const std::uint64_t bytes = distinct_units(r, 1, scratch);
  c.ideal_sectors = (bytes + g.sector_bytes - 1) / g.sector_bytes;
  return c;
}

}  // namespace bankcheck
