#pragma once
// The capture library's CUDA graph callbacks. Measured on an H200 (driver
// 580.159.04, 2026-11-29, validate/capture/graph_callbacks_probe.cpp): a
// graph's kernel nodes raise no launch-domain begin or end; inside the graph
// launch call the graphs domain raises a begin and an end for every node, in
// node order, all before the graph runs (a 10 ms node's end came within
// microseconds, and a stream synchronisation there waited for nothing of
// it), each kernel node with a launch handle that stays the node's for
// every launch of its graph. cudaGraphUpload raises the same callbacks,
// marked as an upload, and runs nothing.
//
// The callback data a node begin sets is not the node's alone: on the same
// H200 the nodes of one stream whose begins came before their ends wrote
// into the ring set last (three strided_mix nodes of graph_nodes.cu: one
// trace held all their records, the others none; graph_child.cu's slow_add
// records were in the next node's trace). So every kernel node of a
// graph launch gets one callback data, the graph launch's router, whose
// table sends each grid (%gridid, the node's gridId) to its node's own
// descriptor (ring_layout.hpp, GridRoute; capture/device/patches.cu).
//
// Each kernel node of each graph launch is a launch of its own (launches.csv
// row, ring, trace), set up in its node's begin callback (its descriptor and
// its route, copied on the graph launch's stream and waited for there,
// which holds only work queued before the graph), and ended when the graph
// launch call returns: the graph has been submitted then, and waiting for
// the graph launch's stream waits for all its nodes. Nodes in flight
// together hold rings of their own. A graph instantiated
// for launch from the device runs kernels that raise no callback: such
// launches are named, never guessed (docs/capture.md).
#include <cuda.h>
#include <sanitizer.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capture/injection/active_launch.hpp"
#include "capture/injection/capture.hpp"
#include "capture/injection/launch_callbacks.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

/// What the untraced column says of a launch of a graph that can launch graphs from the device.
constexpr const char* kDeviceGraphLaunches =
    "device graph launches (the kernels of graphs it launches from the device raise no callback: not captured)";

Capture::GraphExec& Capture::graph_exec(CUgraphExec exec) {
  auto [it, added] = graph_execs_.try_emplace(exec);
  if (added) it->second.index = next_graph_exec_++;
  return it->second;
}

void Capture::on_graph(Sanitizer_CallbackId cbid, const void* data) {
  if (child_) {
    if (cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN) on_graph_node_begin(*static_cast<const Sanitizer_GraphNodeLaunchData*>(data));
    return;
  }
  switch (cbid) {
    case SANITIZER_CBID_GRAPHS_GRAPHEXEC_CREATED: {
      const auto& g = *static_cast<const Sanitizer_GraphExecData*>(data);
      graph_execs_.erase(g.graphExec);  // a destroyed graph's handle may come back for a new one
      GraphExec& exec = graph_exec(g.graphExec);
      exec.device_launch = g.isDeviceLaunch != 0;
      exec.launches_device_graphs = g.containsDeviceGraphLaunches != 0;
      if (exec.device_launch)
        note("graph " + std::to_string(exec.index) + " is instantiated for launch from the device: its kernels, "
             "when launched from the device, raise no callback and are not captured");
      break;
    }
    case SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN:
      on_graph_node_begin(*static_cast<const Sanitizer_GraphNodeLaunchData*>(data));
      break;
    case SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN:
      // Graph launches this thread made before were submitted when their call returned.
      if (static_cast<const Sanitizer_GraphLaunchData*>(data)->isGraphUpload == 0) finish_graph_launches();
      break;
    default: break;
  }
}

void Capture::on_graph_node_begin(const Sanitizer_GraphNodeLaunchData& node) {
  if (node.nodeType != CU_GRAPH_NODE_TYPE_KERNEL) return;
  const Sanitizer_LaunchData& launch = node.launchData;
  if (node.isGraphUpload != 0) {  // nothing runs: no launch, and no callback data to keep
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    return;
  }
  if (child_) {
    ++child_launches_;
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    return;
  }
  GraphExec& exec = graph_exec(node.graphExec);
  if (exec.launched && exec.last_launch_id != node.launchId) ++exec.launches;
  exec.launched = true;
  exec.last_launch_id = node.launchId;
  LaunchRow row = new_row(launch);
  row.graph_exec = exec.index;
  row.graph_launch = exec.launches;
  row.graph_node = exec.nodes.try_emplace(node.node, exec.nodes.size()).first->second;
  if (exec.launches_device_graphs) {
    row.untraced = kDeviceGraphLaunches;
    if (exec.launches == 0 && row.graph_node == 0)
      error("graph " + std::to_string(exec.index) + " can launch graphs from the device: the kernels those graphs "
            "run raise no callback and are not in launches.csv (its launches say so in the untraced column)");
  }
  GraphRouter* router = router_for(node, launch.hApiStream);
  std::unique_ptr<ActiveLaunch> a;
  if (router == nullptr) {  // without a router a node's own data would reach other nodes: not traced
    sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, nullptr);
    a = std::make_unique<ActiveLaunch>();
    a->row = std::move(row);
    a->row.status = std::string(kStatusIncomplete) + ": not traced: no route table for its graph launch";
  } else {
    CaptureDescriptor* route = nullptr;
    a = begin_launch(launch, std::move(row), launch.hApiStream, &route);
    add_route(*router, launch.gridId, route, launch.hApiStream);
    check(sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, router->device),
          "sanitizerSetLaunchCallbackData", "graph router");
  }
  a->thread = std::this_thread::get_id();
  graph_launches_.push_back(std::move(a));
}

