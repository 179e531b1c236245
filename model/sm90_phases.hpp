#pragma once
// The sm90 preset's geometry and its phase rules (docs/bank-model.md, rules
// 1-4): plain loads and stores, the kinds costed as a store, atomics.
// Device-safe, as model/sm90_warp_cost.hpp, which dispatches to them.
#include <cstdint>

#include "model/access_rule.hpp"
#include "model/cost_invariants.hpp"
#include "model/hd.hpp"
#include "model/phase_lanes.hpp"
#include "model/request_cost.hpp"
#include "model/warp_request.hpp"

namespace bankcheck::sm90 {

inline constexpr unsigned kLanes = 32;
inline constexpr unsigned kBanks = 32;
inline constexpr unsigned kWordBytes = 4;
/// Bytes of lane data one wavefront carries before loads pair up.
inline constexpr unsigned kPhaseBytes = kBanks * kWordBytes;
/// The most distinct bank words one phase can ask for (see above).
inline constexpr unsigned kMaxPhaseWords = 64;

/// The rule of a power-of-two width (12 bytes is handled by rule()).
BANKCHECK_HD_INLINE AccessRule power_width_rule(Op op, unsigned width) {
  if (!is_valid_width(width)) return AccessRule::unmodelled;
  switch (op) {
    case Op::load:
    case Op::store: return AccessRule::phases;
    case Op::atom: return AccessRule::atomic_lanes;
    case Op::atom_cas: return AccessRule::atomic_lanes2;
    case Op::atom_popc:
    case Op::ldsm:
    case Op::stsm:
    case Op::cpasync: return AccessRule::as_store;
    case Op::cpasync_cg:
    case Op::cpasync_cg_notp0: return AccessRule::bypass_copy;  // notp0: only while every lane reads (cost_by_rule)
    case Op::cpasync_cg_zfill: return AccessRule::phase_count;
    case Op::cpasync_unmeasured:                                 // a copy form no probe measured
    case Op::unmeasured: return AccessRule::unmodelled;          // a generic form no probe measured
    case Op::wgmma: return AccessRule::operand_bytes;
    case Op::atom_cast: return width == 4 || width == 8 ? AccessRule::spin_phases : AccessRule::unmodelled;
    case Op::gld:
    case Op::gst:
    case Op::gatom: return AccessRule::unmodelled;  // global memory: sectors (model/global_access.hpp), not banks
  }
  return AccessRule::unmodelled;
}

/// How sm90 costs requests of `op` and `width` (BankModel::rule of the preset).
BANKCHECK_HD_INLINE AccessRule rule(Op op, unsigned width) {
  if (width == kTripleWordWidth)
    return power_width_rule(op, 16) == AccessRule::unmodelled ? AccessRule::unmodelled : AccessRule::as_quad;
  return power_width_rule(op, width);
}

BANKCHECK_HD_INLINE std::uint32_t lane_bit(unsigned lane) { return std::uint32_t{1} << lane; }

/// Lanes [first, first + count) of the warp as a mask.
BANKCHECK_HD_INLINE std::uint32_t lane_range(unsigned first, unsigned count) {
  const std::uint32_t ones = count >= kLanes ? ~std::uint32_t{0} : (lane_bit(count) - 1u);
  return ones << first;
}

/// Whether every active lane reads the address of its partner l ^ partner
/// (an inactive partner pairs with anything): rule 3.
template <class Address>
BANKCHECK_HD bool lanes_pair_up(const Address* addr, std::uint32_t active, unsigned partner) {
  for (unsigned l = 0; l < kLanes; ++l) {
    const unsigned m = l ^ partner;
    if ((active & lane_bit(l)) && (active & lane_bit(m)) && addr[l] != addr[m]) return false;
  }
  return true;
}

/// Lanes per phase of a request: a store's phases (unpaired_phase_lanes,
/// model/phase_lanes.hpp), doubled for an 8- or
/// 16-byte load whose lanes pair up with l^1 or l^2 (rule 3).
template <class Address>
BANKCHECK_HD unsigned phase_lanes(Op op, unsigned width, const Address* addr, std::uint32_t active) {
  unsigned lanes = unpaired_phase_lanes(kPhaseBytes, width, kLanes);
  if (op == Op::load && width > kWordBytes && lanes < kLanes &&
      (lanes_pair_up(addr, active, 1) || lanes_pair_up(addr, active, 2)))
    lanes *= 2;
  return lanes;
}

/// Bank words a lane's access of `width` bytes touches (one below 4 bytes).
BANKCHECK_HD_INLINE unsigned words_per_lane(unsigned width) { return width <= kWordBytes ? 1u : width / kWordBytes; }

/// The cost of the lanes in `lanes`: the most distinct bank words one bank
/// must serve (multicast of equal words is free); 0 without an active lane.
template <class Address>
BANKCHECK_HD std::uint32_t phase_degree(const Address* addr, std::uint32_t lanes, unsigned width) {
  const unsigned per_lane = words_per_lane(width);
  if (per_lane == 1) {  // distinct banks for every lane: conflict-free without a word list
    std::uint32_t banks_hit = 0;
    unsigned active = 0;
    for (unsigned l = 0; l < kLanes; ++l)
      if (lanes & lane_bit(l)) {
        banks_hit |= lane_bit(static_cast<unsigned>(addr[l] / kWordBytes % kBanks));
        ++active;
      }
    if (active == 0) return 0;
    unsigned hit = 0;
    for (std::uint32_t b = banks_hit; b != 0; b &= b - 1) ++hit;
    if (hit == active) return 1;
  }
  Address words[kMaxPhaseWords];
  unsigned n = 0;
  std::uint8_t per_bank[kBanks] = {};
  std::uint32_t degree = 0;
  for (unsigned l = 0; l < kLanes; ++l) {
    if (!(lanes & lane_bit(l))) continue;
    const Address first = addr[l] / kWordBytes;
    for (unsigned k = 0; k < per_lane; ++k) {
      const Address word = first + k;
      bool seen = false;
      for (unsigned i = 0; i < n && !seen; ++i) seen = words[i] == word;
      if (seen || n == kMaxPhaseWords) continue;
      words[n++] = word;
      const unsigned bank = static_cast<unsigned>(word % kBanks);
      if (++per_bank[bank] > degree) degree = per_bank[bank];
    }
  }
  return degree;
}

/// Adds one phase of cost d, `repeat` passes of it.
BANKCHECK_HD_INLINE void add_phase(WarpCost& cost, std::uint32_t d, unsigned repeat = 1) {
  cost.wavefronts += repeat * d;
  cost.ideal += d > 0 ? repeat : 0u;
  if (d > cost.degree) cost.degree = d;
}

/// Plain loads and stores, and the kinds costed as a store (`op` is then
/// Op::store): the phases of rule 1-3, and the per-instruction count of a
/// paired 8-byte load with a conflict (the half warps' degrees added).
template <class Address>
BANKCHECK_HD WarpCost phase_cost(Op op, unsigned width, const Address* addr, std::uint32_t active, Counter counter) {
  WarpCost cost;
  const unsigned n = phase_lanes(op, width, addr, active);
  const bool merged_load8 = op == Op::load && width == 2 * kWordBytes && n == kLanes;
  for (unsigned first = 0; first < kLanes; first += n) {
    std::uint32_t d = phase_degree(addr, active & lane_range(first, n), width);
    if (merged_load8 && d > 1 && counter == Counter::instruction)
      d = phase_degree(addr, active & lane_range(0, kLanes / 2), width) +
          phase_degree(addr, active & lane_range(kLanes / 2, kLanes / 2), width);
    add_phase(cost, d);
  }
  return cost;
}

/// Atomics (rule 4): a store's phases, each active lane one pass of every
/// bank it touches; `repeat` 2 for a compare-and-swap (a read and a write pass).
template <class Address>
BANKCHECK_HD WarpCost atomic_cost(unsigned width, const Address* addr, std::uint32_t active, unsigned repeat) {
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(kPhaseBytes, width, kLanes), per_lane = words_per_lane(width);
  for (unsigned first = 0; first < kLanes; first += n) {
    std::uint8_t lanes_in_bank[kBanks] = {};
    std::uint32_t d = 0;
    for (unsigned l = first; l < first + n; ++l) {
      if (!(active & lane_bit(l))) continue;
      const Address word = addr[l] / kWordBytes;
      for (unsigned k = 0; k < per_lane && k < kBanks; ++k) {  // a lane's words lie in distinct banks
        const unsigned bank = static_cast<unsigned>((word + k) % kBanks);
        if (++lanes_in_bank[bank] > d) d = lanes_in_bank[bank];
      }
    }
    add_phase(cost, d, repeat);
  }
  return cost;
}

/// ATOMS.CAST.SPIN, the compare-and-store of the loops nvcc makes for
/// float, double and 64-bit atomicAdd (rule 4): two wavefronts (a read and
/// a write pass) per store phase with an active lane, whatever the
/// addresses. Lanes that conflict are not served one after another: all but
/// one per address and bank fail and go round the loop again, and each
/// execution is its own request (validate/sm90/cases/fid64.trace, 166 of
/// 166 on an H200). Only 8-byte conflicts were measured: a 4-byte phase with
/// a bank conflict is not modelled.
template <class Address>
BANKCHECK_HD WarpCost spin_cost(unsigned width, const Address* addr, std::uint32_t active) {
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(kPhaseBytes, width, kLanes);
  for (unsigned first = 0; first < kLanes; first += n) {
    const std::uint32_t lanes = active & lane_range(first, n);
    if (lanes == 0) continue;
    if (width != 2 * kWordBytes && phase_degree(addr, lanes, width) > 1) return WarpCost{0, 0, 0, false};
    add_phase(cost, 1, 2);
  }
  return cost;
}

}  // namespace bankcheck::sm90
