#pragma once
// `bankcheck capture`: run an unmodified program with the capture library
// injected (CUDA_INJECTION64_PATH), then complete its output folder:
// sass.csv from the saved cubins, capture.json, and the folder renamed into
// place at the end (it is built under a temporary name; a capture that
// could not be complete is still renamed, and marked partial).
// docs/capture.md describes the folder.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "capture/host/launch/launch_filter.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/host/run/process.hpp"

namespace bankcheck::capture {

inline constexpr const char* kCaptureLibraryName = "libbankcheck_capture.so";
inline constexpr const char* kPatchFileName = "bankcheck_capture_patches.fatbin";
inline constexpr int kCaptureSchemaVersion = 1;
/// Exit code of a capture whose program succeeded but whose capture is incomplete.
inline constexpr int kExitIncomplete = 1;
/// Exit code for bankcheck's own errors (bad options, missing library).
inline constexpr int kExitUsage = 2;

struct CaptureRequest {
  std::vector<std::string> argv;          ///< PROGRAM ARGS...
  std::filesystem::path out;              ///< the output folder
  std::filesystem::path library;          ///< libbankcheck_capture.so
  std::filesystem::path patches;          ///< the patch fatbin (default: next to the library)
  LaunchFilterSpec filter;
  std::uint64_t ring_slots = 0;           ///< 0: the library's default
  bool generic = true;                    ///< also patch generic accesses that land in shared memory
  bool global = false;                    ///< `--global`: also record global loads and stores
  bool dedup = true;                      ///< false (`--no-dedup`): every record written with its own location
  std::uint64_t summary_slots = 0;        ///< nonzero: `--summary`, per-instruction totals costed on the GPU
  /// `--max-bytes`: trace bytes at most; unset: half the space free where OUT is written when the capture starts.
  std::optional<std::uint64_t> max_bytes;
  std::vector<std::string> tool_dirs;     ///< where to look for nvdisasm/cuobjdump besides PATH
};

struct CaptureReport {
  ProgramStatus program;
  bool injected = false;                  ///< the capture library was loaded (CUDA initialised)
  bool complete = false;
  std::vector<std::string> reasons;       ///< why it is not complete
  std::vector<std::string> notes;         ///< what the user should know anyway
  std::vector<LaunchRow> launches;
  std::uint64_t captured = 0;             ///< launches with a trace (summary mode: launches summarized)
  std::filesystem::path out;
  /// Wall seconds of each stage, in order: the program run (patching, the
  /// instrumented kernels and draining included), disassembly, op refinement
  /// (capture.json's "seconds"; status.log adds the module callbacks' share).
  std::vector<std::pair<std::string, double>> seconds;

  /// The program's code if it failed; else kExitIncomplete if the capture is incomplete; else 0.
  int exit_code() const;
};

/// Checks that need no run (the program is given; OUT can be written);
/// @throws std::invalid_argument naming the problem.
void check_capture_request(const CaptureRequest& request);

/// `--max-bytes`' default: half of `available` bytes (the free space where OUT is written), at least 1.
std::uint64_t default_max_bytes(std::uintmax_t available);

/// Run the capture. A SIGINT or SIGTERM while the program runs is passed on
/// to it; the capture then ends as any other: OUT holds what was captured,
/// capture.json says partial and why, and no staging folder stays behind.
/// @throws std::invalid_argument for a bad request (before anything runs).
CaptureReport run_capture(const CaptureRequest& request);

/// capture.json's text for a report (hand-written JSON: no JSON library is
/// needed to build the capture pieces on a GPU machine).
std::string capture_json(const CaptureRequest& request, const CaptureReport& report);

/// How the program of the capture whose capture.json is at `path` ended, when
/// it ended early: "the program ended early: exit 1" (or "... killed by
/// signal 2"); empty when it exited 0 or capture.json is absent or unreadable.
std::string capture_ended_early(const std::filesystem::path& path);

/// A JSON string literal.
std::string json_string(std::string_view text);

/// Whether a CUDA driver library can be loaded in this process.
bool cuda_driver_present();

}  // namespace bankcheck::capture
