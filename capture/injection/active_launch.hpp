#pragma once
// The capture library's bookkeeping of one captured launch: the ring of
// its context, the trace being written, and the thread that drains the ring
// while the kernel runs (capture/injection/launch_callbacks.hpp).
#include <cuda.h>
#include <sanitizer.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "capture/host/launch_table.hpp"
#include "capture/host/record_converter.hpp"
#include "capture/host/ring_drain.hpp"
#include "capture/host/summary_table.hpp"
#include "sim/trace/trace.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

/// How long the final drain waits for a slot that was reserved but never
/// committed before it declares the launch incomplete (the kernel has
/// ended by then, so a missing slot will not come).
constexpr std::chrono::milliseconds kFinalDrainPatience{2000};
/// The drain thread's pause when the ring is empty.
constexpr std::chrono::microseconds kIdleDrainPause{100};

/// The ring of one context: pinned host slots and control words, the device descriptor.
struct Ring {
  CUcontext context = nullptr;
  CaptureSlot* slots = nullptr;
  RingControl* control = nullptr;
  CaptureDescriptor* device = nullptr;
  std::uint64_t capacity = 0;
  SummarySlot* summary = nullptr;  ///< device memory: the `--summary` table (summary mode only)
  std::uint64_t summary_slots = 0; ///< slots in all shards
};

/// A captured launch between its begin and end callbacks.
struct ActiveLaunch {
  LaunchRow row;
  Ring* ring = nullptr;
  Sanitizer_StreamHandle stream = nullptr;
  std::string temp_path, final_path;
  std::unique_ptr<TraceSink> writer;
  std::unique_ptr<RecordConverter> converter;
  std::unique_ptr<RingDrain> drain;
  std::thread drainer;
  std::atomic<bool> stop{false};
  std::mutex consume;  // the drain thread and the final drain never consume at once
};

}  // namespace
