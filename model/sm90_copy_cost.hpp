#pragma once
// The sm90 preset's cp.async rules (docs/bank-model.md, rule 6): .ca
// copies through the banks in two stages, .cg copies of whole sectors
// (6b), and the zero-fill form (6c). Device-safe, as model/sm90_warp_cost.hpp.
#include <cstdint>

#include "model/sm90_copy_collisions.hpp"
#include "model/sm90_phases.hpp"

namespace bankcheck::sm90 {

/// Bank group of an aligned access of `width` (4, 8 or 16) bytes at `a`:
/// its bank, bank pair or bank quad.
template <class Address>
BANKCHECK_HD unsigned bank_group(Address a, unsigned width) {
  return static_cast<unsigned>(a / width % (kPhaseBytes / width));
}

/// The lanes of `lanes` that fill zeros instead of reading (source
/// kZeroFill); none without sources.
BANKCHECK_HD_INLINE std::uint32_t zero_filling(const std::uint64_t* src, std::uint32_t lanes) {
  std::uint32_t out = 0;
  for (unsigned l = 0; src != nullptr && l < kLanes; ++l)
    if ((lanes & lane_bit(l)) && src[l] == kZeroFill) out |= lane_bit(l);
  return out;
}

/// cp.async through L1 (LDGSTS without .BYPASS) whose sources are known
/// (rule 6): the lanes of one store phase pass two stages that share each
/// cycle. The read stage takes, for every source bank group, the lowest lane
/// not yet read (no multicast: lanes of one source word are read one per
/// cycle) into a buffer; the write stage writes the lowest buffered lanes,
/// one address per destination bank group (lanes of one address together).
/// The phase costs the cycles until every lane is written. A zero-filling
/// lane (`zero_fill`, source kZeroFill) reads nothing: it starts in the buffer.
/// @pre width is 4, 8 or 16; addresses are multiples of it.
template <class Address>
BANKCHECK_HD std::uint32_t staged_copy_cycles(unsigned width, const Address* dst, const std::uint64_t* src,
                                              std::uint32_t lanes, std::uint32_t zero_fill) {
  std::uint32_t unread = lanes & ~zero_fill, buffered = zero_fill, cycles = 0;
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

/// The largest number of lanes that read one source bank group (no
/// multicast: lanes, not addresses), over the reading lanes of `lanes`.
BANKCHECK_HD_INLINE std::uint32_t read_degree(unsigned width, const std::uint64_t* src, std::uint32_t lanes) {
  std::uint32_t most = 0, count[kBanks] = {};
  for (unsigned l = 0; l < kLanes; ++l)
    if (lanes & lane_bit(l)) {
      const std::uint32_t c = ++count[bank_group(src[l], width)];
      if (c > most) most = c;
    }
  return most;
}

/// Whether a phase whose reads and writes both conflict is of the one shape
/// in which the two stages were measured to overlap as staged_copy_cycles
/// says: no lane zero-fills, all sources and all destinations distinct,
/// every source bank group used by as many lanes as every other, and every
/// destination bank group by as many distinct addresses as every other
/// (the source rows and interleavings crossed with k-way destinations of
/// validate/sm90/cases/cpasrc.trace, and 5 randomized ones of cpasync.trace).
template <class Address>
BANKCHECK_HD bool balanced_phase(unsigned width, const Address* dst, const std::uint64_t* src, std::uint32_t lanes) {
  std::uint32_t reads[kBanks] = {}, writes[kBanks] = {};
  for (unsigned l = 0; l < kLanes; ++l) {
    if (!(lanes & lane_bit(l))) continue;
    for (unsigned k = 0; k < l; ++k)
      if ((lanes & lane_bit(k)) && (src[k] == src[l] || dst[k] == dst[l])) return false;
    ++reads[bank_group(src[l], width)];
    ++writes[bank_group(dst[l], width)];
  }
  std::uint32_t r = 0, w = 0;
  for (unsigned g = 0; g < kBanks; ++g) {
    if ((reads[g] && r && reads[g] != r) || (writes[g] && w && writes[g] != w)) return false;
    r = reads[g] ? reads[g] : r;
    w = writes[g] ? writes[g] : w;
  }
  return true;
}

/// Whether two of `lanes` write one destination.
template <class Address>
BANKCHECK_HD bool shares_destination(const Address* dst, std::uint32_t lanes) {
  for (unsigned l = 0; l < kLanes; ++l)
    for (unsigned k = 0; (lanes & lane_bit(l)) && k < l; ++k)
      if ((lanes & lane_bit(k)) && dst[k] == dst[l]) return true;
  return false;
}

/// cp.async (.ca) with known sources: store phases, each costing its staged
/// cycles. Modelled only where the randomized campaign found the stages
/// right in every probe (validate/sm90/cases/cpasync.trace, H200,
/// 2026-11-29): a phase whose reads are conflict-free (no two reading lanes
/// in one source bank group) or whose writes are (store degree 1), or a
/// balanced phase (above). 44 random phases with both conflicting cost 1 to
/// 9 more than the stages give (lanes are not taken lowest first in both
/// stages), so any other phase is not modelled; nor is a phase whose writes
/// conflict while two of its lanes write one destination (the second run,
/// seed 4747: 10 where the stages, which write such lanes together, give 9). A phase that mixes
/// zero-filling and reading lanes over conflicting destinations is not
/// modelled either: 50 of the 52 .ca probes of validate/sm90/cases/
/// zfill.trace equal the stages with zero-filling lanes buffered from the
/// start, and the two that do not (13 against 11, 10 against 9) are the only
/// ones mixing the two kinds of lane over conflicting destinations.
template <class Address>
BANKCHECK_HD WarpCost staged_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                       std::uint32_t active) {
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(kPhaseBytes, width, kLanes);
  for (unsigned first = 0; first < kLanes; first += n) {
    const std::uint32_t lanes = active & lane_range(first, n);
    const std::uint32_t zero_fill = zero_filling(src, lanes);
    const bool writes_conflict = phase_degree(dst, lanes, width) > 1;
    if (zero_fill != 0 && zero_fill != lanes && writes_conflict) return WarpCost{0, 0, 0, false};
    if (writes_conflict && read_degree(width, src, lanes & ~zero_fill) > 1 &&
        !(zero_fill == 0 && balanced_phase(width, dst, src, lanes)))
      return WarpCost{0, 0, 0, false};
    if (writes_conflict && shares_destination(dst, lanes)) return WarpCost{0, 0, 0, false};
    add_phase(cost, staged_copy_cycles(width, dst, src, lanes, zero_fill));
  }
  return cost;
}

/// The 128-byte shared rows `lanes` write, each counted once per 128-byte
/// source line it is filled from when `src` is given (rule 6b's pairs),
/// else once.
template <class Address>
BANKCHECK_HD std::uint32_t rows_written(const Address* dst, const std::uint64_t* src, std::uint32_t lanes) {
  std::uint32_t rows = 0;
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!(lanes & lane_bit(i))) continue;
    bool first = true;
    for (unsigned j = 0; j < i && first; ++j)
      first = !(lanes & lane_bit(j)) || dst[j] / kPhaseBytes != dst[i] / kPhaseBytes ||
              (src != nullptr && src[j] / kPhaseBytes != src[i] / kPhaseBytes);
    rows += first;
  }
  return rows;
}

