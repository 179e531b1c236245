#pragma once
// GlobalTotals: the accumulator of global-memory costs (model/global_access.hpp)
// over a set of gld/gst instructions (a trace, a site, a run). Like CostTotals
// every sum is checked: a total that would pass 2^64-1 throws, never wraps.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/global_access.hpp"

namespace bankcheck {

/// @post ideal_sectors <= sectors; loads + stores == instructions.
struct GlobalTotals {
  std::uint64_t instructions = 0;
  std::uint64_t loads = 0;          ///< gld instructions (the rest are gst and gatom)
  std::uint64_t lane_accesses = 0;  ///< active lanes summed over the instructions
  std::uint64_t sectors = 0;        ///< 32-byte sectors, Nsight Compute's "L2 Theoretical Sectors Global"
  std::uint64_t ideal_sectors = 0;  ///< the fewest sectors the same bytes need ("... Global Ideal")
  std::uint64_t lines = 0;          ///< 128-byte lines
  std::uint64_t pages = 0;          ///< Karsin's aligned pages of w elements (2015, Sec. 4.2.1)

  std::uint64_t excess_sectors() const { return sectors - ideal_sectors; }

  /// Add one instruction, executed `times` times. @throws std::overflow_error instead of wrapping.
  void add(bool load, unsigned active, const GlobalCost& c, std::uint64_t times = 1) {
    checked(instructions, times, "global instructions");
    checked(loads, load ? times : 0, "global loads");
    checked(lane_accesses, product(active, times, "global lane accesses"), "global lane accesses");
    add_costs(product(c.sectors, times, "sectors"), product(c.ideal_sectors, times, "ideal sectors"),
              product(c.lines, times, "lines"), product(c.pages, times, "pages"));
  }
  /// @throws std::overflow_error instead of wrapping.
  GlobalTotals& operator+=(const GlobalTotals& o) {
    checked(instructions, o.instructions, "global instructions");
    checked(loads, o.loads, "global loads");
    checked(lane_accesses, o.lane_accesses, "global lane accesses");
    add_costs(o.sectors, o.ideal_sectors, o.lines, o.pages);
    return *this;
  }
  bool operator==(const GlobalTotals&) const = default;

 private:
  void add_costs(std::uint64_t s, std::uint64_t i, std::uint64_t l, std::uint64_t p) {
    checked(sectors, s, "sectors");
    checked(ideal_sectors, i, "ideal sectors");
    checked(lines, l, "lines");
    checked(pages, p, "pages");
  }
  static std::uint64_t product(std::uint64_t value, std::uint64_t times, const char* what) {
    std::uint64_t p;
    if (__builtin_mul_overflow(value, times, &p))
      throw std::overflow_error(std::string("global totals: ") + what + " exceed 2^64-1");
    return p;
  }
  static void checked(std::uint64_t& total, std::uint64_t value, const char* what) {
    if (__builtin_add_overflow(total, value, &total))
      throw std::overflow_error(std::string("global totals: ") + what + " exceed 2^64-1");
  }
};

/// The geometry replay costs a warp of `warp` lanes in: the H100's 32-byte
/// sectors and 128-byte lines, and Karsin's pages of w = warp elements.
inline GlobalGeometry replay_global_geometry(unsigned warp) { return GlobalGeometry{32, 128, warp}; }

}  // namespace bankcheck
