#pragma once
// The capture library's launch callbacks: the launch parameters seen on
// driver API entry, and each captured launch's ring, trace and drain from
// its begin callback to its end.
#include <cuda.h>
#include <sanitizer.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "capture/host/launch/kernel_name.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/ring_drain.hpp"
#include "capture/injection/active_launch.hpp"
#include "capture/injection/api_params.hpp"
#include "capture/injection/capture.hpp"
#include "sim/trace/trace_binary.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

std::string demangle(const char* name) { return name == nullptr ? "" : demangled_name(name); }

/// "kind=count;..." of the operations the device counted as not traced.
std::string untraced_text(const CaptureDescriptor& d) {
  std::string untraced;
  for (unsigned k = 0; k < kUntracedKinds; ++k)
    if (d.untraced[k] > 0)
      untraced += (untraced.empty() ? "" : ";") + std::string(untraced_kind_name(static_cast<UntracedKind>(k))) + "=" +
                  std::to_string(d.untraced[k]);
  return untraced;
}

std::uint64_t Capture::rings_held(CUcontext context) const {
  std::uint64_t held = 0;
  for (const auto& r : rings_) held += r->context == context;
  return held;
}

Ring* Capture::acquire_ring(CUcontext context) {
  for (auto& r : rings_)
    if (r->context == context && !r->in_use) {
      r->in_use = true;
      return r.get();
    }
  // Several launches may be in flight at once (a graph's kernel nodes; launches from several threads), each
  // with a ring of its own; the rings of one context are bounded in bytes.
  const std::uint64_t capacity = options_.summary_slots != 0 ? 1 : options_.ring_slots;
  const std::uint64_t bytes = sizeof(CaptureSlot) * capacity + sizeof(SummarySlot) * options_.summary_slots * kSummaryShards +
                              table_bytes();
  const std::uint64_t most = std::clamp<std::uint64_t>(kRingBytesPerContext / bytes, kMinRingsPerContext, kMaxRingsPerContext);
  if (rings_held(context) >= most) return nullptr;
  Ring* ring = allocate_ring(context);
  if (ring != nullptr) ring->in_use = true;
  return ring;
}

Ring* Capture::allocate_ring(CUcontext context) {
  auto ring = std::make_unique<Ring>();
  ring->context = context;
  ring->capacity = options_.summary_slots != 0 ? 1 : options_.ring_slots;  // summary mode writes no slot
  void* slots = nullptr;
  void* control = nullptr;
  void* device = nullptr;
  if (!check(sanitizerAllocHost(context, &slots, sizeof(CaptureSlot) * ring->capacity), "sanitizerAllocHost", "ring") ||
      !check(sanitizerAllocHost(context, &control, sizeof(RingControl)), "sanitizerAllocHost", "ring control") ||
      !check(sanitizerAlloc(context, &device, sizeof(CaptureDescriptor)), "sanitizerAlloc", "descriptor"))
    return nullptr;
  if (options_.summary_slots != 0) {
    ring->summary_slots = options_.summary_slots * kSummaryShards;
    void* table = nullptr;
    if (!check(sanitizerAlloc(context, &table, sizeof(SummarySlot) * ring->summary_slots), "sanitizerAlloc",
               "summary table"))
      return nullptr;
    ring->summary = static_cast<SummarySlot*>(table);
  }
  if (!allocate_table(*ring)) return nullptr;
  ring->slots = static_cast<CaptureSlot*>(slots);
  ring->control = static_cast<RingControl*>(control);
  ring->device = static_cast<CaptureDescriptor*>(device);
  rings_.push_back(std::move(ring));
  return rings_.back().get();
}

