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

#include "model/access_rule.hpp"
#include "model/cost_invariants.hpp"
#include "model/hd.hpp"
#include "model/warp_request.hpp"

namespace bankcheck::sm90 {

inline constexpr unsigned kLanes = 32;
inline constexpr unsigned kBanks = 32;
inline constexpr unsigned kWordBytes = 4;
/// Bytes of lane data one wavefront carries before loads pair up.
inline constexpr unsigned kPhaseBytes = kBanks * kWordBytes;
/// The most distinct bank words one phase can ask for (see above).
inline constexpr unsigned kMaxPhaseWords = 64;

/// The cost of one request. conflicts = wavefronts - ideal (conflicts_of);
/// warp_cost's results keep the invariants of model/cost_invariants.hpp.
struct WarpCost {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal = 0;
  std::uint32_t degree = 0;  ///< the worst phase's cost
  bool modelled = true;      ///< false: no rule for this (op, width) or these addresses; counts are zero
};

BANKCHECK_HD_INLINE bool is_power_width(unsigned width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

/// The rule of a power-of-two width (12 bytes is handled by rule()).
BANKCHECK_HD_INLINE AccessRule power_width_rule(Op op, unsigned width) {
  if (!is_power_width(width)) return AccessRule::unmodelled;
  switch (op) {
    case Op::load:
    case Op::store: return AccessRule::phases;
    case Op::atom: return AccessRule::atomic_lanes;
    case Op::atom_cas: return AccessRule::atomic_lanes2;
    case Op::atom_popc:
    case Op::ldsm:
    case Op::stsm:
    case Op::cpasync: return AccessRule::as_store;
    case Op::cpasync_cg: return AccessRule::bypass_copy;
    case Op::cpasync_cg_zfill: return AccessRule::phase_count;
    case Op::cpasync_unmeasured: return AccessRule::unmodelled;  // a copy form no probe measured
    case Op::wgmma: return AccessRule::operand_bytes;
    case Op::atom_cast: return AccessRule::store_twice;
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

BANKCHECK_HD_INLINE unsigned log2_width(unsigned width) {
  unsigned k = 0;
  while ((1u << k) < width) ++k;
  return k;
}

/// Lanes per phase before loads pair up: 128 bytes of lane data, at most the warp.
BANKCHECK_HD_INLINE unsigned unpaired_phase_lanes(unsigned width) {
  const unsigned lanes = kPhaseBytes >> log2_width(width);
  return lanes < 1 ? 1 : (lanes > kLanes ? kLanes : lanes);
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

/// Lanes per phase of a request: a store's phases, doubled for an 8- or
/// 16-byte load whose lanes pair up with l^1 or l^2 (rule 3).
template <class Address>
BANKCHECK_HD unsigned phase_lanes(Op op, unsigned width, const Address* addr, std::uint32_t active) {
  unsigned lanes = unpaired_phase_lanes(width);
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
  const unsigned n = unpaired_phase_lanes(width), per_lane = words_per_lane(width);
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

/// Bank group of an aligned access of `width` (4, 8 or 16) bytes at `a`:
/// its bank, bank pair or bank quad.
template <class Address>
BANKCHECK_HD unsigned bank_group(Address a, unsigned width) {
  return static_cast<unsigned>(a / width % (kPhaseBytes / width));
}

/// cp.async through L1 (LDGSTS without .BYPASS) whose sources are known
/// (rule 6): the lanes of one store phase pass two stages that share each
/// cycle. The read stage takes, for every source bank group, the lowest lane
/// not yet read (no multicast: lanes of one source word are read one per
/// cycle) into a buffer; the write stage writes the lowest buffered lanes,
/// one address per destination bank group (lanes of one address together).
/// The phase costs the cycles until every lane is written.
/// @pre width is 4, 8 or 16; addresses are multiples of it.
template <class Address>
BANKCHECK_HD std::uint32_t staged_copy_cycles(unsigned width, const Address* dst, const std::uint64_t* src,
                                              std::uint32_t lanes) {
  std::uint32_t unread = lanes, buffered = 0, cycles = 0;
  while ((unread | buffered) != 0) {
    ++cycles;
    std::uint32_t read_groups = 0;
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!(unread & lane_bit(l))) continue;
      const std::uint32_t g = lane_bit(bank_group(src[l], width));
      if (read_groups & g) continue;
      read_groups |= g;
      unread &= ~lane_bit(l);
      buffered |= lane_bit(l);
    }
    std::uint32_t write_groups = 0;
    Address group_address[kBanks] = {};
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!(buffered & lane_bit(l))) continue;
      const unsigned g = bank_group(dst[l], width);
      if (write_groups & lane_bit(g)) {
        if (group_address[g] != dst[l]) continue;
      } else {
        write_groups |= lane_bit(g);
        group_address[g] = dst[l];
      }
      buffered &= ~lane_bit(l);
    }
  }
  return cycles;
}

/// cp.async (.ca) with known sources: store phases, each costing its staged cycles.
template <class Address>
BANKCHECK_HD WarpCost staged_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                       std::uint32_t active) {
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(width);
  for (unsigned first = 0; first < kLanes; first += n)
    add_phase(cost, staged_copy_cycles(width, dst, src, active & lane_range(first, n)));
  return cost;
}

/// Whether the active lanes of every store phase read one 128-byte source
/// line (true without sources: lane l then reads element l of an aligned block).
BANKCHECK_HD_INLINE bool phases_read_one_line(unsigned width, const std::uint64_t* source, std::uint32_t active) {
  if (source == nullptr) return true;
  const unsigned n = unpaired_phase_lanes(width);
  for (unsigned first = 0; first < kLanes; first += n) {
    bool seen = false;
    std::uint64_t line = 0;
    for (unsigned l = first; l < first + n; ++l) {
      if (!(active & lane_bit(l))) continue;
      if (seen && source[l] / kPhaseBytes != line) return false;
      seen = true;
      line = source[l] / kPhaseBytes;
    }
  }
  return true;
}

/// cp.async.cg in its zero-fill form (rule 6c): one wavefront per store
/// phase (quarter warp) with an active lane, whatever the destinations;
/// never a conflict; when every quarter warp reads one 128-byte source line.
/// Measured with 64 single-warp copies (validate/sm90/cases/cgforms.trace),
/// and in running kernels (Triton's matmul and attention, 2026-11-26). A
/// quarter warp that reads two lines is not modelled: it cost 1 in the
/// single-warp probes and in one Triton matmul, 2 (one per line) in
/// another (validate/results/h100-2026-11-26b/).
BANKCHECK_HD_INLINE WarpCost phase_count_cost(unsigned width, std::uint32_t active, const std::uint64_t* source) {
  if (!phases_read_one_line(width, source, active)) return WarpCost{0, 0, 0, false};
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(width);
  for (unsigned first = 0; first < kLanes; first += n) add_phase(cost, (active & lane_range(first, n)) != 0 ? 1u : 0u);
  return cost;
}

/// 32-byte sectors: the unit in which a .cg copy moves its source (rule 6b).
inline constexpr unsigned kSectorBytes = 32;

/// Whether a .cg copy moves whole source sectors onto destination sectors
/// and fills each shared row from one source line (rule 6b, measured with
/// validate/sm90/cases/cgsrc.trace): no two lanes read one source address or
/// write one destination; the lanes of one 32-byte source sector write one
/// destination sector and the lanes of one destination sector read one
/// source sector (in either order of their 16 bytes); a sector only one lane
/// uses is read at its first 16 bytes, at the same place in its line as the
/// lane writes in its row; the lanes writing one 128-byte row read one
/// 128-byte line (a line may fill several rows).
template <class Address>
BANKCHECK_HD bool moves_whole_sectors(const Address* dst, const std::uint64_t* src, std::uint32_t active) {
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!(active & lane_bit(i))) continue;
    const std::uint64_t di = static_cast<std::uint64_t>(dst[i]);
    if (di % 16 != 0) return false;  // no 16-byte copy: the rows below could hold more than 8 destinations
    bool shares_sector = false;
    for (unsigned j = 0; j < kLanes; ++j) {
      if (j == i || !(active & lane_bit(j))) continue;
      const std::uint64_t dj = static_cast<std::uint64_t>(dst[j]);
      if (src[i] == src[j] || di == dj) return false;
      const bool same_source = src[i] / kSectorBytes == src[j] / kSectorBytes;
      if (same_source != (di / kSectorBytes == dj / kSectorBytes)) return false;
      if (di / kPhaseBytes == dj / kPhaseBytes && src[i] / kPhaseBytes != src[j] / kPhaseBytes) return false;
      shares_sector = shares_sector || same_source;
    }
    if (!shares_sector && (src[i] % kSectorBytes != 0 || src[i] % kPhaseBytes != di % kPhaseBytes)) return false;
  }
  return true;
}

