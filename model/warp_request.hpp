#pragma once
// A warp-level shared-memory request: what one warp instruction asks of the
// banks. The model consumes these; it knows nothing of the algorithm that
// issued them.
//
// Real programs issue more than plain loads and stores: shared
// atomics and reductions, ldmatrix/stmatrix, and the shared-memory side of
// cp.async (LDGSTS). Each has its own Op so that a trace never presents one
// kind as another; whether the model knows a kind's bank rules is the
// model's business (BankModel::rule), not the trace's.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "model/hd.hpp"

namespace bankcheck {

enum class Op : std::uint8_t {
  load = 0,     ///< LDS, and the measured generic loads that hit shared memory ("ld")
  store = 1,    ///< STS, and the measured generic stores that hit shared memory ("st")
  atom = 2,     ///< shared atomic or reduction: ATOMS, REDS, CAS ("atom")
  ldsm = 3,     ///< ldmatrix: one 16-byte row address per used lane ("ldsm")
  stsm = 4,     ///< stmatrix, laid out as ldsm ("stsm")
  cpasync = 5,  ///< shared-memory destination of cp.async / LDGSTS ("cpasync")
  // Kinds the sanitizer reports as the ones above and the SASS tells apart
  // (capture refines them from the instruction text, docs/capture.md):
  atom_cas = 6,    ///< ATOMS.CAS: a read and a write pass ("atom.cas"); ATOMS.CAST.SPIN is atom_cast
  atom_popc = 7,   ///< ATOMS.POPC.INC: lanes of one address combined ("atom.popc")
  cpasync_cg = 8,  ///< LDGSTS.E.BYPASS.128, cp.async.cg ("cpasync.cg")
  // Global memory: costed in sectors, lines and Karsin pages by
  // model/global_access.hpp, never by the bank model.
  gld = 9,   ///< a global load, LDG ("gld")
  gst = 10,  ///< a global store, STG ("gst")
  gatom = 11,  ///< a global atomic or reduction, ATOMG/REDG ("gatom"): its sectors like a store's
  /// cp.async.cg with a source size or an ignore-src predicate (what Triton
  /// emits for masked loads): LDGSTS.E.BYPASS.128 with a predicate operand
  /// ("cpasync.cg.zfill"), refined from the SASS like cpasync_cg.
  cpasync_cg_zfill = 12,
  /// An LDGSTS whose SASS form (modifiers, width, operands) no rule was
  /// measured on, e.g. LDGSTS.E.ZFILL or an L2 hint other than .LTC128B
  /// ("cpasync.unmeasured"): recorded, never costed (docs/bank-model.md).
  cpasync_unmeasured = 13,
  /// wgmma.mma_async reading its operands from shared memory (HGMMA): one
  /// record per warp of the warpgroup. The group's first warp:
  /// lane 0 holds matrix A's shared address (inactive when A comes from
  /// registers) and lane 1 matrix B's, and their `source` entries the
  /// operands' sizes in bytes, as the sanitizer reports them; the other
  /// three warps: no active lane, their share being the first's ("wgmma").
  wgmma = 14,
  /// ATOMS.CAST.SPIN: the compare-and-store of the loops nvcc makes for
  /// float, double and 64-bit atomicAdd on shared memory ("atom.cast"),
  /// refined from the SASS; costs differently from ATOMS.CAS (rule 4).
  atom_cast = 15,
  /// LDGSTS.E.BYPASS.128 whose predicate operand is the negated P0 (`, !P0`,
  /// Triton's main loops), refined from the SASS: rule 6b while every lane
  /// reads; a zero-filling lane costs otherwise, found by no rule
  /// (docs/bank-model.md, rule 6c) ("cpasync.cg.notp0").
  cpasync_cg_notp0 = 16,
  /// A load, store or atomic that lands in shared memory through a generic
  /// pointer in a SASS form no rule was measured on (LD.E.128, the .STRONG.GPU
  /// forms, any generic atomic: docs/bank-model.md, "Generic loads and
  /// stores"), refined from the SASS ("unmeasured"): recorded, never costed.
  unmeasured = 17,
};

/// Number of Op values; ops are numbered 0 .. kOpCount-1 in files.
inline constexpr unsigned kOpCount = 18;

/// Whether `op` accesses global memory (costed by model/global_access.hpp, not the banks).
constexpr bool is_global(Op op) { return op == Op::gld || op == Op::gst || op == Op::gatom; }

/// Byte address of a lane that does not take part in the instruction.
inline constexpr std::uint64_t kInactive = ~std::uint64_t{0};

/// Source of a cp.async lane that reads nothing and fills its destination
/// with zeros (PTX's ignore-src predicate, or a source size of 0, with a
/// null source pointer): `z` in text traces. Capture records a null global
/// source as this, since a read of address 0 would have faulted.
inline constexpr std::uint64_t kZeroFill = ~std::uint64_t{0} - 1;

/// Widths a bank cell (and a plain load or store in the bank model) can
/// have: powers of two from 1 to 16 bytes. Host and device (the sm90 rules).
BANKCHECK_HD constexpr bool is_valid_width(unsigned width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

/// The 12-byte access width: the Compute Sanitizer reports it for 3-word
/// accesses (CUB BlockScan's warp scans); only 4-byte alignment is implied.
inline constexpr unsigned kTripleWordWidth = 12;

/// Whether a 12-byte access at `address` is the 16-byte instruction that
/// carries it (docs/bank-model.md, rule 7): only at a 16-byte aligned
/// address; elsewhere it is no single instruction and not modelled. Host
/// and device (the sm90 rules run in the capture patch too).
BANKCHECK_HD constexpr bool carried_by_quad(std::uint64_t address) { return address % 16 == 0; }

/// Widths a trace record of `op` may carry, as a bit set over widths 0..16.
/// ld/st/atom: 1, 2, 4, 8, 12, 16; ldsm/stsm: 16 (one matrix row);
/// cpasync: 4, 8, 16 (what LDGSTS copies); gld/gst/gatom: 1, 2, 4, 8, 16.
constexpr std::uint32_t allowed_widths(Op op) {
  constexpr std::uint32_t scalar = 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 12 | 1u << 16;
  switch (op) {
    case Op::load:
    case Op::store:
    case Op::atom:
    case Op::atom_cas:
    case Op::atom_cast:
    case Op::atom_popc:
    case Op::unmeasured: return scalar;
    case Op::ldsm:
    case Op::stsm:
    case Op::cpasync_cg:
    case Op::cpasync_cg_zfill:
    case Op::cpasync_cg_notp0:
    case Op::wgmma: return 1u << 16;
    case Op::cpasync:
    case Op::cpasync_unmeasured: return 1u << 4 | 1u << 8 | 1u << 16;
    case Op::gld:
    case Op::gst:
    case Op::gatom: return 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 16;
  }
  return 0;
}

/// Whether a record of `op` may have this width.
constexpr bool is_valid_access(Op op, unsigned width) { return width <= 16 && ((allowed_widths(op) >> width) & 1u); }

/// Alignment every active address of an access of `width` bytes has: the
/// width itself, except 4 for the 12-byte access.
constexpr unsigned access_alignment(unsigned width) { return width == kTripleWordWidth ? 4u : width; }

/// Whether `address` is a multiple of access_alignment(width): a mask, not
/// a division (every alignment is a power of two; a 64-bit division per lane
/// was most of a capture's host time). @pre is_valid_width(width)
constexpr bool is_aligned_access(std::uint64_t address, unsigned width) {
  return (address & (access_alignment(width) - 1)) == 0;
}

/// Whether `value` (an op number from a file) names an Op.
constexpr bool is_valid_op(unsigned value) { return value < kOpCount; }

/// The trace token of an op: "ld", "st", "atom", "ldsm", "stsm", "cpasync",
/// "atom.cas", "atom.popc", "cpasync.cg", "gld", "gst", "gatom", "cpasync.cg.zfill",
/// "cpasync.unmeasured", "wgmma", "atom.cast", "cpasync.cg.notp0", "unmeasured".
constexpr std::string_view op_name(Op op) {
  constexpr std::array<std::string_view, kOpCount> names = {
      "ld", "st", "atom", "ldsm", "stsm", "cpasync", "atom.cas", "atom.popc", "cpasync.cg", "gld", "gst", "gatom",
      "cpasync.cg.zfill", "cpasync.unmeasured", "wgmma", "atom.cast", "cpasync.cg.notp0", "unmeasured"};
  return names[static_cast<unsigned>(op)];
}

/// "1, 2, 4, 8, 12, 16": the widths of an op, for messages (read from allowed_widths).
inline std::string allowed_widths_text(Op op) {
  std::string text;
  for (unsigned width = 1; width <= 16; ++width)
    if (is_valid_access(op, width)) text += (text.empty() ? "" : ", ") + std::to_string(width);
  return text;
}

/// @pre addr.size() is the warp size; every active address is a multiple of access_alignment(width).
struct WarpRequest {
  Op op = Op::load;
  unsigned width = 4;                   ///< bytes per lane (is_valid_access(op, width))
  std::span<const std::uint64_t> addr;  ///< one byte address per lane, kInactive if idle
  /// cpasync / cpasync.cg only: each lane's global source address (kInactive
  /// where addr is, kZeroFill for a lane that reads nothing), or empty where
  /// the trace does not say. The copy's
  /// shared-side cost depends on it (docs/bank-model.md, rule 6).
  std::span<const std::uint64_t> source = {};
};

/// Whether requests of `op` carry a `source` per lane: the copies' global
/// source addresses, wgmma's operand sizes.
constexpr bool has_source(Op op) {
  return op == Op::cpasync || op == Op::cpasync_cg || op == Op::cpasync_cg_zfill || op == Op::cpasync_unmeasured ||
         op == Op::cpasync_cg_notp0 || op == Op::wgmma;
}

}  // namespace bankcheck