void Capture::on_driver_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data) {
  // The parameters live only as long as the call: forget them when it returns, so that a launch
  // callback outside any launch call (a graph's kernel node) never reads a stale pointer.
  if (data.callbackSite == SANITIZER_API_EXIT) {
    pending_params_ = {};
    return;
  }
  if (data.callbackSite != SANITIZER_API_ENTER || data.functionParams == nullptr) return;
  switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(data.functionParams);
      pending_ = {p->f, p->sharedMemBytes};
      pending_params_ = {true, p->kernelParams, p->extra};
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(data.functionParams);
      pending_ = {p->f, p->sharedMemBytes};
      pending_params_ = {true, p->kernelParams, nullptr};
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(data.functionParams);
      if (p->config != nullptr) pending_ = {p->f, p->config->sharedMemBytes};
      pending_params_ = {true, p->kernelParams, p->extra};
      break;
    }
    default: break;
  }
}

LaunchRow Capture::new_row(const Sanitizer_LaunchData& launch) {
  LaunchRow row;
  row.id = next_launch_++;
  row.kernel = launch.functionName != nullptr ? launch.functionName : "";
  row.demangled = demangle(launch.functionName);
  row.grid = {launch.gridDim_x, launch.gridDim_y, launch.gridDim_z};
  row.block = {launch.blockDim_x, launch.blockDim_y, launch.blockDim_z};
  return row;
}

void Capture::on_launch_begin(const Sanitizer_LaunchData& launch) {
  finish_graph_launches();  // graph launches this thread made before were submitted when their call returned
  LaunchRow row = new_row(launch);
  if (pending_.function == launch.function) row.dynamic_shared = pending_.dynamic_shared;
  pending_ = {};
  auto a = begin_launch(launch, std::move(row), launch.hStream);
  if (a->ring == nullptr) write_row(a->row);
  else active_[launch.hLaunch] = std::move(a);
}

/// A launch's ring emptied (every ticket 0: nothing committed, nothing
/// consumed, no abort) and the descriptor the patches read it through, with
/// what the options ask them to record.
CaptureDescriptor fresh_descriptor(Ring& ring, const CaptureOptions& options) {
  std::memset(ring.slots, 0, sizeof(CaptureSlot) * ring.capacity);  // tickets 0: nothing committed
  ring.control->consumed = 0;
  ring.control->abort = 0;
  CaptureDescriptor d{};
  d.slots = ring.slots;
  d.consumed = &ring.control->consumed;
  d.abort = &ring.control->abort;
  d.capacity = ring.capacity;
  d.record_generic_shared = options.generic ? 1 : 0;
  d.record_global = options.global ? 1 : 0;
  d.block_ranges = static_cast<std::uint32_t>(options.filter.blocks.size());
  for (std::size_t i = 0; i < options.filter.blocks.size(); ++i) d.blocks[i] = options.filter.blocks[i];
  return d;
}

