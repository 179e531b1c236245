#pragma once
// The warp instructions the layout checker walks a tile with, and the trace
// op each one is (model/warp_request.hpp), so the bank model costs them by
// its measured rules and nothing here re-derives a cost:
//   ld.B / st.B          B = 8, 16, 32, 64, 128 bits per lane   -> ld / st of B/8 bytes
//   ldmatrix.xN[.trans]  N = 1, 2, 4 matrices of 8 16-byte rows -> ldsm 16 (lanes 8i..8i+7: matrix i's rows)
//   stmatrix.xN[.trans]                                         -> stsm 16
//   cp.async.B           B = 4, 8, 16 bytes (cp.async.ca)       -> cpasync B, with its global sources
//   cp.async.ca.B, cp.async.cg.16 (cp.async.cg: LDGSTS.E.BYPASS) -> cpasync / cpasync.cg
// ld/st name their width in bits (ld.128 is LDS.128), cp.async in bytes
// (PTX's cp-size). `.trans` moves values between registers, not addresses:
// the rows read are the same (and the H100 costs them the same, rule 5 of
// docs/bank-model.md).
#include <cstdint>
#include <string>
#include <string_view>

#include "model/warp_request.hpp"

namespace bankcheck::layout {

struct AccessKind {
  enum class Family : std::uint8_t { load, store, ldmatrix, stmatrix, cpasync_ca, cpasync_cg };
  Family family = Family::load;
  unsigned bytes = 4;     ///< bytes one lane moves: the vector, the 16-byte matrix row, the copy size
  unsigned matrices = 0;  ///< ldmatrix/stmatrix: 1, 2 or 4
  bool trans = false;     ///< ldmatrix/stmatrix .trans

  /// The trace op that carries it.
  Op op() const;
  /// Whether each lane gives one 16-byte row of an 8x8 matrix (ldmatrix, stmatrix).
  bool is_matrix() const { return family == Family::ldmatrix || family == Family::stmatrix; }
  /// Whether it is a cp.async, whose requests carry global sources.
  bool is_copy() const { return family == Family::cpasync_ca || family == Family::cpasync_cg; }
  /// The canonical name: "ld.128", "ldmatrix.x4.trans", "cp.async.cg.16".
  std::string name() const;
};

/// The accepted spellings, for messages and --help.
inline constexpr std::string_view kAccessKindNames =
    "ld.8|16|32|64|128, st.8|16|32|64|128 (bits per lane); ldmatrix.x1|x2|x4[.trans], "
    "stmatrix.x1|x2|x4[.trans]; cp.async.4|8|16 or cp.async.ca.4|8|16, cp.async.cg.16 (bytes per lane)";

/// @throws std::invalid_argument naming the accepted spellings.
AccessKind parse_access_kind(std::string_view text);

}  // namespace bankcheck::layout
