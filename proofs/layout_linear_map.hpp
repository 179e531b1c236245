#pragma once
// The byte address a layout access gives each lane, as an affine map over
// GF(2) of the lane's bits and the instruction's bits, derived from the
// layout's shape, strides and swizzle (not fitted to enumerated addresses).
//
// Why it is affine. Let every extent be a power of two. A lane's first
// element (tile, row, col) is then a concatenation of bit fields of the lane
// number and of the instruction number (sim/layout/layout_access.hpp: vector
// k = 32 i + l splits into line = k >> log2(vectors per line) and position =
// k mod vectors per line; matrix m = N i + j into line block and vector block,
// its row r = l mod 8), and each mode's index splits over its sub-modes into
// bit fields too (CuTe's colexicographic split). Bit b of a leaf of stride s
// adds s << b to the offset. An integer sum whose terms have pairwise disjoint
// bits has no carry, so it is their XOR: the offset is then linear over
// GF(2) in the variable bits. CuTe's Swizzle<B,M,S> is linear over GF(2)
// (x ^ ((x & yyy) >> S)), scaling by the element size is a shift, and adding
// a constant (the composed offset, the tile's base) whose bits meet no
// variable bit is again an XOR. So address = c ^ sum of x_v col_v.
//
// Where two terms share a bit the sum carries: for terms u, v with u & v != 0,
// u + v != u ^ v, and the map is checked there on the real layout
// (SharedLayout::byte_address): if address(e_u ^ e_v) ^ address(e_u) ^
// address(e_v) ^ address(0) != 0 it is not affine (a witness, `not_linear`),
// else nothing is claimed (`not_proven`). A padded row (stride 72 halves) is
// the usual case. An extent that is not a power of two is no bit field at all:
// `not_proven`, the enumeration is the answer.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/layout/layout_access.hpp"

namespace bankcheck::proofs {

/// One variable bit of the map.
struct AddressBit {
  enum class Role : std::uint8_t { lane, instruction };
  Role role = Role::lane;
  unsigned position = 0;      ///< lane: bit of the lane number; instruction: bit of the instruction's index
  std::uint64_t column = 0;   ///< what the bit XORs into the byte address
  std::string meaning;        ///< "row bit 2", "column bit 4", "tile bit 0"
};

struct LayoutLinearMap {
  enum class Status : std::uint8_t { linear, not_linear, not_proven };
  Status status = Status::not_proven;
  std::string reason;             ///< not_linear / not_proven: why (with the witness for not_linear)
  std::uint64_t constant = 0;     ///< byte address of lane 0 of instruction 0
  std::vector<AddressBit> bits;   ///< lane bits first (by position), then instruction bits (by position)
  unsigned lane_bits = 0;         ///< lanes 0 .. 2^lane_bits - 1 are active in every instruction, the rest idle
  unsigned instruction_bits = 0;  ///< the access has 2^instruction_bits instructions

  /// The byte address the map gives lane `lane` of instruction `instruction`. @pre status == linear
  std::uint64_t address(std::uint64_t lane, std::uint64_t instruction) const;
};

/// The map of `access` (as planned by plan_layout_access) for a tile at byte `base`.
/// Never throws for a planned access: what it cannot derive it reports.
LayoutLinearMap derive_layout_linear_map(const layout::LayoutAccess& access, std::uint64_t base);

}  // namespace bankcheck::proofs
