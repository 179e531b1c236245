#pragma once
// Test support for the CF sort's CPU replay (cf_merge_sort_test.cpp,
// cf_sort_replay_test.cpp): instructions, wavefronts and conflicts per
// "<algorithm>.<site>" on a bank model, as the replay's warp instructions arrive;
// requests the model does not cover are counted apart, so that a test can hold a
// site to none (an unmodelled request costs nothing here, which is no evidence).
#include <cstdint>
#include <map>
#include <string>

#include "model/bank_model.hpp"
#include "sim/algorithms/instruction_listener.hpp"

namespace bankcheck::test {

struct SiteCosts final : InstructionListener {
  explicit SiteCosts(const BankModel& m) : model(m) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    if (!counting) return;
    const RequestCost c = model.cost(request);
    auto& t = sites[std::string(info.name)];
    ++t.instructions;
    t.wavefronts += c.wavefronts;
    t.conflicts += c.conflicts();
    if (!c.modelled) ++t.unmodelled;
  }
  struct Cost {
    std::uint64_t instructions = 0, wavefronts = 0, conflicts = 0, unmodelled = 0;
  };
  const BankModel& model;
  bool counting = true;  ///< whether instructions now count (the whole-sort test counts whole tiles only)
  std::map<std::string, Cost> sites;
};

}  // namespace bankcheck::test