/// A 16-byte store's phases over `lanes`: per quarter warp, the most
/// distinct destinations one bank quad takes (rule 2).
template <class Address>
BANKCHECK_HD void add_store16_phases(WarpCost& cost, const Address* dst, std::uint32_t lanes) {
  constexpr unsigned n = kLanes / 4;
  for (unsigned first = 0; first < kLanes; first += n) add_phase(cost, phase_degree(dst, lanes & lane_range(first, n), 16));
}

/// Whether a 16-byte store of `lanes` to `dst` costs the same counted by
/// distinct destinations (the store rule) as by lanes: per quarter warp, the
/// most distinct addresses one bank quad takes equals the most lanes one
/// takes. Where two lanes write one destination and that changes the count,
/// the copies measured the lanes (validate/sm90/cases/cpasync3.trace: 2 of 2
/// zero-filling .cg probes; cpasync4.trace: 6 of 6 P0 copies, 10 for 8 and
/// 21 for 13): a sub-case no rule covers.
template <class Address>
BANKCHECK_HD bool store_counts_distinct(const Address* dst, std::uint32_t lanes) {
  for (unsigned first = 0; first < kLanes; first += kLanes / 4) {
    const std::uint32_t quarter = lanes & lane_range(first, kLanes / 4);
    std::uint32_t lanes_per_quad[kPhaseBytes / 16] = {}, most = 0;
    for (unsigned l = first; l < first + kLanes / 4; ++l)
      if (quarter & lane_bit(l)) {
        const std::uint32_t n = ++lanes_per_quad[static_cast<std::uint64_t>(dst[l]) / 16 % (kPhaseBytes / 16)];
        most = n > most ? n : most;
      }
    if (most != phase_degree(dst, quarter, 16)) return false;
  }
  return true;
}

