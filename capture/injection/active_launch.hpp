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
#include <vector>

#include "capture/host/launch/launch_table.hpp"
#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/record_table.hpp"
#include "capture/host/ring/ring_drain.hpp"
#include "capture/host/ring/slot_dedup.hpp"
#include "capture/host/summary/summary_table.hpp"
#include "capture/host/ring/trace_budget.hpp"
#include "sim/trace/trace.hpp"
#include "sim/trace/trace_binary.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

/// How long the final drain waits for a slot that was reserved but never
/// committed before it declares the launch incomplete (the kernel has
/// ended by then, so a missing slot will not come).
constexpr std::chrono::milliseconds kFinalDrainPatience{2000};
/// The drain thread's pause when the ring is empty.
constexpr std::chrono::microseconds kIdleDrainPause{100};
/// Rings of one context, each held by one launch in flight: at most this
/// many bytes of them (pinned ring slots, device summary and record tables), and
/// between these many rings whatever their size.
constexpr std::uint64_t kRingBytesPerContext = std::uint64_t{1} << 30;
constexpr std::uint64_t kMinRingsPerContext = 2, kMaxRingsPerContext = 1024;

/// The ring of one context: pinned host slots and control words, the device descriptor.
struct Ring {
  CUcontext context = nullptr;
  CaptureSlot* slots = nullptr;
  RingControl* control = nullptr;
  CaptureDescriptor* device = nullptr;
  std::uint64_t capacity = 0;
  SummarySlot* summary = nullptr;  ///< device memory: the `--summary` table (summary mode only)
  std::uint64_t summary_slots = 0; ///< slots in all shards
  RecordEntry* table = nullptr;    ///< device memory: the table of distinct records (full capture, deduplicated)
  std::uint32_t* buckets = nullptr;  ///< device memory: its buckets
  std::uint32_t table_capacity = 0;  ///< entries; 0: no table
  bool in_use = false;             ///< held by a launch between its begin and its end
};

/// A graph launch's router (ring_layout.hpp, GridRoute): the callback data of
/// all its kernel nodes, whose table sends each node's grid to the node's own
/// descriptor. One per graph launch in flight; reused after it.
struct GraphRouter {
  CUcontext context = nullptr;
  CaptureDescriptor* device = nullptr;  ///< the router descriptor (device memory)
  GridRoute* table = nullptr;           ///< its kRouteCapacity entries (device memory)
  std::vector<std::uint64_t> grids;     ///< the table's grid ids as the host wrote them (kNoGrid: empty)
  std::uint64_t entries = 0;
  bool in_use = false;
};

/// A captured launch between its begin and end callbacks. For a graph's
/// kernel node: from its node's begin callback to the return of the graph
/// launch call, when its graph launch has been submitted and can be waited for.
struct ActiveLaunch {
  LaunchRow row;
  Ring* ring = nullptr;  ///< null: not traced (the row is final)
  Sanitizer_StreamHandle stream = nullptr;  ///< what the end waits on: the launch's stream, or the graph launch's
  std::thread::id thread;                   ///< the thread that launched it (graph launches end on it)
  std::string temp_path, final_path;
  std::unique_ptr<BinaryTraceWriter> writer;
  std::unique_ptr<BudgetedSlots> slots;  ///< the drain's way to the converter, under --max-bytes
  std::unique_ptr<RecordConverter> converter;
  std::unique_ptr<SlotDedup> dedup;      ///< identical records merged (null: `--no-dedup`)
  std::unique_ptr<RingDrain> drain;
  std::thread drainer;
  std::atomic<bool> stop{false};
  std::mutex consume;  // the drain thread and the final drain never consume at once
};

}  // namespace
