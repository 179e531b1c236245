#pragma once
// Replay: stream a trace through a bank model and add up what it costs,
// in total and per source site. The data flows one way (trace -> model ->
// counts); replay knows neither the algorithm nor the preset.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/replay/cost_totals.hpp"
#include "sim/replay/global_totals.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck {

/// The first instruction that reaches the worst conflict degree of a trace (or of one site).
/// @post present iff there was an instruction with a conflict (degree >= 2).
struct WorstInstruction {
  bool present = false;
  std::uint64_t index = 0;  ///< 0-based position in the trace
  RecordPosition position;  ///< where it is in the trace file
  std::string site;
  Op op = Op::load;
  unsigned width = 4;
  std::vector<std::uint64_t> addr;  ///< its addresses, kept so the culprit can be named
  std::vector<std::uint64_t> source;  ///< a copy's source addresses (empty: none)
  RequestCost cost;
  WarpRequest request() const { return WarpRequest{op, width, addr, source}; }
  /// Keep the first instruction of the highest degree: true if `other` is worse than this.
  bool worse(const WorstInstruction& other) const {
    return other.present && (!present || other.cost.degree > cost.degree ||
                             (other.cost.degree == cost.degree && other.index < index));
  }
};

struct SiteTotals {
  std::string site;  ///< "" for instructions without a site
  CostTotals totals;             ///< the modelled instructions only
  WorstInstruction worst;        ///< the site's worst instruction
  std::uint64_t unmodelled = 0;  ///< instructions the model has no rule for
  GlobalTotals global;           ///< the site's global-memory instructions (gld, gst)
};

/// Instructions of one kind (op, width) that the model has no rule for
/// (BankModel::models): counted apart from the totals, never costed.
struct UnmodelledKind {
  Op op = Op::load;
  unsigned width = 0;
  std::uint64_t instructions = 0;
  std::uint64_t lane_accesses = 0;
  bool operator==(const UnmodelledKind&) const = default;
};

struct ReplaySummary {
  std::string model;  ///< BankModel::name()
  unsigned warp = 0;
  CostTotals totals;  ///< the modelled instructions only
  std::vector<SiteTotals> sites;  ///< in site-id order (order of definition); sites without instructions left out
  WorstInstruction worst;         ///< the worst of the sites' worst instructions
  /// Unmodelled instructions per kind, in (op, width) order; empty when the model costed everything.
  std::vector<UnmodelledKind> unmodelled;
  /// The gld/gst instructions, costed by model/global_access.hpp (replay_global_geometry) and in no field above.
  GlobalTotals global;
  std::uint64_t unmodelled_instructions() const;
};

/// What replay tells a per-instruction observer; `request` lives until the next call.
struct InstructionCost {
  std::uint64_t index = 0;  ///< 0-based position in the trace
  std::uint32_t site = 0;   ///< id in the source's SiteTable
  const WarpRequest& request;
  unsigned active = 0;      ///< active lanes
  RequestCost cost;         ///< cost.modelled false: not costed (all counts zero)
  GlobalCost global;        ///< for gld/gst (is_global(request.op)): their sectors; else zero
  const TraceLocation* location = nullptr;  ///< where it ran, for captured traces
};

using InstructionObserver = std::function<void(const InstructionCost&)>;

/// Active (not kInactive) lanes of a request.
unsigned active_lanes(const WarpRequest& request);

/// Replay every record of `source` through `model`.
/// @pre nothing; a warp mismatch is reported, not assumed away.
/// @throws std::invalid_argument when source.warp() != model.geometry().warp,
///         TraceError on malformed input, std::overflow_error if a total would exceed 2^64-1.
ReplaySummary replay(TraceSource& source, const BankModel& model, const InstructionObserver& observer = {});

}  // namespace bankcheck
