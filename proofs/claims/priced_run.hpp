#pragma once
// Running real algorithm code (sim/algorithms/*) for a claim: the block runs on
// the CPU through BlockRecorder and every warp instruction is priced with
// BankModel::cost as it is issued. A failing input can be written as a text
// trace, so that `bankcheck replay` shows it instruction by instruction.
#include <cstdint>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/claim.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::proofs {

/// One priced warp instruction.
struct Priced {
  unsigned phase = 0, site = 0, warp = 0;
  std::uint64_t k = 0;  ///< the instruction's round within its site and phase
  RequestCost cost;
};

class PricingListener final : public InstructionListener {
 public:
  explicit PricingListener(const BankModel& model) : model_(model) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    rows.push_back({info.phase, info.site, info.warp_index, info.k, model_.cost(request)});
  }
  std::vector<Priced> rows;

 private:
  const BankModel& model_;
};

/// Runs `algo` on one block of `threads` threads (warps of `warp` lanes) and
/// returns its priced instructions in issue order.
template <class Algo>
std::vector<Priced> price_block(const Algo& algo, std::size_t shared_bytes, unsigned threads, unsigned warp,
                                const BankModel& model) {
  BlockRecorder recorder(shared_bytes);
  PricingListener listener(model);
  recorder.run(algo, threads, warp, listener);
  return std::move(listener.rows);
}

/// Re-runs a failing input into `<artifact_dir>/<id>-w<w>-E<E>.trace` and
/// returns the replay command line ("" when no artifact directory is set).
template <class Algo>
std::string trace_counterexample(const CheckOptions& o, const std::string& id, const Point& p, const Algo& algo,
                                 std::size_t shared_bytes, unsigned threads) {
  if (o.artifact_dir.empty()) return {};
  const std::string path =
      o.artifact_dir + "/" + id + "-w" + std::to_string(p.w) + "-E" + std::to_string(p.E) + ".trace";
  auto sink = create_trace(path, TraceFormat::text);
  sink->begin(static_cast<unsigned>(p.w));
  BlockRecorder recorder(shared_bytes);
  SinkListener listener(*sink);
  recorder.run(algo, threads, static_cast<unsigned>(p.w), listener);
  sink->end();
  return "bankcheck replay " + path + " --model " + o.model + " --per-instruction";
}

/// "a,b,c" for a counterexample's input.
template <class T>
std::string list_text(const std::vector<T>& v) {
  std::string s;
  for (const T& x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);
  }
  return s;
}

}  // namespace bankcheck::proofs
