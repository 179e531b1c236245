// Which Compute Sanitizer callbacks a CUDA graph raises, and when: an
// injection library (CUDA_INJECTION64_PATH) that patches nothing and logs
// every callback of the launch and graphs domains, with the time since it
// was loaded and the calling thread, to $PROBE_LOG. Used by
// validate/capture/graph_suite.sh (probe step) to establish the facts that
// capture/injection/ relies on for graph launches (docs/capture.md).
//   PROBE_SET=1   call sanitizerSetLaunchCallbackData(..., nullptr) in every
//                 begin callback and log its result (may a tool set a graph
//                 node's callback data, and from which callback)
//   PROBE_SYNC=1  call sanitizerStreamSynchronize on the launch's stream in
//                 every end callback and log how long it waited
// Build: g++ -std=c++17 -shared -fPIC -I$SAN/include -I$CUDA/include
//        graph_callbacks_probe.cpp -L$SAN -lsanitizer-public -o probe.so
#include <cuda.h>
#include <pthread.h>
#include <sanitizer.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {

std::mutex log_mutex;
FILE* log_file = nullptr;
const auto started = std::chrono::steady_clock::now();
bool set_data = false, sync_end = false;

double micros() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
}

void line(const std::string& text) {
  std::lock_guard<std::mutex> lock(log_mutex);
  if (log_file == nullptr) return;
  std::fprintf(log_file, "%12.1f t%lx %s\n", micros(), static_cast<unsigned long>(pthread_self()) & 0xffff, text.c_str());
  std::fflush(log_file);
}

std::string hex(const void* p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}

std::string launch_text(const Sanitizer_LaunchData& l) {
  return std::string(l.functionName ? l.functionName : "?") + " grid " + std::to_string(l.gridDim_x) + "x" +
         std::to_string(l.gridDim_y) + "x" + std::to_string(l.gridDim_z) + " gridId " + std::to_string(l.gridId) +
         " hLaunch " + hex(l.hLaunch) + " stream " + hex(l.stream) + " hStream " + hex(l.hStream) + " apiStream " +
         hex(l.apiStream) + " hApiStream " + hex(l.hApiStream);
}

void maybe_set(const char* where, const Sanitizer_LaunchData& l) {
  if (!set_data) return;
  const SanitizerResult r = sanitizerSetLaunchCallbackData(l.hLaunch, l.function, l.hStream, nullptr);
  line(std::string("  set callback data in ") + where + ": result " + std::to_string(r));
}

void maybe_sync(const char* where, Sanitizer_StreamHandle stream) {
  if (!sync_end) return;
  const double t0 = micros();
  const SanitizerResult r = sanitizerStreamSynchronize(stream);
  line(std::string("  sync in ") + where + ": result " + std::to_string(r) + " after " +
       std::to_string(static_cast<long>(micros() - t0)) + " us");
}

void on_launch(Sanitizer_CallbackId cbid, const Sanitizer_LaunchData& l) {
  const char* name = cbid == SANITIZER_CBID_LAUNCH_BEGIN ? "LAUNCH_BEGIN"
                     : cbid == SANITIZER_CBID_LAUNCH_END ? "LAUNCH_END"
                     : cbid == SANITIZER_CBID_LAUNCH_AFTER_SYSCALL_SETUP ? "LAUNCH_AFTER_SYSCALL_SETUP" : "LAUNCH_?";
  line(std::string(name) + " " + launch_text(l));
  if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) maybe_set("LAUNCH_BEGIN", l);
  if (cbid == SANITIZER_CBID_LAUNCH_END) maybe_sync("LAUNCH_END", l.hStream);
}

