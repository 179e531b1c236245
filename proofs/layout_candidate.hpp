#pragma once
// One layout the synthesis considers for a tile, and what it costs: a CuTe
// layout (row- or column-major, maybe padded, maybe swizzled on elements or
// on bytes, or a TMA/wgmma swizzle atom tiled over the tile), optionally
// followed by an XOR map of the byte offsets (proofs/xor_address_map.hpp).
// It is costed by planning every access on it (sim/layout/layout_access.hpp)
// and costing each instruction with the bank model (layout::check_layout):
// the checker's own cost, never a second one. Where the layout is an XOR
// map, the planned addresses of the plain layout are mapped; the map keeps
// every vector contiguous (it never moves bits below its lowest target, and
// a map whose lowest target lies inside a vector is infeasible).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/xor_address_map.hpp"
#include "sim/layout/layout_check.hpp"

namespace bankcheck::proofs {

/// One access of the tile to cost: its kind, vector mode, and how often it runs.
struct CostedAccess {
  layout::AccessKind kind;
  std::optional<unsigned> along;  ///< the vector mode (resolved once on the reference layout)
  std::uint64_t weight = 1;
  std::string text;               ///< as the user wrote it
};

/// The tile and its accesses: what every candidate is planned against.
struct TileAccesses {
  std::uint64_t rows = 0, cols = 0;
  layout::ElementType element;
  std::uint64_t base = 0;  ///< the tile's byte address
  std::vector<CostedAccess> accesses;
};

struct LayoutCandidate {
  enum class Family : std::uint8_t { given, plain, padded, cute_swizzle, tma_atom, xor_map };
  Family family = Family::plain;
  bool row_major = true;      ///< the contiguous mode: columns (row-major) or rows
  std::uint64_t pad = 0;      ///< padded: elements added to each line
  int atom_mode = 0;          ///< tma_atom: 0 none, 1 32B, 2 64B, 3 128B
  layout::SharedLayout layout;
  XorAddressMap map;          ///< xor_map: applied to the byte offset after `layout`

  /// "Sw<3,3,3> o 0 o (64,64):(64,1)", "(64,64):(64,1) then bit 4 ^= bit 7; ...".
  std::string text() const;
  /// Orders simplest first: plain, padding, CuTe swizzle / atom, XOR map (then its terms).
  unsigned simplicity() const;
  static const char* family_name(Family f);
};

/// The plain layouts: (R,C):(C+pad,1) row-major, (R,C):(1,R+pad) column-major.
layout::CuteLayout plain_layout(std::uint64_t rows, std::uint64_t cols, bool row_major, std::uint64_t pad = 0);

/// What a candidate costs for the tile's accesses.
struct CandidateCost {
  bool feasible = false;
  std::string why;                           ///< infeasible: the first access that cannot run on it
  std::vector<layout::LayoutCheck> checks;   ///< one per access
  std::uint64_t weighted = 0;                ///< sum of weight x wavefronts (modelled instructions)
  std::uint64_t not_modelled = 0;            ///< instructions the model has no rule for
  std::uint64_t footprint = 0;               ///< bytes from the lowest to past the highest address
};

/// Plan and cost every access on `c`. Never throws for an infeasible layout: says why.
/// @throws std::overflow_error if a weighted sum would wrap.
CandidateCost cost_candidate(const LayoutCandidate& c, const TileAccesses& t, const BankModel& model);

/// The planned accesses of `c` (addresses mapped by its XOR map), or the reason it cannot run one.
/// @throws std::invalid_argument with that reason.
layout::LayoutAccess plan_candidate(const LayoutCandidate& c, const TileAccesses& t, std::size_t access);

}  // namespace bankcheck::proofs
