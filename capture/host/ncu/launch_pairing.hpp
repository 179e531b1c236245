#pragma once
// Which Nsight Compute launch measured which captured launch (`bankcheck
// compare`). The two runs are separate processes, so a launch is known by
// its function and its place among that function's launches, never by its
// base name alone (PyTorch launches many instantiations of one base name,
// `reduce_kernel`):
// - the function: the mangled name where ncu printed it (`ncu
//   --print-kernel-base mangled`), else the demangled identity
//   (capture/host/launch/kernel_name.hpp);
// - the place: where ncu profiled every launch of the function that the
//   program made (launches.csv lists them all, captured or not), the k-th
//   launch of the program is the k-th of ncu's; otherwise the captured
//   launches of the function meet ncu's in order, which is right when both
//   tools selected the same launches (docs/capture.md gives the recipe), and
//   a note says so;
// - the shape, where ncu's launch list is given (capture/host/ncu/ncu_launches.hpp):
//   grid and block must be equal;
// - the end: where the captured program ended early (it failed or was
//   stopped), ncu's run may hold more launches of a function than the
//   capture saw; with ncu's launch list (one entry per launch) the capture's
//   k-th launch is still ncu's k-th, and ncu's later ones were never captured.
// A launch that finds no partner is listed with the reason, never dropped.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/host/launch/launch_table.hpp"
#include "capture/host/ncu/ncu_launches.hpp"

namespace bankcheck::capture {

struct LaunchPair {
  std::uint64_t launch = 0;         ///< the capture's launch id
  std::optional<std::size_t> ncu;   ///< index of ncu's launch, or none
  std::string reason;               ///< why there is none
  bool shape_differs = false;       ///< none because ncu's launch in its place ran another grid or block
};

/// Whether ncu's name `ncu_name` is the function of the captured launch `row`.
bool same_function(const LaunchRow& row, const std::string& ncu_name);

/// Pair each launch of `wanted` (ids of rows of `table`, the capture's whole
/// launches.csv) with one of ncu's launches, named `ncu_names` in profiling
/// order; `shapes` (empty, or one per ncu launch, same names) checks grid
/// and block. Notes on pairings made in order go to `notes`. `ended_early`:
/// how the captured program ended when it ended early ("the program ended
/// early: exit 1"), empty when it ended normally.
/// @throws std::invalid_argument when `shapes` does not list ncu's launches.
std::vector<LaunchPair> pair_launches(const std::vector<LaunchRow>& table, const std::vector<std::uint64_t>& wanted,
                                      const std::vector<std::string>& ncu_names,
                                      const std::vector<NcuLaunchShape>& shapes, std::vector<std::string>& notes,
                                      const std::string& ended_early = "");

}  // namespace bankcheck::capture