std::unique_ptr<ActiveLaunch> Capture::begin_launch(const Sanitizer_LaunchData& launch, LaunchRow row,
                                                    Sanitizer_StreamHandle stream, CaptureDescriptor** route) {
  auto a = std::make_unique<ActiveLaunch>();
  a->row = std::move(row);
  a->stream = stream;
  // Every launch gets callback data, null when it is not traced. A graph's kernel node (`route` given)
  // gets its graph launch's router from the caller; its own descriptor, or null, goes into the route.
  auto set_data = [&](CaptureDescriptor* data) {
    if (route != nullptr) {
      *route = data;
      return true;
    }
    return check(sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, data),
                 "sanitizerSetLaunchCallbackData");
  };
  auto untraced = [&](const std::string& status) {
    if (route != nullptr) *route = nullptr;
    else sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    if (a->ring != nullptr) a->ring->in_use = false;
    a->ring = nullptr;
    a->row.status = status;
    return std::move(a);
  };
  if (child_) {
    ++child_launches_;
    return untraced(kStatusSkipped);
  }
  join_tensor_maps(a->row.id, launch.function);
  if (!filter_->should_capture(a->row.kernel, a->row.demangled)) return untraced(kStatusSkipped);
  if (options_.summary_slots == 0 && budget_.exceeded())
    return untraced(std::string(kStatusIncomplete) + ": not traced: the traces reached --max-bytes (" +
                    std::to_string(budget_.limit) + " bytes)");
  register_function(launch.module, launch.functionName);  // lazily loaded kernels get their range here
  a->ring = acquire_ring(launch.context);
  auto fail = [&](const std::string& why) { return untraced(std::string(kStatusIncomplete) + ": " + why); };
  if (a->ring == nullptr)
    return fail("no free ring buffer (" + std::to_string(rings_held(launch.context)) +
                " held by launches in flight, the most a context may hold, or an allocation failed)");
  Ring& ring = *a->ring;
  CaptureDescriptor d = fresh_descriptor(ring, options_);
  if ((options_.summary_slots != 0 && !begin_summary(*a, d, stream)) || !begin_table(ring, d, stream))
    return fail("the device's summary or record table could not be cleared");
  // The copy is complete before the kernel can start: a stream launch's kernel is queued after this
  // callback, and a graph's nodes are submitted after every node's begin callback.
  if (!check(sanitizerMemcpyHostToDeviceAsync(ring.device, &d, sizeof d, stream), "sanitizerMemcpyHostToDeviceAsync",
             "descriptor") ||
      !check(sanitizerStreamSynchronize(stream), "sanitizerStreamSynchronize", "descriptor"))
    return fail("the descriptor could not be copied to the device");
  if (!set_data(ring.device)) return fail("the patches did not get the ring");
  if (options_.summary_slots != 0) return a;  // no trace and no drain: the table is read when the launch ends
  if (start_trace(a)) return a;
  return untraced(a->row.status);
}

bool Capture::start_trace(std::unique_ptr<ActiveLaunch>& a) {
  const std::string name = "launch-" + std::to_string(a->row.id) + ".bktrace";
  a->final_path = (dir_ / name).string();
  a->temp_path = a->final_path + ".tmp";
  a->row.trace = name;
  try {
    a->writer = std::make_unique<BinaryTraceWriter>(OutputFile(a->temp_path), options_.global ? 8 : 4);  // shared offsets fit 4 bytes
    a->converter = std::make_unique<RecordConverter>(*a->writer, functions_, a->row.id);
    a->drain = std::make_unique<RingDrain>(RingView{a->ring->slots, a->ring->capacity, a->ring->control});
    if (options_.dedup) a->dedup = std::make_unique<SlotDedup>(*a->converter);
    a->slots = std::make_unique<BudgetedSlots>(*a->converter, *a->writer, &budget_, a->dedup.get());
  } catch (const std::exception& e) {
    error(e.what());
    a->row.trace.clear();
    a->row.status = std::string(kStatusIncomplete) + ": cannot write the trace: " + e.what();
    return false;
  }
  ActiveLaunch* raw = a.get();
  a->drainer = std::thread([raw] {
    const SlotHandler handle = [raw](const CaptureSlot& s) { raw->slots->take(s); };
    while (!raw->stop.load(std::memory_order_acquire)) {
      std::uint64_t n;
      {
        std::lock_guard<std::mutex> lock(raw->consume);
        n = raw->drain->drain_ready(handle);
      }
      if (n == 0) std::this_thread::sleep_for(kIdleDrainPause);
    }
  });
  return true;
}

void Capture::on_launch_end(const Sanitizer_LaunchData& launch) {
  const auto it = active_.find(launch.hLaunch);
  if (it == active_.end()) return;
  std::unique_ptr<ActiveLaunch> a = std::move(it->second);
  active_.erase(it);
  end_launch(*a, launch.hStream);
}