GraphRouter* Capture::router_for(const Sanitizer_GraphNodeLaunchData& node, Sanitizer_StreamHandle stream) {
  const auto self = std::this_thread::get_id();
  auto it = routed_.find(self);
  if (it != routed_.end() && (it->second.exec != node.graphExec || it->second.launch_id != node.launchId)) {
    finish_graph_launches();  // a graph launch of this thread whose call's return no callback told
    it = routed_.find(self);
  }
  if (it != routed_.end()) return it->second.router;
  GraphRouter* router = acquire_router(node.launchData.context, stream);
  if (router == nullptr) return nullptr;
  routed_[self] = RoutedLaunch{node.graphExec, node.launchId, router, stream};
  return router;
}

GraphRouter* Capture::acquire_router(CUcontext context, Sanitizer_StreamHandle stream) {
  GraphRouter* router = nullptr;
  for (auto& r : routers_)
    if (r->context == context && !r->in_use) router = r.get();
  if (router == nullptr) {
    auto fresh = std::make_unique<GraphRouter>();
    fresh->context = context;
    void* device = nullptr;
    void* table = nullptr;
    if (!check(sanitizerAlloc(context, &device, sizeof(CaptureDescriptor)), "sanitizerAlloc", "graph router") ||
        !check(sanitizerAlloc(context, &table, sizeof(GridRoute) * kRouteCapacity), "sanitizerAlloc", "route table"))
      return nullptr;
    fresh->device = static_cast<CaptureDescriptor*>(device);
    fresh->table = static_cast<GridRoute*>(table);
    routers_.push_back(std::move(fresh));
    router = routers_.back().get();
  }
  // An empty table (every grid kNoGrid: all bits set), then the router descriptor that names it.
  router->grids.assign(kRouteCapacity, kNoGrid);
  router->entries = 0;
  CaptureDescriptor header{};
  header.route_capacity = kRouteCapacity;
  header.routes = router->table;
  if (!check(sanitizerMemset(router->table, 0xFF, sizeof(GridRoute) * kRouteCapacity, stream), "sanitizerMemset",
             "route table") ||
      !check(sanitizerMemcpyHostToDeviceAsync(router->device, &header, sizeof header, stream),
             "sanitizerMemcpyHostToDeviceAsync", "graph router") ||
      !check(sanitizerStreamSynchronize(stream), "sanitizerStreamSynchronize", "graph router"))
    return nullptr;
  router->in_use = true;
  return router;
}

bool Capture::add_route(GraphRouter& router, std::uint64_t grid, CaptureDescriptor* route, Sanitizer_StreamHandle stream) {
  if (2 * (router.entries + 1) > kRouteCapacity) {
    error("a graph launch has more than " + std::to_string(kRouteCapacity / 2) +
          " kernel nodes: the records of the rest are counted, not traced");
    return false;
  }
  const std::uint32_t mask = kRouteCapacity - 1;
  std::uint32_t h = static_cast<std::uint32_t>(grid) & mask;
  while (router.grids[h] != kNoGrid && router.grids[h] != grid) h = (h + 1) & mask;
  router.entries += router.grids[h] == kNoGrid;
  router.grids[h] = grid;
  GridRoute entry{grid, route};
  return check(sanitizerMemcpyHostToDeviceAsync(router.table + h, &entry, sizeof entry, stream),
               "sanitizerMemcpyHostToDeviceAsync", "route") &&
         check(sanitizerStreamSynchronize(stream), "sanitizerStreamSynchronize", "route");
}

/// Give back the router of `thread`'s graph launch, after it ran; what it
/// saw of grids that no node's route named ("" when none).
std::string Capture::release_router(std::thread::id thread) {
  const auto it = routed_.find(thread);
  if (it == routed_.end()) return "";
  const RoutedLaunch routed = it->second;
  routed_.erase(it);
  routed.router->in_use = false;
  CaptureDescriptor header{};
  if (!check(sanitizerStreamSynchronize(routed.stream), "sanitizerStreamSynchronize", "graph launch") ||
      !check(sanitizerMemcpyDeviceToHost(&header, routed.router->device, sizeof header, routed.stream),
             "sanitizerMemcpyDeviceToHost", "graph router"))
    return "the graph launch's route table could not be read back";
  if (header.unrouted == 0) return "";
  return std::to_string(header.unrouted) + " accesses of the graph launch came from a grid no node's route names "
         "(grid id " + std::to_string(header.unrouted_grid) + "): the traces of its nodes may lack them";
}

void Capture::on_graph_launch_call(const Sanitizer_CallbackData& call) {
  if (call.callbackSite == SANITIZER_API_EXIT) finish_graph_launches();
}

void Capture::finish_graph_launches(bool every_thread) {
  const auto self = std::this_thread::get_id();
  std::vector<std::unique_ptr<ActiveLaunch>> done, others;
  for (auto& a : graph_launches_) (every_thread || a->thread == self ? done : others).push_back(std::move(a));
  graph_launches_ = std::move(others);
  std::map<std::thread::id, std::string> unrouted;  // by thread: what its graph launch's router saw
  std::vector<std::thread::id> threads;
  for (const auto& [thread, routed] : routed_)
    if (every_thread || thread == self) threads.push_back(thread);
  for (const auto& thread : threads) unrouted[thread] = release_router(thread);
  for (auto& a : done) {
    if (a->ring == nullptr) write_row(a->row);
    else end_launch(*a, a->stream, unrouted[a->thread]);
  }
}

}  // namespace
