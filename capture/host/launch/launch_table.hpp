#pragma once
// The launch table of a capture, OUT/launches.csv: one row per kernel
// launch the program made (captured or not, so that rows line up with
// Nsight Compute's launch order), written by the injection library as
// launches end and read back by `bankcheck capture` and `bankcheck compare`.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bankcheck::capture {

/// The status of a launch in the table.
inline constexpr const char* kStatusCaptured = "captured";   ///< complete: every device record is in the trace
inline constexpr const char* kStatusSkipped = "skipped";     ///< not selected by the launch filter
inline constexpr const char* kStatusIncomplete = "incomplete";  ///< a trace exists but lacks records (reason follows)

struct LaunchRow {
  std::uint64_t id = 0;                   ///< 0-based, in launch order over the whole process
  std::string kernel;                     ///< mangled name
  std::string demangled;
  std::array<std::uint32_t, 3> grid{};
  std::array<std::uint32_t, 3> block{};
  std::optional<std::uint64_t> dynamic_shared;  ///< bytes; unset when the launch API did not say
  std::uint64_t records_written = 0;            ///< warp records in the trace file
  std::optional<std::uint64_t> device_records;  ///< the device's count; unset when it could not be read
  std::string status;                           ///< kStatus* and, after ": ", the reason
  std::string untraced;                         ///< "kind=count;..." of operations not traced
  std::string trace;                            ///< trace file name within OUT, empty if none
  /// A kernel node of a CUDA graph launch: the executable graph (numbered in
  /// instantiation order), which launch of it (0-based, per executable graph)
  /// and which node (numbered in the order its nodes first ran). Unset for a stream launch.
  std::optional<std::uint64_t> graph_exec, graph_launch, graph_node;

  bool complete() const { return status == kStatusCaptured || status == kStatusSkipped; }
};

/// The header line of launches.csv.
std::string launch_table_header();
/// One row as a CSV line.
std::string launch_row_line(const LaunchRow& row);
/// "8x1x1".
std::string dims_text(const std::array<std::uint32_t, 3>& d);

/// Read launches.csv (this version, or the version before the graph
/// columns, whose rows then have none). @throws std::invalid_argument naming the file and line for a malformed row.
std::vector<LaunchRow> read_launch_table(const std::string& path);

}  // namespace bankcheck::capture
