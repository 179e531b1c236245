#pragma once
// Test helper: run one block of an algorithm through the BlockRecorder and
// total the bank model's cost per site, so tests can compare with
// hand-computed conflict counts.
#include <map>
#include <string>

#include "model/bank_model.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/replay/cost_totals.hpp"

namespace bankcheck::test {


class TallyListener final : public InstructionListener {
 public:
  explicit TallyListener(const BankModel& model) : model_(model) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    const RequestCost c = model_.cost(request);
    for (CostTotals* t : {&sites[std::string(info.name)], &total}) t->add(info.active, c);
  }
  std::map<std::string, CostTotals> sites;
  CostTotals total;

 private:
  const BankModel& model_;
};

/// Run `algo` (one block of `threads` threads) and tally under `model`.
template <class Algo>
TallyListener tally(const Algo& algo, unsigned threads, const BankModel& model, std::size_t shared_bytes) {
  BlockRecorder recorder(shared_bytes);
  TallyListener listener(model);
  recorder.run(algo, threads, model.geometry().warp, listener);
  return listener;
}

}  // namespace bankcheck::test
