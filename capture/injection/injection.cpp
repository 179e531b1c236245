// libbankcheck_capture.so: the capture library that the CUDA driver loads
// into an unmodified program (CUDA_INJECTION64_PATH, set by `bankcheck
// capture`). Through the Compute Sanitizer API it patches every module's
// shared-memory instructions to call capture/device/patches.cu, gives each
// selected launch a ring of pinned host memory that a host thread drains
// while the kernel runs, and writes one binary trace per captured launch
// plus a row of OUT/launches.csv per launch (docs/capture.md).
//
// It never throws into the driver and never ends the program: a failing
// sanitizer call is reported on stderr and in OUT/status.log (which
// `bankcheck capture` turns into capture.json's reasons), and the launch or
// module it concerned is marked incomplete.
#include <cuda.h>
#include <cxxabi.h>
#include <sanitizer.h>
// After sanitizer.h, which declares the obsolete types its parameter structs name.
#include <generated_cuda_meta.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "capture/host/capture_options.hpp"
#include "capture/host/function_map.hpp"
#include "capture/host/launch_filter.hpp"
#include "capture/host/launch_table.hpp"
#include "capture/host/record_converter.hpp"
#include "capture/host/ring_drain.hpp"
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

/// Patches for each instruction kind (sanitizer_patching.h) by the name of
/// the device function in capture/device/patches.cu.
struct PatchPoint {
  Sanitizer_InstructionId id;
  const char* callback;
  bool generic_only;  ///< only with BANKCHECK_CAPTURE_GENERIC=1
};
constexpr PatchPoint kPatchPoints[] = {
    {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "bankcheck_shared_access", false},
    {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "bankcheck_generic_access", true},
    {SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, "bankcheck_matrix_access", false},
    {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "bankcheck_memcpy_async", false},
    {SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS, "bankcheck_remote_shared", false},
    {SANITIZER_INSTRUCTION_ASYNC_STORE, "bankcheck_async_store", false},
    {SANITIZER_INSTRUCTION_ASYNC_REDUCTION, "bankcheck_async_reduction", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED, "bankcheck_bulk_global_to_shared", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL, "bankcheck_bulk_shared_to_global", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_SHARED, "bankcheck_bulk_shared_to_shared", false},
    {SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_GLOBAL, "bankcheck_bulk_reduction_to_global", false},
    {SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_SHARED, "bankcheck_bulk_reduction_to_shared", false},
    {SANITIZER_INSTRUCTION_MEMSET_SHARED, "bankcheck_memset_shared", false},
    {SANITIZER_INSTRUCTION_WARPGROUP_MMA_ASYNC, "bankcheck_wgmma", false},
};

std::string result_text(SanitizerResult r) {
  const char* text = nullptr;
  if (sanitizerGetResultString(r, &text) != SANITIZER_SUCCESS || text == nullptr) return "error " + std::to_string(r);
  return text;
}

std::string demangle(const char* name) {
  if (name == nullptr) return "";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(name);
}

/// The ring of one context: pinned host slots and control words, the device descriptor.
struct Ring {
  CUcontext context = nullptr;
  CaptureSlot* slots = nullptr;
  RingControl* control = nullptr;
  CaptureDescriptor* device = nullptr;
  std::uint64_t capacity = 0;
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

class Capture {
 public:
  static Capture& instance() {
    static Capture* capture = new Capture();  // never destroyed: callbacks may come during exit
    return *capture;
  }

  bool start();
  void on_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data);
  void finish();

 private:
  void error(const std::string& message);
  void note(const std::string& message);
  bool check(SanitizerResult r, const char* call, const std::string& what = "");
  void on_context(CUcontext context);
  void on_module(const Sanitizer_ResourceModuleData& module);
  void on_launch_begin(const Sanitizer_LaunchData& launch);
  void on_launch_end(const Sanitizer_LaunchData& launch);
  void on_driver_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data);
  Ring* ring_for(CUcontext context);
  void write_row(const LaunchRow& row);
  void register_function(CUmodule module, const char* name);

  // Callbacks may come from several program threads, and nest on one: the
  // sanitizer calls made inside a launch callback (host allocation, copies,
  // stream synchronisation) raise resource callbacks of their own on the
  // same thread, so the lock must be re-entrant.
  std::recursive_mutex mutex_;
  CaptureOptions options_;
  std::unique_ptr<LaunchFilter> filter_;
  bool child_ = false;  // a process the program started, not the program itself
  std::filesystem::path dir_;
  std::ofstream table_;
  std::ofstream status_;
  FunctionMap functions_;
  std::set<CUcontext> patched_contexts_;
  std::vector<std::unique_ptr<Ring>> rings_;
  std::unique_ptr<ActiveLaunch> active_;
  std::uint64_t next_launch_ = 0;
  std::uint64_t modules_ = 0;
  std::uint64_t child_launches_ = 0;
  // cuLaunchKernel's sharedMemBytes, seen on API entry, for the launch callback that follows on this thread.
  struct PendingLaunch {
    CUfunction function = nullptr;
    std::uint64_t dynamic_shared = 0;
  };
  static thread_local PendingLaunch pending_;
};

