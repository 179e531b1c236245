#pragma once
// Nsight Compute's per-instruction table, as `ncu --section SourceCounters
// --page source --print-source sass --csv` prints it: per profiled launch a
// block opened by a "Kernel Name" line (the demangled name), then a header
// line starting with "Address", then one row per SASS instruction with the
// absolute PC in "Address". An instruction's offset is its PC minus the
// block's first PC (the kernel's entry), which is how capture names sites.
// The page's blocks and the rule for ncu's copies of them are ncu_page.hpp's:
// by the page alone, copies are dropped only where every block is followed by
// an identical one (two genuinely identical launches stay two otherwise).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::capture {

struct NcuInstruction {
  std::uint64_t offset = 0;        ///< PC minus the block's first PC
  std::string sass;                ///< "Source", trimmed
  std::uint64_t executed = 0;      ///< "Instructions Executed" (warp-level)
  std::uint64_t wavefronts = 0;    ///< "L1 Wavefronts Shared"
  std::uint64_t ideal = 0;         ///< "L1 Wavefronts Shared Ideal"
  std::uint64_t sectors = 0;       ///< "L2 Theoretical Sectors Global" (0 where ncu leaves the column out)
  std::uint64_t ideal_sectors = 0; ///< "L2 Theoretical Sectors Global Ideal"
};

struct NcuLaunch {
  std::string kernel;  ///< as ncu prints it (demangled, or mangled with --print-kernel-base mangled)
  std::vector<NcuInstruction> instructions;
  std::uint64_t first_pc = 0;  ///< the first instruction's absolute address: branch targets in `sass` are absolute
  /// false: ncu printed the block without its counters (a launch that
  /// failed under the profiler, "==ERROR== LaunchFailed"): nothing measured.
  bool measured = true;
};

struct NcuSourceTable {
  std::vector<NcuLaunch> launches;
  bool deduplicated = false;  ///< every block was printed twice and the copies were dropped
};

/// Whether two blocks are the same to every counter: ncu's copy of a block.
bool same_block(const NcuLaunch& a, const NcuLaunch& b);

/// Parse the CSV text. @throws std::invalid_argument naming `name` and the line for malformed input
/// (missing columns, a row before any "Kernel Name", a bad number or address).
NcuSourceTable parse_ncu_source(std::string_view text, const std::string& name);

}  // namespace bankcheck::capture