void on_graph(Sanitizer_CallbackId cbid, const void* data) {
  switch (cbid) {
    case SANITIZER_CBID_GRAPHS_GRAPHEXEC_CREATING:
    case SANITIZER_CBID_GRAPHS_GRAPHEXEC_CREATED:
    case SANITIZER_CBID_GRAPHS_GRAPHEXEC_DESTROYING: {
      const auto& g = *static_cast<const Sanitizer_GraphExecData*>(data);
      line(std::string(cbid == SANITIZER_CBID_GRAPHS_GRAPHEXEC_CREATING   ? "GRAPHEXEC_CREATING"
                       : cbid == SANITIZER_CBID_GRAPHS_GRAPHEXEC_CREATED ? "GRAPHEXEC_CREATED"
                                                                         : "GRAPHEXEC_DESTROYING") +
           " graph " + hex(g.graph) + " exec " + hex(g.graphExec) + " deviceLaunch " + std::to_string(g.isDeviceLaunch) +
           " containsDeviceGraphLaunches " + std::to_string(g.containsDeviceGraphLaunches));
      break;
    }
    case SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN:
    case SANITIZER_CBID_GRAPHS_NODE_LAUNCH_END: {
      const auto& n = *static_cast<const Sanitizer_GraphNodeLaunchData*>(data);
      const bool begin = cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN;
      std::string text = std::string(begin ? "NODE_LAUNCH_BEGIN" : "NODE_LAUNCH_END") + " exec " + hex(n.graphExec) +
                         " launchId " + std::to_string(n.launchId) + " node " + hex(n.node) + " type " +
                         std::to_string(static_cast<int>(n.nodeType)) + " upload " + std::to_string(n.isGraphUpload);
      if (n.nodeType == CU_GRAPH_NODE_TYPE_KERNEL) text += " | " + launch_text(n.launchData);
      line(text);
      if (n.nodeType == CU_GRAPH_NODE_TYPE_KERNEL && begin) maybe_set("NODE_LAUNCH_BEGIN", n.launchData);
      if (n.nodeType == CU_GRAPH_NODE_TYPE_KERNEL && !begin) maybe_sync("NODE_LAUNCH_END", n.launchData.hStream);
      break;
    }
    case SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN:
    case SANITIZER_CBID_GRAPHS_LAUNCH_END: {
      const auto& g = *static_cast<const Sanitizer_GraphLaunchData*>(data);
      line(std::string(cbid == SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN ? "GRAPH_LAUNCH_BEGIN" : "GRAPH_LAUNCH_END") +
           " exec " + hex(g.graphExec) + " stream " + hex(g.stream) + " hStream " + hex(g.hStream) + " upload " +
           std::to_string(g.isGraphUpload));
      break;
    }
    default: line("GRAPHS cbid " + std::to_string(cbid));
  }
}

void SANITIZERAPI callback(void*, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
  if (domain == SANITIZER_CB_DOMAIN_LAUNCH) on_launch(cbid, *static_cast<const Sanitizer_LaunchData*>(data));
  else if (domain == SANITIZER_CB_DOMAIN_GRAPHS) on_graph(cbid, data);
  else if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API || domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
    const auto& c = *static_cast<const Sanitizer_CallbackData*>(data);
    line(std::string(c.callbackSite == SANITIZER_API_ENTER ? "enter " : "exit  ") + (c.functionName ? c.functionName : "?"));
  }
}

}  // namespace

extern "C" int InitializeInjection() {
  const char* path = std::getenv("PROBE_LOG");
  log_file = std::fopen(path ? path : "/dev/stderr", "a");
  set_data = std::getenv("PROBE_SET") && std::getenv("PROBE_SET")[0] == '1';
  sync_end = std::getenv("PROBE_SYNC") && std::getenv("PROBE_SYNC")[0] == '1';
  line("init pid " + std::to_string(::getpid()));
  Sanitizer_SubscriberHandle handle = nullptr;
  if (sanitizerSubscribe(&handle, callback, nullptr) != SANITIZER_SUCCESS) return 1;
  sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_LAUNCH);
  sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_GRAPHS);
  // The graph and launch API calls, to see which callbacks come inside which call.
  for (Sanitizer_CallbackId id : {SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch, SANITIZER_CBID_RUNTIME_API_cudaGraphInstantiate,
                                  SANITIZER_CBID_RUNTIME_API_cudaGraphUpload, SANITIZER_CBID_RUNTIME_API_cudaStreamSynchronize,
                                  SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel, SANITIZER_CBID_RUNTIME_API___cudaLaunchKernel,
                                  SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture,
                                  SANITIZER_CBID_RUNTIME_API_cudaGraphExecKernelNodeSetParams,
                                  SANITIZER_CBID_RUNTIME_API_cudaGraphExecUpdate})
    sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_RUNTIME_API, id);
  return 1;
}
