// Tests of model/cost_invariants.hpp: each invariant by hand, and a
// semantic fuzzer that costs random and adversarial requests of every op and
// width (sim/inputs/random_requests.hpp) on every preset and checks every
// cost against the invariants, and the sm90 CPU path (BankModel, with its
// SIMD shortcut) against the rules the GPU runs (sm90::warp_cost); a
// request with a conflict must also make a worst-conflict row that the
// report writers accept (report::impossible_worst).
//
// CI runs a bounded number of requests with a fixed seed; the long mode
// (docs/fuzzing.md) sets BANKCHECK_FUZZ_REQUESTS and BANKCHECK_FUZZ_SEED.
// A failing request is shrunk (lanes dropped while it still fails) and
// printed as a text-trace line that `bankcheck replay` reads.
#include "model/cost_invariants.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "model/sm90_warp_cost.hpp"
#include "sim/inputs/random_requests.hpp"
#include "sim/report/results.hpp"

using namespace bankcheck;

TEST_CASE("cost_fault: each invariant, by hand") {
  CHECK(cost_fault(0, 0, 0, 0, 1) == CostFault::none);           // nothing active costs nothing
  CHECK(cost_fault(1, 1, 1, 1, 1) == CostFault::none);
  CHECK(cost_fault(32, 1, 32, 32, 1) == CostFault::none);        // a 32-way column
  CHECK(cost_fault(1, 0, 0, 0, 1) == CostFault::cost_without_lanes);
  CHECK(cost_fault(0, 0, 1, 0, 1) == CostFault::cost_without_lanes);
  CHECK(cost_fault(1, 0, 1, 2, 1) == CostFault::no_cost_with_lanes);
  CHECK(cost_fault(0, 0, 0, 2, 1) == CostFault::no_cost_with_lanes);
  CHECK(cost_fault(1, 1, 0, 2, 1) == CostFault::no_cost_with_lanes);
  CHECK(cost_fault(1, 2, 1, 2, 4) == CostFault::wavefronts_below_ideal);  // a cp.async.cg rule once gave this
  CHECK(cost_fault(2, 1, 3, 2, 4) == CostFault::degree_above_wavefronts);
  CHECK(cost_fault(9, 1, 9, 2, 4) == CostFault::degree_above_words);   // 2 lanes touch 8 words at most
  CHECK(cost_fault(8, 1, 8, 2, 4) == CostFault::none);
}

TEST_CASE("checked_cost: a fault throws, naming the kind and the counts; sound costs pass") {
  CHECK(checked_cost(4, 2, 2, true, Op::load, 4, 32, 1));
  CHECK(checked_cost(0, 0, 0, false, Op::atom, 12, 32, 4));
  CHECK_THROWS_WITH_AS(checked_cost(1, 2, 1, true, Op::cpasync_cg, 16, 2, 4),
                       "bank model bug: cpasync.cg 16 with 2 active lanes: fewer wavefronts than the ideal "
                       "(wavefronts 1, ideal 2, degree 1); please report it with this request",
                       CostInvariantError);
  CHECK_THROWS_AS(checked_cost(3, 0, 0, false, Op::ldsm, 16, 8, 4), CostInvariantError);  // counts, not modelled
}

TEST_CASE("conflicts_of: wavefronts - ideal, never wrapped") {
  CHECK(conflicts_of(34, 3) == 31);
  CHECK(conflicts_of(0, 0) == 0);
  CHECK(conflicts_of(~std::uint64_t{0}, 1) == ~std::uint64_t{0} - 1);
  CHECK_THROWS_AS(conflicts_of(1, 2), CostInvariantError);
}

TEST_CASE("lanes 0 and 8 of a cp.async.cg fill one row from one sector: 1 wavefront, ideal 1") {
  std::vector<std::uint64_t> dst(32, kInactive), src(32, kInactive);
  dst[0] = 0, dst[8] = 16, src[0] = 4096, src[8] = 4112;
  const RequestCost c = make_preset("sm90").cost(WarpRequest{Op::cpasync_cg, 16, dst, src});
  REQUIRE(c.modelled);
  CHECK(c.wavefronts == 1);  // one row written (rule 6b)
  CHECK(c.ideal == 1);       // 32 bytes fit one wavefront
  CHECK(c.conflicts() == 0);
}