/// A .cg copy that moves whole sectors (rule 6b): one wavefront per shared
/// row it writes (each row from its one source line), whatever the order of
/// the sectors within the row and whichever quarter warps the lanes are in.
/// Ideal: the fewest wavefronts that carry its bytes, 128 per wavefront,
/// ceil(16 x lanes / 128), as Nsight Compute's ideal measured for every .cg
/// copy probed (16 lanes in four quarter warps: 2; docs/bank-model.md). A
/// row holds at most 8 distinct aligned 16-byte destinations, so the rows
/// written are never fewer.
template <class Address>
BANKCHECK_HD WarpCost sector_copy_cost(const Address* dst, std::uint32_t active) {
  WarpCost cost;
  unsigned lanes = 0;
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!(active & lane_bit(i))) continue;
    ++lanes;
    bool first_of_row = true;
    for (unsigned j = 0; j < i && first_of_row; ++j)
      first_of_row = !(active & lane_bit(j)) || dst[j] / kPhaseBytes != dst[i] / kPhaseBytes;
    cost.wavefronts += first_of_row;
  }
  cost.degree = cost.wavefronts > 0 ? 1u : 0u;
  cost.ideal = (lanes * 16 + kPhaseBytes - 1) / kPhaseBytes;
  return cost;
}

