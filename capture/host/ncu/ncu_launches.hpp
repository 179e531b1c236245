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

#include "capture/host/ncu/ncu_table.hpp"

namespace bankcheck::capture {

struct NcuLaunchShape {
  std::string kernel;  ///< as ncu printed it (its --print-kernel-base)
  std::array<std::uint32_t, 3> grid{};
  std::array<std::uint32_t, 3> block{};
};

/// Parse the CSV text. @throws std::invalid_argument naming `name` and the line for malformed input.
std::vector<NcuLaunchShape> parse_ncu_launches(std::string_view text, const std::string& name);

/// ncu 2025.3 prints most source-page blocks twice in a row, but not all
/// (cuDNN's sm90 attention kernels once, H100, 2026-11-26), so the copies
/// cannot be told from launches by the page alone: with the launch list,
/// each launch takes the next block of its name, and a block identical to
/// the one before it is a copy while more blocks than launches remain.
/// @return the number of copies dropped.
/// @throws std::invalid_argument when the blocks cannot be matched to the list in order.
std::size_t drop_copies_by_launch_list(NcuSourceTable& table, const std::vector<NcuLaunchShape>& launches);

}  // namespace bankcheck::capture