namespace {

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

/// Bank words one lane of `width` touches under `model` (a bound on the degree).
unsigned words_per_lane(const BankModel& model, unsigned width) {
  const unsigned w = width == kTripleWordWidth ? 16 : width;
  const unsigned cell = model.geometry().bank_bytes == 0 ? w : model.geometry().bank_bytes;
  return std::max(1u, w / cell);
}

/// What is wrong with `model`'s costs of `r`, or nothing.
std::optional<std::string> violation(const BankModel& model, const inputs::FuzzRequest& r) {
  const unsigned active = r.active(), words = words_per_lane(model, r.width);
  auto check = [&](const char* what, const RequestCost& c) -> std::optional<std::string> {
    if (!c.modelled) {
      if (c.wavefronts != 0 || c.ideal != 0 || c.conflicts() != 0 || c.degree != 0)
        return std::string(what) + ": counts on a cost not modelled";
      return std::nullopt;
    }
    if (const CostFault f = cost_fault(c.wavefronts, c.ideal, c.degree, active, words); f != CostFault::none)
      return std::string(what) + ": " + cost_fault_text(f) + " (wavefronts " + std::to_string(c.wavefronts) +
             ", ideal " + std::to_string(c.ideal) + ", degree " + std::to_string(c.degree) + ")";
    if (c.conflicts() != c.wavefronts - c.ideal) return std::string(what) + ": conflicts != wavefronts - ideal";
    return std::nullopt;
  };
  try {
    const WarpRequest request = r.request();
    const RequestCost cost = model.cost(request), kernel = model.kernel_counter_cost(request);
    if (auto v = check("cost", cost)) return v;
    if (auto v = check("kernel_counter_cost", kernel)) return v;
    if (kernel.modelled != cost.modelled || kernel.ideal != cost.ideal || kernel.wavefronts > cost.wavefronts)
      return std::string("the kernel counters count more than, or other phases than, the instruction's");
    if (cost.modelled && cost.degree >= 2) {  // as the worst conflict, a row the writers print, never refuse
      WorstInstruction w;
      w.present = true;
      w.op = r.op, w.width = r.width, w.addr = r.addr, w.source = r.source, w.cost = cost;
      const std::string why = report::impossible_worst(report::worst_row(model, w, ""), model.geometry().warp);
      if (!why.empty()) return "its worst-conflict row cannot happen: " + why;
    }
    if (model.phase_rule() != PhaseRule::sm90) return std::nullopt;
    // The CPU path (BankModel, SIMD shortcut included) is the GPU's code.
    const std::uint64_t* source = r.source.empty() ? nullptr : r.source.data();
    for (const Counter counter : {Counter::instruction, Counter::kernel}) {
      const sm90::WarpCost g = sm90::warp_cost(r.op, r.width, r.addr.data(), r.mask(), counter, source);
      const RequestCost& c = counter == Counter::instruction ? cost : kernel;
      if (g.modelled != c.modelled || g.wavefronts != c.wavefronts || g.ideal != c.ideal || g.degree != c.degree)
        return "BankModel and sm90::warp_cost differ (" + std::to_string(c.wavefronts) + "/" +
               std::to_string(c.ideal) + " against " + std::to_string(g.wavefronts) + "/" + std::to_string(g.ideal) +
               ")";
    }
    if (model.models(r.op, r.width) != (sm90::rule(r.op, r.width) != AccessRule::unmodelled))
      return std::string("BankModel::rule and sm90::rule differ");
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
  return std::nullopt;
}

/// Drops lanes while the request still fails, until no lane can go (a lane
/// may become droppable only once another is gone): the smallest request to read.
inputs::FuzzRequest shrink(const BankModel& model, inputs::FuzzRequest r) {
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (unsigned l = 0; l < 32; ++l) {
      if (r.addr[l] == kInactive) continue;
      inputs::FuzzRequest fewer = r;
      fewer.addr[l] = kInactive;
      if (!fewer.source.empty()) fewer.source[l] = kInactive;
      if (violation(model, fewer)) r = fewer, dropped = true;
    }
  }
  return r;
}

}  // namespace

TEST_CASE("semantic fuzzer: every cost of every preset keeps the invariants; sm90's CPU path is the GPU's rules") {
  const std::uint64_t seed = env_number("BANKCHECK_FUZZ_SEED", 29);
  const std::uint64_t requests = env_number("BANKCHECK_FUZZ_REQUESTS", 300000);
  const std::vector<BankModel> models = {make_preset("sm90"), make_preset("dmm"), make_preset("kepler-4B"),
                                         make_preset("kepler-8B"), make_custom(8, 1, 32)};
  inputs::RandomRequests fuzzer(seed);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t costed = 0, modelled = 0, sm90_modelled = 0;
  for (std::uint64_t i = 0; i < requests; ++i) {
    const inputs::FuzzRequest r = fuzzer.next();
    for (const BankModel& model : models) {
      ++costed;
      if (!violation(model, r)) {
        const bool m = model.cost(r.request()).modelled;
        modelled += m;
        sm90_modelled += m && model.phase_rule() == PhaseRule::sm90;
        continue;
      }
      const inputs::FuzzRequest small = shrink(model, r);
      FAIL("request " << i << " of seed " << seed << " (" << r.shape << "), model " << model.name() << ": "
                      << *violation(model, small) << "\nshrunk to:\nwarp 32\n"
                      << small.trace_line());
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(requests << " requests (seed " << seed << "), " << costed << " costs, " << modelled << " modelled, "
                   << seconds << " s");
  CHECK(sm90_modelled > requests / 2);  // the fuzzer reaches the rules, not only "not modelled"
}