void Capture::end_launch(ActiveLaunch& launch, Sanitizer_StreamHandle stream, const std::string& problem) {
  ActiveLaunch* a = &launch;
  const std::string preset_untraced = a->row.untraced;  // what the begin callback knew (graphs launched from the device)
  std::vector<std::string> problems;
  if (!problem.empty()) problems.push_back(problem);
  const bool ran = check(sanitizerStreamSynchronize(stream), "sanitizerStreamSynchronize", a->row.kernel);
  if (!ran) problems.push_back("the kernel failed (the stream reported an error)");
  CaptureDescriptor d{};
  const bool counted = ran && check(sanitizerMemcpyDeviceToHost(&d, a->ring->device, sizeof d, stream),
                                    "sanitizerMemcpyDeviceToHost", "descriptor");
  if (options_.summary_slots != 0) {
    if (counted) end_summary(*a, d, stream, problems);
    else problems.push_back("the device's counts could not be read, so the summary is missing");
  } else {
    end_trace(*a, counted ? &d : nullptr, problems);
  }
  if (!preset_untraced.empty()) a->row.untraced += (a->row.untraced.empty() ? "" : ";") + preset_untraced;
  a->ring->in_use = false;
  finish_launch(*a, problems);
}

void Capture::end_trace(ActiveLaunch& launch, const CaptureDescriptor* device, std::vector<std::string>& problems) {
  ActiveLaunch* a = &launch;
  a->stop.store(true, std::memory_order_release);
  a->drainer.join();
  const SlotHandler handle = [&](const CaptureSlot& s) { a->slots->take(s); };
  std::optional<std::uint64_t> device_records;
  if (device != nullptr) {
    const CaptureDescriptor& d = *device;
    // instructions: continuation slots are part of their record; the table's executions are the device's too
    device_records = d.reserved - d.continuation_slots + d.table_executions;
    if (!a->drain->drain_until(d.reserved, kFinalDrainPatience, handle))
      problems.push_back(std::to_string(d.reserved - a->drain->consumed()) + " of " + std::to_string(d.reserved) +
                         " records were reserved but never written");
    if (d.abandoned > 0) problems.push_back(std::to_string(d.abandoned) + " records abandoned");
    end_table(*a, d, problems);
    a->row.untraced = untraced_text(d);
  } else {
    a->drain->drain_ready(handle);  // whatever was committed before the failure
    problems.push_back("the device's record count could not be read, so completeness cannot be checked");
  }
  if (a->slots->dropped() > 0)
    problems.push_back(std::to_string(a->slots->dropped()) + " records not written: the traces reached --max-bytes (" +
                       std::to_string(budget_.limit) + " bytes); the rest kept as " +
                       std::filesystem::path(a->final_path).filename().string() + ".partial");
  try {
    a->slots->flush();  // the records the deduplication table holds
  } catch (const std::exception& e) {
    problems.push_back(std::string("the trace could not be written: ") + e.what());
  }
  for (const auto& [reason, count] : a->converter->rejected())
    problems.push_back(std::to_string(count) + " records the trace format cannot hold (" + reason + ")");
  a->row.records_written = a->converter->written();
  a->row.device_records = device_records;
  try {
    a->converter->finish(device_records);
    // A trace that lacks records the device wrote is kept apart: its expect record refuses it to replay anyway.
    const bool cut = a->slots->dropped() > 0;
    std::filesystem::rename(a->temp_path, cut ? a->final_path + ".partial" : a->final_path);
    if (cut) a->row.trace.clear();
  } catch (const std::exception& e) {
    problems.push_back(std::string("the trace could not be written: ") + e.what());
    a->row.trace.clear();
  }
}

void Capture::finish_launch(ActiveLaunch& launch, const std::vector<std::string>& problems) {
  ActiveLaunch* a = &launch;
  if (problems.empty()) {
    a->row.status = kStatusCaptured;
  } else {
    std::string why;
    for (const auto& p : problems) why += (why.empty() ? "" : "; ") + p;
    a->row.status = std::string(kStatusIncomplete) + ": " + why;
    error("launch " + std::to_string(a->row.id) + " (" + a->row.demangled + "): " + why);
  }
  write_row(a->row);
}

}  // namespace