thread_local Capture::PendingLaunch Capture::pending_;

void Capture::error(const std::string& message) {
  std::fprintf(stderr, "bankcheck capture: error: %s\n", message.c_str());
  if (status_) status_ << "error: " << message << std::endl;
}

void Capture::note(const std::string& message) {
  if (status_) status_ << "note: " << message << std::endl;
}

bool Capture::check(SanitizerResult r, const char* call, const std::string& what) {
  if (r == SANITIZER_SUCCESS) return true;
  error(std::string(call) + (what.empty() ? "" : " (" + what + ")") + " failed: " + result_text(r));
  return false;
}

bool Capture::start() {
  try {
    options_ = CaptureOptions::from_environment(environment_variable);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bankcheck capture: error: %s; the capture library does nothing in this process\n", e.what());
    return false;
  }
  dir_ = options_.dir;
  // The first process to initialise CUDA owns the capture (it creates
  // status.log); processes it starts that use CUDA too only report their
  // launches (status-PID.log), so that two processes never write one trace.
  const int fd = ::open((dir_ / "status.log").c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  child_ = fd < 0;
  if (fd >= 0) ::close(fd);
  const std::string suffix = child_ ? "-" + std::to_string(::getpid()) : "";
  status_.open(dir_ / ("status" + suffix + ".log"), std::ios::app);
  if (!status_) {
    std::fprintf(stderr, "bankcheck capture: error: cannot write to %s\n", dir_.c_str());
    return false;
  }
  status_ << "init: pid " << ::getpid() << (child_ ? " (child process: not captured)" : "") << std::endl;
  if (child_) return true;
  try {
    filter_ = std::make_unique<LaunchFilter>(options_.filter);
  } catch (const std::exception& e) {
    error(e.what());
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "cubins", ec);
  table_.open(dir_ / "launches.csv");
  table_ << launch_table_header() << std::flush;
  if (!table_) {
    error("cannot write " + (dir_ / "launches.csv").string());
    return false;
  }
  return true;
}

void Capture::write_row(const LaunchRow& row) { table_ << launch_row_line(row) << std::flush; }

void Capture::on_context(CUcontext context) {
  if (child_ || patched_contexts_.count(context)) return;
  if (check(sanitizerAddPatchesFromFile(options_.patches.c_str(), context), "sanitizerAddPatchesFromFile",
            options_.patches))
    patched_contexts_.insert(context);
}

void Capture::register_function(CUmodule module, const char* name) {
  std::uint64_t pc = 0, size = 0;
  if (sanitizerGetFunctionPcAndSize(module, name, &pc, &size) == SANITIZER_SUCCESS && size > 0)
    functions_.add(name, pc, size);
}

void Capture::on_module(const Sanitizer_ResourceModuleData& m) {
  if (child_) return;
  on_context(m.context);
  const std::uint64_t index = modules_++;
  std::vector<std::string> names;
  if (m.pCubin != nullptr && m.cubinSize > 0) {
    const auto path = dir_ / "cubins" / ("module-" + std::to_string(index) + ".cubin");
    std::ofstream out(path, std::ios::binary);
    out.write(m.pCubin, static_cast<std::streamsize>(m.cubinSize));
    if (!out) error("cannot write " + path.string());
    names = cubin_function_names({reinterpret_cast<const std::byte*>(m.pCubin), m.cubinSize});
  } else {
    note("module " + std::to_string(index) + " came without a cubin image: no SASS for it");
  }
  bool ok = patched_contexts_.count(m.context) > 0;
  for (const PatchPoint& p : kPatchPoints) {
    if (!ok) break;
    if (p.generic_only && !options_.generic) continue;
    ok = check(sanitizerPatchInstructions(p.id, m.module, p.callback), "sanitizerPatchInstructions", p.callback);
  }
  if (ok) ok = check(sanitizerPatchModule(m.module), "sanitizerPatchModule", "module " + std::to_string(index));
  if (!ok) error("module " + std::to_string(index) + " is not patched: its launches record nothing");
  for (const std::string& name : names) register_function(m.module, name.c_str());
}

Ring* Capture::ring_for(CUcontext context) {
  for (auto& r : rings_)
    if (r->context == context) return r.get();
  auto ring = std::make_unique<Ring>();
  ring->context = context;
  ring->capacity = options_.ring_slots;
  void* slots = nullptr;
  void* control = nullptr;
  void* device = nullptr;
  if (!check(sanitizerAllocHost(context, &slots, sizeof(CaptureSlot) * ring->capacity), "sanitizerAllocHost", "ring") ||
      !check(sanitizerAllocHost(context, &control, sizeof(RingControl)), "sanitizerAllocHost", "ring control") ||
      !check(sanitizerAlloc(context, &device, sizeof(CaptureDescriptor)), "sanitizerAlloc", "descriptor"))
    return nullptr;
  ring->slots = static_cast<CaptureSlot*>(slots);
  ring->control = static_cast<RingControl*>(control);
  ring->device = static_cast<CaptureDescriptor*>(device);
  rings_.push_back(std::move(ring));
  return rings_.back().get();
}

void Capture::on_driver_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data) {
  if (data.callbackSite != SANITIZER_API_ENTER || data.functionParams == nullptr) return;
  switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(data.functionParams);
      pending_ = {p->f, p->sharedMemBytes};
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(data.functionParams);
      pending_ = {p->f, p->sharedMemBytes};
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(data.functionParams);
      if (p->config != nullptr) pending_ = {p->f, p->config->sharedMemBytes};
      break;
    }
    default: break;
  }
}

