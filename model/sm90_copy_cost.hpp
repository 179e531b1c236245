#pragma once
// The sm90 preset's cp.async rules (docs/bank-model.md, rule 6): .ca
// copies through the banks in two stages, .cg copies of whole sectors
// (6b), and the zero-fill form (6c). Device-safe, as model/sm90_warp_cost.hpp.
#include <cstdint>

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

/// cp.async (.ca) with known sources: store phases, each costing its staged
/// cycles. A phase that mixes zero-filling and reading lanes is modelled
/// only where its destinations do not conflict: 50 of the 52 .ca probes of
/// validate/sm90/cases/zfill.trace equal the stages with zero-filling lanes
/// buffered from the start, and the two that do not (random lanes: 13
/// against 11, 10 against 9) are the only ones mixing the two kinds of lane
/// over conflicting destinations.
template <class Address>
BANKCHECK_HD WarpCost staged_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                       std::uint32_t active) {
  WarpCost cost;
  const unsigned n = unpaired_phase_lanes(width);
  for (unsigned first = 0; first < kLanes; first += n) {
    const std::uint32_t lanes = active & lane_range(first, n);
    const std::uint32_t zero_fill = zero_filling(src, lanes);
    // Destinations conflict: two addresses in one bank group, a store degree above 1.
    if (zero_fill != 0 && zero_fill != lanes && phase_degree(dst, lanes, width) > 1) return WarpCost{0, 0, 0, false};
    add_phase(cost, staged_copy_cycles(width, dst, src, lanes, zero_fill));
  }
  return cost;
}

/// Whether the reading lanes of every quarter warp read at most one 128-byte
/// source line, at distinct addresses (true without sources: lane l then
/// reads element l of an aligned block); a zero-filling lane reads none.
BANKCHECK_HD_INLINE bool quarters_read_one_line(const std::uint64_t* source, std::uint32_t active) {
  if (source == nullptr) return true;
  constexpr unsigned n = kLanes / 4;
  for (unsigned first = 0; first < kLanes; first += n) {
    bool seen = false;
    std::uint64_t line = 0;
    for (unsigned l = first; l < first + n; ++l) {
      if (!(active & lane_bit(l)) || source[l] == kZeroFill) continue;
      if (seen && source[l] / kPhaseBytes != line) return false;
      seen = true;
      line = source[l] / kPhaseBytes;
      for (unsigned k = first; k < l; ++k)
        if ((active & lane_bit(k)) && source[k] == source[l]) return false;
    }
  }
  return true;
}

/// The 128-byte shared rows `lanes` write, each counted once per 128-byte
/// source line it is filled from when `src` is given (rule 6b's pairs),
/// else once (the rows of rule 6c's zero-filling lanes).
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

/// cp.async.cg in its zero-fill form (rule 6c): one wavefront per quarter
/// warp with an active lane, whatever the destinations; never a conflict;
/// when every quarter warp reads at most one 128-byte source line at
/// distinct addresses. Measured with 64 single-warp copies
/// (validate/sm90/cases/cgforms.trace), and in running kernels (Triton's
/// matmul and attention, 2026-11-26). A quarter warp that reads two lines
/// is not modelled: it cost 1 in the single-warp probes and in one Triton
/// matmul, 2 (one per line) in another (validate/results/h100-2026-11-26b/).
/// Lanes that fill zeros (source kZeroFill) are written apart from the
/// reading lanes: the copy costs one per quarter warp with an active lane
/// when a lane reads (none when none does), plus, per quarter warp, the
/// rows its zero-filling lanes write; ideal one per quarter warp with
/// zero-filling lanes in place of those rows (validate/sm90/cases/zfill.trace,
/// 26 copies in both hint forms, H100, 2026-11-27).
template <class Address>
BANKCHECK_HD WarpCost phase_count_cost(const Address* dst, std::uint32_t active, const std::uint64_t* source) {
  if (!quarters_read_one_line(source, active)) return WarpCost{0, 0, 0, false};
  constexpr unsigned n = kLanes / 4;
  const std::uint32_t zero_fill = zero_filling(source, active);
  WarpCost cost;
  const bool reads = (active & ~zero_fill) != 0;
  for (unsigned first = 0; first < kLanes; first += n) {
    const std::uint32_t quarter = active & lane_range(first, n);
    if (reads) add_phase(cost, quarter != 0 ? 1u : 0u);
    if ((quarter & zero_fill) == 0) continue;
    // Counted only where the rows equal the lanes' store degree: the probes did not tell the two apart.
    const std::uint32_t rows = rows_written(dst, nullptr, quarter & zero_fill);
    if (rows != phase_degree(dst, quarter & zero_fill, 16)) return WarpCost{0, 0, 0, false};
    add_phase(cost, rows);
  }
  return cost;
}

/// 32-byte sectors: the unit in which a .cg copy moves its source (rule 6b).
inline constexpr unsigned kSectorBytes = 32;

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
    if (src[i] == kZeroFill) return false;  // zero-filling lanes in a .cg copy without a predicate: never measured
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
template <class Address>
BANKCHECK_HD WarpCost sourced_bypass_copy_cost(unsigned width, const Address* dst, const std::uint64_t* src,
                                               std::uint32_t active) {
  if (width == 16 && moves_whole_sectors(dst, src, active)) return sector_copy_cost(dst, src, active);
  return WarpCost{0, 0, 0, false};
}

}  // namespace bankcheck::sm90