/// cp.async.cg whose predicate operand is P0 (rule 6c, op cpasync.cg.zfill):
/// it costs what a 16-byte store to its destinations costs, whatever the
/// sources and whichever lanes fill zeros. The 72 such copies of the
/// randomized campaign (validate/sm90/cases/cpasync.trace, H200, 2026-11-29:
/// one to many source lines per quarter warp, k-way, random and swizzled
/// destinations, zero-filling lanes, 1 warp to 264 blocks of 8 warps, one to
/// three stages in flight) all equal it; so do the 64 of cgforms.trace
/// (H100, conflict-free destinations: one per quarter warp, also for quarter
/// warps that read two or eight lines), and Triton's `..., P0` copies (4 per
/// warp). The same instruction with its predicate in another register costs
/// as rule 6b (sourced_bypass_copy_cost): the register, not the PTX form,
/// decides (docs/bank-model.md, rule 6c).
template <class Address>
BANKCHECK_HD WarpCost phase_count_cost(unsigned width, const Address* dst, std::uint32_t active) {
  if (width != 16) return WarpCost{0, 0, 0, false};
  for (unsigned l = 0; l < kLanes; ++l)
    if ((active & lane_bit(l)) && static_cast<std::uint64_t>(dst[l]) % 16 != 0) return WarpCost{0, 0, 0, false};
  if (!store_counts_distinct(dst, active)) return WarpCost{0, 0, 0, false};  // lanes on one destination
  WarpCost cost;
  add_store16_phases(cost, dst, active);
  return cost;
}

/// Whether a .cg copy moves whole source sectors onto destination sectors
/// (rule 6b, measured with validate/sm90/cases/cgsrc.trace): no two lanes
/// read one source address or write one destination; the lanes of one
/// 32-byte source sector write one destination sector and the lanes of one
/// destination sector read one source sector (in either order of their 16
/// bytes); a sector only one lane uses is read at its first 16 bytes, at the
/// same place in its line as the lane writes in its row.
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
      shares_sector = shares_sector || same_source;
    }
    if (!shares_sector && (src[i] % kSectorBytes != 0 || src[i] % kPhaseBytes != di % kPhaseBytes)) return false;
  }
  return true;
}

/// Whether no two lanes of `lanes` write one destination address.
template <class Address>
BANKCHECK_HD bool writes_distinct(const Address* dst, std::uint32_t lanes) {
  for (unsigned i = 0; i < kLanes; ++i)
    for (unsigned j = i + 1; j < kLanes; ++j)
      if ((lanes & lane_bit(i)) && (lanes & lane_bit(j)) && dst[i] == dst[j]) return false;
  return true;
}

/// A .cg copy that moves whole sectors (rule 6b): one wavefront per pair of
/// a shared row it writes and a source line it fills that row from,
/// whatever the order of the sectors within the row and whichever quarter
/// warps the lanes are in: 49 single-warp probes of one line per row
/// (cgsrc, cpasrc) and 101 of rows filled from two to eight lines, the
/// lines 128 to 4096 bytes apart and in L2 or not (cgsrc, cgline, cgwarm),
/// all equal; and 6 per warp for 128-byte rows of which every other one
/// straddles two lines in a running GEMM-like kernel (validate/library/
/// ldgsts_tiles.cu, h16_cg_ltc_split, H100, 2026-11-27).
/// Ideal: the fewest wavefronts that carry its bytes, 128 per wavefront,
/// ceil(16 x lanes / 128), as Nsight Compute's ideal measured for every .cg
/// copy probed (16 lanes in four quarter warps: 2; docs/bank-model.md). A
/// row holds at most 8 distinct aligned 16-byte destinations, so the pairs
/// are never fewer.
template <class Address>
BANKCHECK_HD WarpCost sector_copy_cost(const Address* dst, const std::uint64_t* src, std::uint32_t active) {
  WarpCost cost;
  unsigned lanes = 0;
  for (unsigned i = 0; i < kLanes; ++i) lanes += (active >> i) & 1u;
  cost.wavefronts = rows_written(dst, src, active);
  cost.degree = cost.wavefronts > 0 ? 1u : 0u;
  cost.ideal = (lanes * 16 + kPhaseBytes - 1) / kPhaseBytes;
  return cost;
}

