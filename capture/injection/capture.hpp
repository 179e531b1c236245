#pragma once
// The capture library's state and its sanitizer callbacks: the module and
// context callbacks (injection.cpp) and the launch callbacks
// (capture/injection/launch_callbacks.hpp) are its members.
#include <cuda.h>
#include <sanitizer.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "capture/host/run/capture_options.hpp"
#include "capture/host/launch/driver_queries.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/launch/launch_filter.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/host/tensor_maps/tensor_maps.hpp"
#include "capture/injection/active_launch.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

class Capture {
 public:
  static Capture& instance() {
    static Capture* capture = new Capture();  // never destroyed: callbacks may come during exit
    return *capture;
  }

  bool start();
  void on_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data);
  void finish();
  /// The driver and runtime queries recorded in queries.csv (capture/injection/query_callbacks.hpp).
  static bool is_query(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid);
  static void enable_query_callbacks(Sanitizer_SubscriberHandle handle);

 private:
  void error(const std::string& message);
  void note(const std::string& message);
  bool check(SanitizerResult r, const char* call, const std::string& what = "");
  void on_context(CUcontext context);
  void on_module(const Sanitizer_ResourceModuleData& module);
  LaunchRow new_row(const Sanitizer_LaunchData& launch);
  void on_launch_begin(const Sanitizer_LaunchData& launch);
  void on_launch_end(const Sanitizer_LaunchData& launch);
  std::unique_ptr<ActiveLaunch> begin_launch(const Sanitizer_LaunchData& launch, LaunchRow row,
                                             Sanitizer_StreamHandle stream, CaptureDescriptor** route = nullptr);
  bool start_trace(std::unique_ptr<ActiveLaunch>& a);
  void end_launch(ActiveLaunch& a, Sanitizer_StreamHandle stream, const std::string& problem = "");
  void end_trace(ActiveLaunch& a, const CaptureDescriptor* device, std::vector<std::string>& problems);
  void on_graph(Sanitizer_CallbackId cbid, const void* data);
  void on_graph_node_begin(const Sanitizer_GraphNodeLaunchData& node);
  void on_graph_launch_call(const Sanitizer_CallbackData& call);
  void finish_graph_launches(bool every_thread = false);
  GraphRouter* router_for(const Sanitizer_GraphNodeLaunchData& node, Sanitizer_StreamHandle stream);
  GraphRouter* acquire_router(CUcontext context, Sanitizer_StreamHandle stream);
  bool add_route(GraphRouter& router, std::uint64_t grid, CaptureDescriptor* route, Sanitizer_StreamHandle stream);
  std::string release_router(std::thread::id thread);
  void on_driver_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data);
  void on_runtime_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data);
  void on_tensor_map_encode(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data);
  void join_tensor_maps(std::uint64_t launch, CUfunction function);
  Ring* acquire_ring(CUcontext context);
  Ring* allocate_ring(CUcontext context);
  std::uint64_t rings_held(CUcontext context) const;
  void write_row(const LaunchRow& row);
  void finish_launch(ActiveLaunch& a, const std::vector<std::string>& problems);
  bool begin_summary(ActiveLaunch& a, CaptureDescriptor& d, Sanitizer_StreamHandle stream);
  void end_summary(ActiveLaunch& a, const CaptureDescriptor& d, Sanitizer_StreamHandle stream,
                   std::vector<std::string>& problems);
  std::uint64_t table_bytes() const;
  bool allocate_table(Ring& ring);
  bool begin_table(const Ring& ring, CaptureDescriptor& d, Sanitizer_StreamHandle stream);
  void end_table(ActiveLaunch& a, const CaptureDescriptor& d, std::vector<std::string>& problems);
  void register_function(CUmodule module, const char* name);
  void on_query(Sanitizer_CallbackDomain domain, const Sanitizer_CallbackData& call, Sanitizer_CallbackId cbid);

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
  std::ofstream summary_;  // summary.csv, in summary mode
  std::ofstream tensor_maps_;         // tensor_maps.csv
  std::ofstream launch_tensor_maps_;  // launch_tensor_maps.csv
  std::vector<TensorMapRow> tensor_map_rows_;
  std::ofstream queries_;                 // queries.csv
  std::vector<DriverQuery> query_rows_;
  std::vector<EncodedTensorMap> encoded_maps_;
  std::map<std::string, std::uint64_t> unsearched_launches_;  // launches not searched for maps, by reason
  std::uint64_t searched_launches_ = 0, searched_param_bytes_ = 0, found_maps_ = 0;  // what the search saw
  std::string first_search_;  // the first searched launch's parameter layout, for the status note
  std::ofstream status_;
  FunctionMap functions_;
  std::set<CUcontext> patched_contexts_;
  std::vector<std::unique_ptr<Ring>> rings_;
  TraceBudget budget_;  // --max-bytes
  std::map<Sanitizer_LaunchHandle, std::unique_ptr<ActiveLaunch>> active_;  // stream launches, by handle
  /// An executable graph: its number, its launches so far, its kernel nodes' numbers.
  struct GraphExec {
    std::uint64_t index = 0, launches = 0;
    std::uint32_t last_launch_id = 0;
    bool launched = false, device_launch = false, launches_device_graphs = false;
    std::map<CUgraphNode, std::uint64_t> nodes;
  };
  GraphExec& graph_exec(CUgraphExec exec);
  std::map<CUgraphExec, GraphExec> graph_execs_;
  std::uint64_t next_graph_exec_ = 0;
  /// Kernel nodes begun whose graph launch call has not returned (or not been waited for) yet, in node order.
  std::vector<std::unique_ptr<ActiveLaunch>> graph_launches_;
  /// The graph launch in progress on a thread: which, its router, its stream.
  struct RoutedLaunch {
    CUgraphExec exec = nullptr;
    std::uint32_t launch_id = 0;
    GraphRouter* router = nullptr;
    Sanitizer_StreamHandle stream = nullptr;
  };
  std::map<std::thread::id, RoutedLaunch> routed_;
  std::vector<std::unique_ptr<GraphRouter>> routers_;
  std::uint64_t next_launch_ = 0;
  std::uint64_t modules_ = 0;
  std::uint64_t modules_skipped_ = 0;  // loaded modules with no function the filter can select
  double module_seconds_ = 0;          // in module callbacks: reading, writing and patching cubins
  std::uint64_t child_launches_ = 0;
  // cuLaunchKernel's sharedMemBytes, seen on API entry, for the launch callback that follows on this thread;
  // and the launch's parameters (driver or runtime API), valid until the API call returns, when they are cleared.
  struct PendingLaunch {
    CUfunction function = nullptr;
    std::uint64_t dynamic_shared = 0;
  };
  struct PendingParams {
    bool seen = false;             // a launch API call is in progress on this thread
    void** kernel_params = nullptr;  // one pointer per parameter (cuLaunchKernel's kernelParams, the runtime's args)
    void** extra = nullptr;          // cuLaunchKernel's extra: CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE
  };
  static thread_local PendingParams pending_params_;
  static thread_local PendingLaunch pending_;
  // The program's runtime query in progress on this thread (queries nest: the runtime asks the driver).
  struct RuntimeQuery {
    unsigned depth = 0;
    std::string function;  // named by the driver query the runtime made inside it
  };
  static thread_local RuntimeQuery runtime_query_;
};

thread_local Capture::PendingLaunch Capture::pending_;
thread_local Capture::PendingParams Capture::pending_params_;
thread_local Capture::RuntimeQuery Capture::runtime_query_;

}  // namespace
