#pragma once
// The bank model: how many serialized passes (wavefronts) a warp request
// costs on a machine with a given bank geometry and service rules.
//
// Assumptions, stated up front (as nvFuser's bank-conflict pass does):
//  * A lane's access of `width` bytes touches the bank words (cells) that
//    hold those bytes; cell c lives in bank c mod banks.
//  * Lanes that read or write the same cell are served together (multicast
//    on loads; on stores one of them wins, at no extra cost).
//  * Lanes are served in phases; each phase costs the largest number of
//    distinct cells it needs from one bank (its conflict degree).
//  * What a phase is, and when phases of a load merge, is the preset's rule
//    (see docs/bank-model.md; sm90's rules were measured on an H100).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/access_rule.hpp"
#include "model/request_cost.hpp"
#include "model/simd_degree.hpp"
#include "model/warp_request.hpp"

namespace bankcheck {

/// Bank geometry: a parameter everywhere, never a hard-coded 32.
struct BankGeometry {
  unsigned banks = 32;       ///< number of banks, >= 1
  unsigned bank_bytes = 4;   ///< bytes per cell; 0 means "one element per cell" (the DMM)
  unsigned warp = 32;        ///< lanes per warp, >= 1
  /// Rows that share one physical bank word: Kepler's 4-byte mode serves
  /// words i and i+banks of a 2*banks-word segment together (value 2).
  unsigned rows_per_word = 1;
};

/// How lanes are split into phases for wide accesses.
enum class PhaseRule : std::uint8_t {
  none,    ///< the whole warp is one phase (DMM, custom models)
  bytes,   ///< phases of banks*bank_bytes bytes of lane data; stores and loads alike
  sm90,    ///< measured H100 rules: see docs/bank-model.md
};

/// Where the worst conflict of a request is: for reports and pictures.
struct ConflictCulprit {
  unsigned bank = 0;                   ///< a bank reaching the request's degree
  std::vector<unsigned> lanes;         ///< lanes whose distinct cells pile up there
  std::vector<std::uint64_t> cells;    ///< the distinct cells (cell index, not byte address)
  /// What piles up: distinct cells (loads, stores and the kinds costed as
  /// stores), or lanes, each its own pass whatever its cell (atomics, rule 4).
  enum class Unit : std::uint8_t { cells, lanes } unit = Unit::cells;
};

class BankModel {
 public:
  BankModel(std::string name, BankGeometry geometry, PhaseRule rule);

  const std::string& name() const { return name_; }
  const BankGeometry& geometry() const { return geometry_; }
  PhaseRule phase_rule() const { return rule_; }

  /// @pre request.addr.size() == geometry().warp and is_valid_access(request.op, request.width).
  /// @post result.modelled == (rule(request.op, request.width) != AccessRule::unmodelled), except that a
  ///       12-byte request whose active addresses are not all 16-byte aligned is not modelled.
  RequestCost cost(const WarpRequest& request) const;

  /// What the kernel-level counters show for this request (see Counter).
  RequestCost kernel_counter_cost(const WarpRequest& request) const;
  /// Whether kernel_counter_cost() can differ from cost() for requests of
  /// `op` and `width`: sm90's 8-byte loads only (rule 3), and only where
  /// cost() has a conflict; elsewhere the two are one count, and callers
  /// need not ask twice.
  bool kernel_counter_may_differ(Op op, unsigned width) const {
    return rule_ == PhaseRule::sm90 && op == Op::load && width == 8;
  }

  /// A 12-byte request: costed as the 16-byte instruction it is when every
  /// active address is 16-byte aligned, else not modelled.
  RequestCost cost_as_quad(const WarpRequest& request) const;

  /// The rule this model applies to requests of `op` and `width`.
  AccessRule rule(Op op, unsigned width) const;
  /// Whether requests of `op` and `width` are costed (rule() is not unmodelled).
  bool models(Op op, unsigned width) const { return rule(op, width) != AccessRule::unmodelled; }

  /// The bank and lanes of the worst conflict (empty lanes when conflict-free or not modelled, and
  /// for a cp.async whose cost is its read and write stages, not one bank: rule 6). A 12-byte request
  /// is named as the 16-byte instruction it is costed as.
  ConflictCulprit culprit(const WarpRequest& request) const;

  /// Bank words each bank serves for the request: entry b counts, summed over
  /// the request's phases, the distinct words of bank b that the phase needs
  /// (the table one draws by hand; a phase's cost is its largest entry). A
  /// 16-byte aligned 12-byte request is the 16-byte instruction (as in cost()).
  /// @pre as for cost(). @post size() == geometry().banks.
  std::vector<std::uint32_t> bank_words(const WarpRequest& request) const;

  /// One-line description of the preset and its assumptions.
  std::string describe() const;

 private:
  std::string name_;
  BankGeometry geometry_;
  PhaseRule rule_;
  /// The one-phase SIMD shortcut per width (index log2 width), resolved at
  /// construction (single_phase_plan in model/phase_rules.hpp): the common
  /// request costs one indirect call.
  std::array<SinglePhasePlan, 5> plans_{};
};

/// Names accepted by make_preset, in the order `--help` lists them.
std::vector<std::string_view> preset_names();

/// Build a named preset: "dmm", "sm90", "kepler-4B", "kepler-8B".
/// `warp` sets the warp size (and the DMM's bank count when banks == 0).
/// @throws std::invalid_argument naming the allowed values.
BankModel make_preset(std::string_view name, unsigned warp = 32, unsigned banks = 0);

/// A custom model from flags: any banks >= 1, bank_bytes in {1,2,4,8,16}, warp >= 1.
/// @throws std::invalid_argument with the allowed ranges.
BankModel make_custom(unsigned banks, unsigned bank_bytes, unsigned warp);

}  // namespace bankcheck
