#include "model/bank_model.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "model/cost_invariants.hpp"
#include "model/phase_rules.hpp"
#include "model/sm90_warp_cost.hpp"

namespace bankcheck {

BankModel::BankModel(std::string name, BankGeometry geometry, PhaseRule rule)
    : name_(std::move(name)), geometry_(geometry), rule_(rule) {
  if (geometry_.banks == 0) throw std::invalid_argument("banks must be >= 1");
  if (geometry_.warp == 0) throw std::invalid_argument("warp size must be >= 1");
  if (geometry_.bank_bytes != 0 && !is_valid_width(geometry_.bank_bytes))
    throw std::invalid_argument("bank bytes must be 1, 2, 4, 8 or 16");
  if (geometry_.rows_per_word == 0) throw std::invalid_argument("rows per word must be >= 1");
  // The sm90 rules (model/sm90_warp_cost.hpp) are written for the H100's geometry alone.
  if (rule_ == PhaseRule::sm90 && (geometry_.banks != sm90::kBanks || geometry_.bank_bytes != sm90::kWordBytes ||
                                   geometry_.warp != sm90::kLanes || geometry_.rows_per_word != 1))
    throw std::invalid_argument("the sm90 phase rule needs 32 banks of 4 bytes, 32-lane warps and one row per word");
  for (unsigned k = 0; k < plans_.size(); ++k) plans_[k] = single_phase_plan(geometry_, rule_, 1u << k);
}

AccessRule BankModel::rule(Op op, unsigned width) const {
  // Plain loads and stores of a power-of-two width follow the preset's phase
  // rule. The other kinds were measured on the H100 alone (docs/bank-model.md,
  // rules 4-6), so only sm90 costs them; on the theoretical and Kepler
  // presets they are reported as not modelled rather than costed as
  // something they are not. A 12-byte access is the 16-byte instruction
  // that carries it (cost_as_quad).
  if (rule_ == PhaseRule::sm90) return sm90::rule(op, width);
  if (width == kTripleWordWidth) return rule(op, 16) == AccessRule::unmodelled ? AccessRule::unmodelled : AccessRule::as_quad;
  if (!is_valid_width(width)) return AccessRule::unmodelled;
  return op == Op::load || op == Op::store ? AccessRule::phases : AccessRule::unmodelled;
}

namespace {

/// The sm90 rules of model/sm90_warp_cost.hpp on a request of the trace's shape.
RequestCost sm90_cost(const WarpRequest& r, Counter counter) {
  std::uint32_t active = 0;
  for (unsigned l = 0; l < sm90::kLanes; ++l) active |= r.addr[l] != kInactive ? sm90::lane_bit(l) : 0u;
  const std::uint64_t* source = has_source(r.op) && r.source.size() == sm90::kLanes ? r.source.data() : nullptr;
  const sm90::WarpCost c = sm90::warp_cost(r.op, r.width, r.addr.data(), active, counter, source);
  return RequestCost{c.wavefronts, c.ideal, c.degree, c.modelled};
}

}  // namespace

RequestCost BankModel::cost(const WarpRequest& request) const {
  const unsigned w = request.width;
  // Plain loads and stores of one phase (the hot path) try the SIMD
  // shortcut first; everything else of sm90 is the shared host/device code,
  // and the other presets' kinds go to rule().
  const bool plain = request.op <= Op::store && std::has_single_bit(w) && w <= 16;
  if (plain && request.addr.size() == 32) {
    const SinglePhasePlan& plan = plans_[std::countr_zero(w)];
    if (plan.kernel != nullptr) {
      const std::uint32_t d = plan.kernel(request.addr.data(), plan.map);
      if (d != kNoSimdDegree) return cost_of_degree(d);
    }
  }
  if (rule_ == PhaseRule::sm90) return sm90_cost(request, Counter::instruction);
  if (plain) return cost_by_phases(geometry_, rule_, request);
  switch (rule(request.op, w)) {
    case AccessRule::phases: return cost_by_phases(geometry_, rule_, request);
    case AccessRule::as_quad: return cost_as_quad(request);
    default: return RequestCost{0, 0, 0, false};
  }
}

RequestCost BankModel::kernel_counter_cost(const WarpRequest& request) const {
  if (rule_ == PhaseRule::sm90) return sm90_cost(request, Counter::kernel);
  return cost(request);
}

namespace {
/// A 12-byte request as the 16-byte instruction that carries it (rule 7), or
/// nothing where an active address is not 16-byte aligned.
std::optional<WarpRequest> as_quad(const WarpRequest& request) {
  for (std::uint64_t a : request.addr)
    if (a != kInactive && !carried_by_quad(a)) return std::nullopt;
  return WarpRequest{request.op, 16, request.addr, request.source};
}
}  // namespace

RequestCost BankModel::cost_as_quad(const WarpRequest& request) const {
  // The sanitizer reports 12 bytes for a 16-byte instruction that uses three
  // of its words (CUB BlockScan's warp aggregates: LDS.128 at a uniform,
  // 16-byte aligned address; measured 2 wavefronts for the broadcast, as a
  // 16-byte load). A 12-byte access at an address that is not 16-byte
  // aligned is no single instruction: not modelled.
  const auto quad = as_quad(request);
  return quad && models(quad->op, 16) ? cost(*quad) : RequestCost{0, 0, 0, false};
}

ConflictCulprit BankModel::culprit(const WarpRequest& request) const {
  if (!models(request.op, request.width)) return {};
  const AccessRule r = rule(request.op, request.width);
  if (r == AccessRule::as_quad) {  // the phases and words of the cost: the 16-byte instruction's
    const auto quad = as_quad(request);
    return quad ? culprit(*quad) : ConflictCulprit{};
  }
  if (r == AccessRule::atomic_lanes || r == AccessRule::atomic_lanes2)  // each lane its own pass: lanes pile up
    return phase_lane_culprit(geometry_, rule_, {Op::store, request.width, request.addr});
  // The picture of where lanes pile up: loads keep their own phases, every
  // other kind has a store's.
  if (request.op == Op::load) return phase_culprit(geometry_, rule_, request);
  return phase_culprit(geometry_, rule_, {Op::store, request.width, request.addr});
}

std::vector<std::uint32_t> BankModel::bank_words(const WarpRequest& request) const {
  if (request.width == kTripleWordWidth)
    if (const auto quad = as_quad(request)) return phase_bank_words(geometry_, rule_, *quad);
  return phase_bank_words(geometry_, rule_, request);
}

std::string BankModel::describe() const {
  const auto& g = geometry_;
  std::string cell = g.bank_bytes == 0 ? "one element per cell" : std::to_string(g.bank_bytes) + "-byte cells";
  std::string text = name_ + ": " + std::to_string(g.banks) + " banks of " + cell + ", warp " +
                     std::to_string(g.warp) + ", multicast of identical cells";
  if (g.rows_per_word > 1)
    text += ", cells i and i+" + std::to_string(g.banks) + " of a " + std::to_string(g.banks * g.rows_per_word) +
            "-cell segment share a bank word";
  switch (rule_) {
    case PhaseRule::none: text += ", whole warp in one phase"; break;
    case PhaseRule::bytes: text += ", phases of " + std::to_string(g.banks * g.bank_bytes) + " bytes"; break;
    case PhaseRule::sm90: text += ", H100 phase rules as measured (docs/bank-model.md)"; break;
  }
  return text;
}

std::vector<std::string_view> preset_names() { return {"dmm", "sm90", "kepler-4B", "kepler-8B"}; }

namespace {
void require_warp32(std::string_view preset, unsigned warp) {
  if (warp != 32)
    throw std::invalid_argument(std::string(preset) + " models real hardware with 32-lane warps; got warp " +
                                std::to_string(warp) + " (use --model dmm or --banks/--warp for other sizes)");
}
}  // namespace

BankModel make_preset(std::string_view name, unsigned warp, unsigned banks) {
  if (warp == 0) throw std::invalid_argument("warp size must be >= 1 (got 0)");
  if (name == "dmm") return BankModel("dmm", {banks == 0 ? warp : banks, 0, warp, 1}, PhaseRule::none);
  if (name == "sm90") {
    require_warp32(name, warp);
    return BankModel("sm90", {32, 4, 32, 1}, PhaseRule::sm90);
  }
  if (name == "kepler-4B") {
    require_warp32(name, warp);
    return BankModel("kepler-4B", {32, 4, 32, 2}, PhaseRule::bytes);
  }
  if (name == "kepler-8B") {
    require_warp32(name, warp);
    return BankModel("kepler-8B", {32, 8, 32, 1}, PhaseRule::bytes);
  }
  std::string allowed;
  for (auto n : preset_names()) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
  throw std::invalid_argument("unknown model '" + std::string(name) + "'; allowed: " + allowed);
}

BankModel make_custom(unsigned banks, unsigned bank_bytes, unsigned warp) {
  if (banks == 0) throw std::invalid_argument("--banks must be >= 1 (got 0)");
  if (warp == 0) throw std::invalid_argument("--warp must be >= 1 (got 0)");
  if (!is_valid_width(bank_bytes))
    throw std::invalid_argument("--bank-bytes must be one of 1, 2, 4, 8, 16 (got " + std::to_string(bank_bytes) + ")");
  return BankModel("custom", {banks, bank_bytes, warp, 1}, PhaseRule::none);
}

}  // namespace bankcheck
