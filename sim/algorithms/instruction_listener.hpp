#pragma once
// InstructionListener: where the BlockRecorder (sim/algorithms/block_recorder.hpp)
// sends each warp instruction it forms, with InstructionInfo saying where the
// instruction sits (block, warp, phase, site, round). The registry's replay
// (sim/algorithms/algorithm_registry.cpp), the trace writer (SinkListener
// below), `bankcheck draw` and the capture comparison
// (kernels/capture_trace.cuh) are listeners.
#include <cstdint>
#include <string_view>

#include "model/warp_request.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck {

/// Where an instruction sits: for per-round breakdowns.
struct InstructionInfo {
  std::uint64_t block = 0;      ///< block index given to run()
  unsigned warp_index = 0;      ///< warp within the block
  unsigned phase = 0;           ///< phase (barrier-separated step) of the algorithm
  unsigned site = 0;            ///< the algorithm's site id
  std::uint64_t k = 0;          ///< 0-based dynamic execution index of the site in this phase (the round)
  std::string_view name;        ///< "<algorithm>.<site name>"
  unsigned active = 0;          ///< active lanes
};

/// Receives the warp instructions of a run.
class InstructionListener {
 public:
  virtual ~InstructionListener() = default;
  virtual void instruction(const InstructionInfo& info, const WarpRequest& request) = 0;
};

/// Forwards instructions to a TraceSink (the caller calls sink.begin/end).
class SinkListener final : public InstructionListener {
 public:
  explicit SinkListener(TraceSink& sink) : sink_(sink) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    sink_.record(info.name, request);
  }

 private:
  TraceSink& sink_;
};

}  // namespace bankcheck