void Capture::on_launch_begin(const Sanitizer_LaunchData& launch) {
  LaunchRow row;
  row.id = next_launch_++;
  row.kernel = launch.functionName != nullptr ? launch.functionName : "";
  row.demangled = demangle(launch.functionName);
  row.grid = {launch.gridDim_x, launch.gridDim_y, launch.gridDim_z};
  row.block = {launch.blockDim_x, launch.blockDim_y, launch.blockDim_z};
  if (pending_.function == launch.function) row.dynamic_shared = pending_.dynamic_shared;
  pending_ = {};
  if (child_) {
    ++child_launches_;
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    return;
  }
  if (!filter_->should_capture(row.kernel, row.demangled)) {
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    row.status = kStatusSkipped;
    write_row(row);
    return;
  }
  register_function(launch.module, launch.functionName);  // lazily loaded kernels get their range here
  auto a = std::make_unique<ActiveLaunch>();
  a->row = row;
  a->stream = launch.hStream;
  a->ring = ring_for(launch.context);
  auto fail = [&](const std::string& why) {
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    a->row.status = std::string(kStatusIncomplete) + ": " + why;
    write_row(a->row);
  };
  if (a->ring == nullptr) return fail("no ring buffer (allocation failed)");
  Ring& ring = *a->ring;
  std::memset(ring.slots, 0, sizeof(CaptureSlot) * ring.capacity);  // tickets 0: nothing committed
  ring.control->consumed = 0;
  ring.control->abort = 0;
  CaptureDescriptor d{};
  d.slots = ring.slots;
  d.consumed = &ring.control->consumed;
  d.abort = &ring.control->abort;
  d.capacity = ring.capacity;
  d.block_ranges = static_cast<std::uint32_t>(options_.filter.blocks.size());
  for (std::size_t i = 0; i < options_.filter.blocks.size(); ++i) d.blocks[i] = options_.filter.blocks[i];
  if (!check(sanitizerMemcpyHostToDeviceAsync(ring.device, &d, sizeof d, launch.hStream),
             "sanitizerMemcpyHostToDeviceAsync", "descriptor") ||
      !check(sanitizerStreamSynchronize(launch.hStream), "sanitizerStreamSynchronize", "descriptor"))
    return fail("the descriptor could not be copied to the device");
  if (!check(sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, ring.device),
             "sanitizerSetLaunchCallbackData"))
    return fail("the patches did not get the ring");
  const std::string name = "launch-" + std::to_string(row.id) + ".bktrace";
  a->final_path = (dir_ / name).string();
  a->temp_path = a->final_path + ".tmp";
  a->row.trace = name;
  try {
    a->writer = std::make_unique<BinaryTraceWriter>(OutputFile(a->temp_path), 4);
    a->converter = std::make_unique<RecordConverter>(*a->writer, functions_, row.id);
    a->drain = std::make_unique<RingDrain>(RingView{ring.slots, ring.capacity, ring.control});
  } catch (const std::exception& e) {
    error(e.what());
    a->row.trace.clear();
    return fail(std::string("cannot write the trace: ") + e.what());
  }
  ActiveLaunch* raw = a.get();
  a->drainer = std::thread([raw] {
    const SlotHandler handle = [raw](const CaptureSlot& s) { raw->converter->add(s); };
    while (!raw->stop.load(std::memory_order_acquire)) {
      std::uint64_t n;
      {
        std::lock_guard<std::mutex> lock(raw->consume);
        n = raw->drain->drain_ready(handle);
      }
      if (n == 0) std::this_thread::sleep_for(kIdleDrainPause);
    }
  });
  active_ = std::move(a);
}

