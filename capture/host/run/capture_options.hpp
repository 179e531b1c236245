#pragma once
// What `bankcheck capture` tells the injection library it loads into the
// program: environment variables, since the program is run unmodified and
// the library is loaded by the CUDA driver (CUDA_INJECTION64_PATH), not by
// us. Documented in docs/capture.md ("Environment").
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capture/host/launch/launch_filter.hpp"

namespace bankcheck::capture {

inline constexpr const char* kEnvDir = "BANKCHECK_CAPTURE_DIR";            ///< output folder (the staging folder)
inline constexpr const char* kEnvPatches = "BANKCHECK_CAPTURE_PATCHES";    ///< the patch fatbin
inline constexpr const char* kEnvKernel = "BANKCHECK_CAPTURE_KERNEL";      ///< --kernel REGEX
inline constexpr const char* kEnvKernelBase = "BANKCHECK_CAPTURE_KERNEL_NAME_BASE";  ///< --kernel-name-base
inline constexpr const char* kEnvSkip = "BANKCHECK_CAPTURE_LAUNCH_SKIP";   ///< --launch-skip N
inline constexpr const char* kEnvCount = "BANKCHECK_CAPTURE_LAUNCH_COUNT"; ///< --launch-count N
inline constexpr const char* kEnvBlocks = "BANKCHECK_CAPTURE_BLOCKS";      ///< --blocks LIST
inline constexpr const char* kEnvRingSlots = "BANKCHECK_CAPTURE_RING_SLOTS";  ///< slots per ring (power of two)
inline constexpr const char* kEnvGeneric = "BANKCHECK_CAPTURE_GENERIC";    ///< 1: also patch generic accesses
inline constexpr const char* kEnvGlobal = "BANKCHECK_CAPTURE_GLOBAL";      ///< 1: also record global loads and stores
inline constexpr const char* kEnvDedup = "BANKCHECK_CAPTURE_DEDUP";        ///< 0 (`--no-dedup`): every record written with its location
inline constexpr const char* kEnvSummarySlots = "BANKCHECK_CAPTURE_SUMMARY_SLOTS";  ///< --summary: slots per shard
inline constexpr const char* kEnvMaxBytes = "BANKCHECK_CAPTURE_MAX_BYTES";  ///< --max-bytes: bytes of traces at most
/// Diagnostic for overhead measurements (docs/capture.md): how far the
/// summary patch goes, 0 all (the default), 1 group the lanes and stop,
/// 2 cost the request but add nothing to the table, 3 return at once (what
/// the sanitizer's patching costs by itself). 1, 2 and 3 give no summary.
inline constexpr const char* kEnvSummaryStage = "BANKCHECK_CAPTURE_SUMMARY_STAGE";

/// Default ring: 2^16 slots of 168 bytes (11 MiB of pinned memory).
inline constexpr std::uint64_t kDefaultRingSlots = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kMaxRingSlots = std::uint64_t{1} << 24;
/// `--summary`: slots per shard of the device table (capture/host/summary/summary_table.hpp),
/// and its shards: 8 x 1024 slots of 960 bytes (7.5 MiB of device memory).
inline constexpr std::uint64_t kDefaultSummarySlots = 1024;
inline constexpr std::uint64_t kMaxSummarySlots = std::uint64_t{1} << 20;
inline constexpr std::uint32_t kSummaryShards = 8;

/// Whether n is a valid count of summary slots: a power of two in 1..kMaxSummarySlots.
constexpr bool is_valid_summary_slots(std::uint64_t n) { return n != 0 && (n & (n - 1)) == 0 && n <= kMaxSummarySlots; }

struct CaptureOptions {
  std::string dir;
  std::string patches;
  LaunchFilterSpec filter;
  std::uint64_t ring_slots = kDefaultRingSlots;
  bool generic = true;
  bool global = false;              ///< `--global`: record global loads and stores (gld/gst, 64-bit addresses)
  bool dedup = true;                ///< identical records of a launch merged into one with a count (slot_dedup.hpp)
  std::uint64_t summary_slots = 0;  ///< nonzero: summary mode, this many slots per shard
  std::uint32_t summary_stage = 0;  ///< kEnvSummaryStage
  std::uint64_t max_bytes = 0;      ///< bytes of trace files at most, over all launches; 0: no bound

  /// The variables that carry these options (for the program's environment).
  std::vector<std::pair<std::string, std::string>> to_environment() const;

  /// Read the options back; `get` returns a variable's value or nullopt.
  /// @throws std::invalid_argument naming the variable, its value and the allowed range.
  static CaptureOptions from_environment(const std::function<std::optional<std::string>(const char*)>& get);
};

/// getenv as CaptureOptions::from_environment wants it.
std::optional<std::string> environment_variable(const char* name);

}  // namespace bankcheck::capture
