#pragma once
// The sm90 preset's rules for one warp request (docs/bank-model.md, rules
// 1-7), written once for the CPU and the GPU: BankModel costs sm90 requests
// through these functions wherever its SIMD shortcut does not answer, and
// the capture patch (capture/device/patches.cu, `capture --summary`)
// evaluates them on the GPU, so the two cannot drift apart.
//
// Device-safe on purpose: no std containers, no exceptions, no allocation;
// a request is 32 addresses and a mask of active lanes, and the scratch
// space is a fixed array of at most 64 bank words (the widest phase: 16
// lanes of a paired 16-byte load, 4 words each).
//
// Geometry of the H100: 32 banks of 4-byte words, 32-lane warps.
#include <cstdint>

#include "model/sm90_copy_cost.hpp"
#include "model/sm90_phases.hpp"

namespace bankcheck::sm90 {

/// wgmma's shared operands (rule 8): one wavefront per 128 bytes the
/// warpgroup reads, A's bytes and B's (`source` of lanes 0 and 1, the sizes
/// the sanitizer reports, on the warpgroup's first warp), whatever the
/// descriptor's layout; never a conflict. Ideal is the same count. The
/// other warps' records (no active lane) cost nothing: their share is the
/// first warp's. Without sizes, without B, or with B's size 0 (the API
/// promises otherwise; seen for QGMMA.64x8x32, H100, 2026-11-26): not modelled.
template <class Address>
BANKCHECK_HD WarpCost operand_bytes_cost(const Address* addr, std::uint32_t active, const std::uint64_t* sizes) {
  (void)addr;
  if (active == 0) return WarpCost{0, 0, 0, true};
  if (sizes == nullptr || !(active & lane_bit(1))) return WarpCost{0, 0, 0, false};
  // An operand larger than shared memory (228 KiB on the H100) is no operand: not modelled, never wrapped.
  constexpr std::uint64_t kMaxOperandBytes = std::uint64_t{1} << 18;
  const std::uint64_t a_bytes = (active & lane_bit(0)) ? sizes[0] : 0;
  if (sizes[1] == 0 || sizes[1] > kMaxOperandBytes || a_bytes > kMaxOperandBytes) return WarpCost{0, 0, 0, false};
  const std::uint64_t bytes = sizes[1] + a_bytes;
  WarpCost cost;
  cost.wavefronts = static_cast<std::uint32_t>((bytes + kPhaseBytes - 1) / kPhaseBytes);
  cost.ideal = cost.wavefronts;
  cost.degree = cost.wavefronts > 0 ? 1u : 0u;
  return cost;
}

/// The cost of a request of a power-of-two width under `rule`.
/// `source`: the copies' global source addresses, or null where unknown.
template <class Address>
BANKCHECK_HD WarpCost cost_by_rule(AccessRule rule, Op op, unsigned width, const Address* addr, std::uint32_t active,
                                   Counter counter, const std::uint64_t* source) {
  switch (rule) {
    case AccessRule::phases: return phase_cost(op, width, addr, active, counter);
    case AccessRule::as_store:
      if (op == Op::cpasync && source != nullptr) return staged_copy_cost(width, addr, source, active);
      return phase_cost(Op::store, width, addr, active, counter);
    case AccessRule::atomic_lanes: return atomic_cost(width, addr, active, 1);
    case AccessRule::atomic_lanes2: return atomic_cost(width, addr, active, 2);
    case AccessRule::bypass_copy: {
      // The operand !P0 with a zero-filling lane: 3 of 15 such probes off
      // every rule (docs/bank-model.md, rule 6c); while every lane reads, 6b.
      if (op == Op::cpasync_cg_notp0 && source != nullptr && zero_filling(source, active) != 0)
        return WarpCost{0, 0, 0, false};
      if (source != nullptr) return sourced_bypass_copy_cost(width, addr, source, active);
      // No source: lane l is taken to read element l of an aligned block, and
      // rule 6b decides with that source (the destination alone cannot: a
      // row rotated by 16 bytes costs 2, random rows 28 to 32).
      std::uint64_t lane_order[kLanes];
      for (unsigned l = 0; l < kLanes; ++l) lane_order[l] = std::uint64_t{width} * l;
      return sourced_bypass_copy_cost(width, addr, lane_order, active);
    }
    case AccessRule::phase_count: return phase_count_cost(width, addr, active);
    case AccessRule::operand_bytes: return operand_bytes_cost(addr, active, source);
    case AccessRule::spin_phases: return spin_cost(width, addr, active);
    case AccessRule::as_quad:
    case AccessRule::unmodelled: break;
  }
  return WarpCost{0, 0, 0, false};
}

/// The cost of one warp request on the H100: `addr[l]` is lane l's byte
/// address (ignored where `active` has no bit l). A 12-byte access is the
/// 16-byte instruction that carries it when every active address is 16-byte
/// aligned (rule 7), else not modelled. `source`: a copy's (cpasync,
/// cpasync.cg) global source address per lane, or null where unknown; the
/// rules without it assume lane l reads element l of an aligned block.
/// Every cost passes checked_cost (model/cost_invariants.hpp): a rule that
/// breaks an invariant throws on the host and is not modelled on the GPU.
template <class Address>
BANKCHECK_HD WarpCost warp_cost(Op op, unsigned width, const Address* addr, std::uint32_t active,
                                Counter counter = Counter::instruction, const std::uint64_t* source = nullptr) {
  const AccessRule r = rule(op, width);
  bool aligned = true;  // only a 12-byte access asks (rule 7)
  unsigned lanes = 0;
  for (unsigned l = 0; l < kLanes; ++l) {
    lanes += (active >> l) & 1u;
    aligned = aligned && (!(active & lane_bit(l)) || r != AccessRule::as_quad || carried_by_quad(addr[l]));
  }
  const WarpCost c = r != AccessRule::as_quad ? cost_by_rule(r, op, width, addr, active, counter, source)
                     : aligned ? cost_by_rule(power_width_rule(op, 16), op, 16, addr, active, counter, source)
                               : WarpCost{0, 0, 0, false};
  const unsigned words = words_per_lane(width == kTripleWordWidth ? 16 : width);
  if (checked_cost(c.wavefronts, c.ideal, c.degree, c.modelled, op, width, lanes, words)) return c;
  return WarpCost{0, 0, 0, false};
}

}  // namespace bankcheck::sm90