/// cp.async.cg (LDGSTS.E.BYPASS.128) with known sources (rule 6b): one per
/// (row, line) pair when the copy moves whole sectors; otherwise not
/// modelled (sectors split or shifted: no rule found fits them,
/// docs/bank-model.md). The source
/// and the destination play symmetric parts (a permutation costs the same
/// on either side), so the destination alone cannot decide: 8 lanes writing
/// one row conflict-free cost 1 to 8 by the order they read their line in
/// (validate/sm90/cases/cgsrc.trace), and no rule found fits the other
/// patterns (uniform odd shifts of 16 bytes cost 2 per line and row, some
/// permutations one per lane).
/// Zero-filling lanes (source kZeroFill: the predicate operand in a register
/// other than P0 says so): a copy of only such lanes costs a 16-byte store of
/// their destinations. A copy with both kinds costs, per quarter warp, one
/// per (row, line) pair of its readers (the data, as without zero-filling
/// lanes) plus a 16-byte store of all its lanes, readers and zero-filling
/// alike. Measured on 2,590 such copies moving whole sectors, all equal: the
/// H200's runs 1-14 (validate/sm90/cases/cpasync.trace to cpasync14.trace;
/// P1, P2, P3, !P1, !P3) and zfill.trace (H100): one row from one line
/// beside zero-filling lanes in its other slots, 1 + 1; those lanes in
/// another row on the readers' quads, 1 + 2 (the fourth run's 12 for 8 of
/// the earlier "two per pair, less one"); a row from two lines beside
/// zeros, 2 + 1; rows written by two quarter warps and rows from several
/// lines with sources rotated in them, as any other (run 9, 316 copies);
/// and 306 of 306 of run 10, measured after that. A row that reads several
/// lines at one place costs those lines less one more, and its quarter's
/// store counts only the zero-filling lanes and those reads (run 11, 320 of
/// 320; run 12, measured after, 136 of 136), and a quarter of two such
/// groups as `collisions` says (run 14, measured after, 278 of 278). Not
/// modelled where two lanes write one destination, in one quarter or two
/// (cpasync7.trace's two such copies cost one more), where a quarter of two
/// such groups has a lane that is not one of their reads, or where a (row,
/// line) pair spans quarter warps.
/// The ideal adds the zero-filling lanes' store phases, as Nsight Compute's
/// does.
template <class Address>
BANKCHECK_HD WarpCost sourced_bypass_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                               std::uint32_t active) {
  if (width != 16) return WarpCost{0, 0, 0, false};
  const std::uint32_t zero_fill = zero_filling(src, active), reading = active & ~zero_fill;
  if (!moves_whole_sectors(dst, src, reading) || (zero_fill != 0 && !store_counts_distinct(dst, active)))
    return WarpCost{0, 0, 0, false};
  WarpCost cost = sector_copy_cost(dst, src, reading);
  if (zero_fill == 0) return cost;
  WarpCost zeros;
  add_store16_phases(zeros, dst, zero_fill);
  cost.ideal += zeros.ideal;
  if (reading == 0) {
    cost.wavefronts = zeros.wavefronts;
    cost.degree = zeros.degree;
    return cost;
  }
  if (!writes_distinct(dst, active)) return WarpCost{0, 0, 0, false};
  std::uint32_t pairs = 0, total = 0, worst = 1;
  for (unsigned first = 0; first < kLanes; first += kLanes / 4) {
    const std::uint32_t quarter = lane_range(first, kLanes / 4);
    const std::uint32_t data = rows_written(dst, src, reading & quarter);
    const Collisions c = collisions(dst, src, reading & quarter, quarter);
    if (!c.modelled) return WarpCost{0, 0, 0, false};
    // Where a row reads several lines at one place, the store's passes are those of the
    // zero-filling lanes and of those reads only (run 11: 320 of 320); two rows read at one
    // place store in one pass (runs 12 and 14).
    const std::uint32_t stored = c.colliding != 0 ? (zero_fill & quarter) | c.colliding : active & quarter;
    const std::uint32_t store = c.one_store ? 1u : phase_degree(dst, stored, 16);
    pairs += data;
    total += data + c.extra + store;
    worst = store > worst ? store : worst;
  }
  if (pairs != cost.wavefronts) return WarpCost{0, 0, 0, false};  // a pair across quarter warps
  cost.wavefronts = total;
  cost.degree = worst;
  return cost;
}

}  // namespace bankcheck::sm90