void Capture::on_launch_end(const Sanitizer_LaunchData& launch) {
  if (!active_ || child_) return;
  std::unique_ptr<ActiveLaunch> a = std::move(active_);
  std::vector<std::string> problems;
  const bool ran = check(sanitizerStreamSynchronize(launch.hStream), "sanitizerStreamSynchronize", a->row.kernel);
  if (!ran) problems.push_back("the kernel failed (the stream reported an error)");
  CaptureDescriptor d{};
  const bool counted = ran && check(sanitizerMemcpyDeviceToHost(&d, a->ring->device, sizeof d, launch.hStream),
                                    "sanitizerMemcpyDeviceToHost", "descriptor");
  a->stop.store(true, std::memory_order_release);
  a->drainer.join();
  const SlotHandler handle = [&](const CaptureSlot& s) { a->converter->add(s); };
  std::optional<std::uint64_t> device_records;
  if (counted) {
    device_records = d.reserved;
    if (!a->drain->drain_until(d.reserved, kFinalDrainPatience, handle))
      problems.push_back(std::to_string(d.reserved - a->drain->consumed()) + " of " + std::to_string(d.reserved) +
                         " records were reserved but never written");
    if (d.abandoned > 0) problems.push_back(std::to_string(d.abandoned) + " records abandoned");
    std::string untraced;
    for (unsigned k = 0; k < kUntracedKinds; ++k)
      if (d.untraced[k] > 0)
        untraced += (untraced.empty() ? "" : ";") + std::string(untraced_kind_name(static_cast<UntracedKind>(k))) +
                    "=" + std::to_string(d.untraced[k]);
    a->row.untraced = untraced;
  } else {
    a->drain->drain_ready(handle);  // whatever was committed before the failure
    problems.push_back("the device's record count could not be read, so completeness cannot be checked");
  }
  for (const auto& [reason, count] : a->converter->rejected())
    problems.push_back(std::to_string(count) + " records the trace format cannot hold (" + reason + ")");
  a->row.records_written = a->converter->written();
  a->row.device_records = device_records;
  try {
    a->converter->finish(device_records);
    std::filesystem::rename(a->temp_path, a->final_path);
  } catch (const std::exception& e) {
    problems.push_back(std::string("the trace could not be written: ") + e.what());
    a->row.trace.clear();
  }
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

void Capture::on_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  try {
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE) {
      if (cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED)
        on_context(static_cast<const Sanitizer_ResourceContextData*>(data)->context);
      else if (cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
        on_module(*static_cast<const Sanitizer_ResourceModuleData*>(data));
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH) {
      const auto& launch = *static_cast<const Sanitizer_LaunchData*>(data);
      if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) on_launch_begin(launch);
      else if (cbid == SANITIZER_CBID_LAUNCH_END) on_launch_end(launch);
    } else if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
      on_driver_launch(cbid, *static_cast<const Sanitizer_CallbackData*>(data));
    }
  } catch (const std::exception& e) {
    error(std::string("internal error in a sanitizer callback: ") + e.what());
  }
}

void Capture::finish() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (active_) {
    error("launch " + std::to_string(active_->row.id) + " never ended (the program exited during it)");
    active_->stop.store(true);
    if (active_->drainer.joinable()) active_->drainer.join();
    active_.reset();
  }
  if (child_ && child_launches_ > 0)
    error("child process " + std::to_string(::getpid()) + " made " + std::to_string(child_launches_) +
          " kernel launches that were not captured (only the program bankcheck started is captured)");
  if (functions_.unknown_pcs() > 0)
    note(std::to_string(functions_.unknown_pcs()) + " instruction addresses were outside every known function "
                                                    "(sites named ?+0xPC)");
  if (status_) status_ << "exit: " << next_launch_ << " launches" << std::endl;
}

void SANITIZERAPI callback(void* userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                           const void* data) {
  (void)userdata;
  Capture::instance().on_callback(domain, cbid, data);
}

}  // namespace

/// Called by the CUDA driver when it loads this library (CUDA_INJECTION64_PATH).
/// Must return 1: returning 0 makes the driver unload the library, and the
/// process crashes later (measured, issue 13). On a set-up error the
/// library reports it and stays loaded, doing nothing.
extern "C" int InitializeInjection() {
  Capture& capture = Capture::instance();
  if (!capture.start()) return 1;
  Sanitizer_SubscriberHandle handle = nullptr;
  if (sanitizerSubscribe(&handle, callback, nullptr) != SANITIZER_SUCCESS) {
    std::fprintf(stderr, "bankcheck capture: error: sanitizerSubscribe failed (another sanitizer tool attached?)\n");
    return 1;
  }
  sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_RESOURCE);
  sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_LAUNCH);
  for (Sanitizer_CallbackId id : {SANITIZER_CBID_DRIVER_API_cuLaunchKernel, SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz})
    sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, id);
  std::atexit([] { Capture::instance().finish(); });
  return 1;
}
