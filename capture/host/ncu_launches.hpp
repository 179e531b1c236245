#pragma once
// Nsight Compute's list of profiled launches with their shapes, as
// `ncu -i REPORT --page raw --csv --metrics launch__grid_size` prints it:
// a header row naming "Kernel Name", "Grid Size" and "Block Size" (among
// others), maybe a row of units, then one row per profiled launch in
// profiling order, the sizes written "(x, y, z)". `compare --ncu-launches`
// checks each pairing of a captured launch with an ncu launch against it:
// the same function launched with another shape is another launch.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::capture {

struct NcuLaunchShape {
  std::string kernel;  ///< as ncu printed it (its --print-kernel-base)
  std::array<std::uint32_t, 3> grid{};
  std::array<std::uint32_t, 3> block{};
};

/// Parse the CSV text. @throws std::invalid_argument naming `name` and the line for malformed input.
std::vector<NcuLaunchShape> parse_ncu_launches(std::string_view text, const std::string& name);

}  // namespace bankcheck::capture