/// cp.async.cg (LDGSTS.E.BYPASS.128) with known sources (rule 6b): one per
/// row when the copy moves whole sectors and fills each row from one line;
/// otherwise not modelled (rows filled from two lines, sectors split or
/// shifted: no rule found fits them, docs/bank-model.md). The source
/// and the destination play symmetric parts (a permutation costs the same
/// on either side), so the destination alone cannot decide: 8 lanes writing
/// one row conflict-free cost 1 to 8 by the order they read their line in
/// (validate/sm90/cases/cgsrc.trace), and no rule found fits the other
/// patterns (uniform odd shifts of 16 bytes cost 2 per line and row, some
/// permutations one per lane).
template <class Address>
BANKCHECK_HD WarpCost sourced_bypass_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                               std::uint32_t active) {
  if (width == 16 && moves_whole_sectors(dst, src, active)) return sector_copy_cost(dst, active);
  return WarpCost{0, 0, 0, false};
}

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
      if (source != nullptr) return sourced_bypass_copy_cost(width, addr, source, active);
      // No source: lane l is taken to read element l of an aligned block, and
      // rule 6b decides with that source (the destination alone cannot: a
      // row rotated by 16 bytes costs 2, random rows 28 to 32).
      std::uint64_t lane_order[kLanes];
      for (unsigned l = 0; l < kLanes; ++l) lane_order[l] = std::uint64_t{width} * l;
      return sourced_bypass_copy_cost(width, addr, lane_order, active);
    }
    case AccessRule::phase_count: return phase_count_cost(width, active, source);
    case AccessRule::operand_bytes: return operand_bytes_cost(addr, active, source);
    case AccessRule::store_twice: {
      // ATOMS.CAST.SPIN (rule 4): lanes of one word are served together, as
      // a store's; a read and a write pass. 33 of 33 CAS loops of
      // validate/library/atomics64.cu equal (H100, 2026-11-26), where each
      // lane as its own pass (ATOMS.CAS's rule) was 5 of 33.
      WarpCost c = phase_cost(Op::store, width, addr, active, counter);
      c.wavefronts *= 2;
      c.ideal *= 2;
      return c;
    }
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
    aligned = aligned && (!(active & lane_bit(l)) || r != AccessRule::as_quad || addr[l] % 16 == 0);
  }
  const WarpCost c = r != AccessRule::as_quad ? cost_by_rule(r, op, width, addr, active, counter, source)
                     : aligned ? cost_by_rule(power_width_rule(op, 16), op, 16, addr, active, counter, source)
                               : WarpCost{0, 0, 0, false};
  const unsigned words = words_per_lane(width == kTripleWordWidth ? 16 : width);
  if (checked_cost(c.wavefronts, c.ideal, c.degree, c.modelled, op, width, lanes, words)) return c;
  return WarpCost{0, 0, 0, false};
}

}  // namespace bankcheck::sm90
