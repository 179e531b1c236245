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
#include <fcntl.h>
#include <sanitizer.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "capture/host/run/capture_options.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/launch/launch_filter.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/injection/capture.hpp"
#include "capture/injection/graph_callbacks.hpp"
#include "capture/injection/launch_callbacks.hpp"
#include "capture/injection/patch_points.hpp"
#include "capture/injection/query_callbacks.hpp"
#include "capture/injection/summary_callbacks.hpp"
#include "capture/injection/table_callbacks.hpp"
#include "capture/injection/tensor_map_callbacks.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

std::string result_text(SanitizerResult r) {
  const char* text = nullptr;
  if (sanitizerGetResultString(r, &text) != SANITIZER_SUCCESS || text == nullptr) return "error " + std::to_string(r);
  return text;
}

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
  budget_.limit = options_.max_bytes;
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
  // Written as calls and launches come, line by line, so that a program that dies keeps what came before.
  tensor_maps_.open(dir_ / "tensor_maps.csv");
  tensor_maps_ << tensor_map_table_header() << std::flush;
  launch_tensor_maps_.open(dir_ / "launch_tensor_maps.csv");
  launch_tensor_maps_ << launch_tensor_map_header() << std::flush;
  queries_.open(dir_ / "queries.csv");
  queries_ << driver_query_header() << std::flush;
  if (!tensor_maps_ || !launch_tensor_maps_ || !queries_) {
    error("cannot write " + (dir_ / "tensor_maps.csv").string() + ", launch_tensor_maps.csv or queries.csv");
    return false;
  }
  if (options_.summary_slots != 0) {
    summary_.open(dir_ / "summary.csv");
    summary_ << summary_table_header() << std::flush;
    if (!summary_) {
      error("cannot write " + (dir_ / "summary.csv").string());
      return false;
    }
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
  const auto started = std::chrono::steady_clock::now();
  on_context(m.context);
  const std::uint64_t index = modules_++;
  std::vector<std::string> names;
  if (m.pCubin != nullptr && m.cubinSize > 0)
    names = cubin_function_names({reinterpret_cast<const std::byte*>(m.pCubin), m.cubinSize});
  // A module none of whose functions the --kernel filter can select is
  // neither patched (its kernels run at full speed) nor kept: a large library's modules cost nothing.
  // Without a cubin the functions are unknown, and the module is patched.
  bool selectable = names.empty();
  for (const std::string& name : names) selectable = selectable || filter_->may_capture(name, demangle(name.c_str()));
  if (!selectable) {
    ++modules_skipped_;
    module_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return;
  }
  if (m.pCubin != nullptr && m.cubinSize > 0) {
    const auto path = dir_ / "cubins" / ("module-" + std::to_string(index) + ".cubin");
    std::ofstream out(path, std::ios::binary);
    out.write(m.pCubin, static_cast<std::streamsize>(m.cubinSize));
    if (!out) error("cannot write " + path.string());
  } else {
    note("module " + std::to_string(index) + " came without a cubin image: no SASS for it");
  }
  bool ok = patched_contexts_.count(m.context) > 0;
  for (const PatchPoint& p : kPatchPoints) {
    if (!ok) break;
    if (p.generic_only && !options_.generic && !options_.global) continue;
    ok = check(sanitizerPatchInstructions(p.id, m.module, p.callback), "sanitizerPatchInstructions", p.callback);
  }
  if (ok) ok = check(sanitizerPatchModule(m.module), "sanitizerPatchModule", "module " + std::to_string(index));
  if (!ok) error("module " + std::to_string(index) + " is not patched: its launches record nothing");
  for (const std::string& name : names) register_function(m.module, name.c_str());
  module_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
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
    } else if (domain == SANITIZER_CB_DOMAIN_GRAPHS) {
      on_graph(cbid, data);
    } else if ((domain == SANITIZER_CB_DOMAIN_DRIVER_API || domain == SANITIZER_CB_DOMAIN_RUNTIME_API) &&
               is_query(domain, cbid)) {
      on_query(domain, *static_cast<const Sanitizer_CallbackData*>(data), cbid);
    } else if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
      const auto& call = *static_cast<const Sanitizer_CallbackData*>(data);
      if (cbid == SANITIZER_CBID_DRIVER_API_cuGraphLaunch || cbid == SANITIZER_CBID_DRIVER_API_cuGraphLaunch_ptsz) {
        on_graph_launch_call(call);
      } else if (cbid == SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeTiled ||
          cbid == SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2col ||
          cbid == SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2colWide) {
        if (!child_) on_tensor_map_encode(cbid, call);
      } else {
        on_driver_launch(cbid, call);
      }
    } else if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
      const auto& call = *static_cast<const Sanitizer_CallbackData*>(data);
      if (cbid == SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch || cbid == SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch_ptsz)
        on_graph_launch_call(call);
      else
        on_runtime_launch(cbid, call);
    }
  } catch (const std::exception& e) {
    error(std::string("internal error in a sanitizer callback: ") + e.what());
  }
}

void Capture::finish() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (auto& [handle, a] : active_) {
    error("launch " + std::to_string(a->row.id) + " never ended (the program exited during it)");
    a->stop.store(true);
    if (a->drainer.joinable()) a->drainer.join();
  }
  active_.clear();
  finish_graph_launches(true);  // graph launches whose call never returned to a callback (normally none)
  if (child_ && child_launches_ > 0)
    error("child process " + std::to_string(::getpid()) + " made " + std::to_string(child_launches_) +
          " kernel launches that were not captured (only the program bankcheck started is captured)");
  if (functions_.unknown_pcs() > 0)
    note(std::to_string(functions_.unknown_pcs()) + " instruction addresses were outside every known function "
                                                    "(sites named ?+0xPC)");
  if (const std::string asked = differing_query_counts(query_rows_); !asked.empty())
    note("the program asked the driver about its kernels, which the tool patches (" + asked + "): a launch "
         "configuration computed from the answers is where a grid that differs from a plain run's comes from "
         "(queries.csv)");
  if (!tensor_map_rows_.empty()) note(tensor_map_summary(tensor_map_rows_));
  if (!tensor_map_rows_.empty())
    note("tensor maps: " + std::to_string(searched_launches_) + " launches' parameters searched (" +
         std::to_string(searched_param_bytes_) + " bytes), " + std::to_string(found_maps_) + " maps found in them; the first launch's parameters (offset+size): " +
         first_search_);
  for (const auto& [why, count] : unsearched_launches_)
    note(std::to_string(count) + " launches were not searched for tensor maps: " + why);
  if (status_) {
    status_ << "modules: " << modules_ << " loaded, " << modules_ - modules_skipped_ << " patched, "
            << modules_skipped_ << " without a function the filter selects (not patched); " << module_seconds_
            << " s in module callbacks" << std::endl;
    status_ << "exit: " << next_launch_ << " launches" << std::endl;
  }
}

void SANITIZERAPI callback(void* userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                           const void* data) {
  (void)userdata;
  Capture::instance().on_callback(domain, cbid, data);
}

}  // namespace

/// Called by the CUDA driver when it loads this library (CUDA_INJECTION64_PATH).
/// Must return 1: returning 0 makes the driver unload the library, and the
/// process crashes later (measured on the H100). On a set-up error the
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
  sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_GRAPHS);
  // A graph's kernel nodes end when its launch call returns (capture/injection/graph_callbacks.hpp).
  sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, SANITIZER_CBID_DRIVER_API_cuGraphLaunch);
  sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, SANITIZER_CBID_DRIVER_API_cuGraphLaunch_ptsz);
  sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_RUNTIME_API, SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch);
  sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_RUNTIME_API, SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch_ptsz);
  for (Sanitizer_CallbackId id : {SANITIZER_CBID_DRIVER_API_cuLaunchKernel, SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx,
                                  SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz})
    sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, id);
  for (Sanitizer_CallbackId id : {SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeTiled,
                                  SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2col,
                                  SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2colWide})
    sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, id);
  // The runtime's launches, for their parameters: a runtime launch need not raise the driver API's launch
  // callbacks (launches.csv's dynamic_shared_bytes is empty for runtime launches).
  for (Sanitizer_CallbackId id : {SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel, SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz,
                                  SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel,
                                  SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC,
                                  SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz,
                                  SANITIZER_CBID_RUNTIME_API___cudaLaunchKernel,
                                  SANITIZER_CBID_RUNTIME_API___cudaLaunchKernel_ptsz})
    sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_RUNTIME_API, id);
  Capture::enable_query_callbacks(handle);
  std::atexit([] { Capture::instance().finish(); });
  return 1;
}
