#pragma once
// Which lane touches which element: the warp instructions that cover a tile
// of a shared layout with one access kind, in a fixed order, each as the
// per-lane byte addresses the bank model costs (docs/layout.md).
//
// The tile: a rank-2 layout (mode 0 = rows, mode 1 = columns), or rank 3
// with mode 2 counting tiles (a pipeline's stages, a loop's tiles), walked
// one tile after the other. A lane moves `bytes` contiguous bytes that run
// along one mode, the vector mode (`along`: the columns unless given, or
// the rows when only they hold a lane's bytes contiguously), V = bytes /
// element bytes elements from (row, col):
//  * ld, st, cp.async: the tile's vectors are numbered with the vector mode
//    fastest (k = line x vectors per line + vector); lane l of instruction i
//    takes vector 32 i + l; past the tile's end lanes idle.
//  * ldmatrix, stmatrix: the tile's 8x8 matrices (8 lines x 16 bytes) are
//    numbered the same way, line block outer, vector block inner; the .xN
//    instruction i takes matrices N i .. N i + N - 1, lanes 8j..8j+7 giving
//    the rows of its j-th; lanes past 8 x N idle (the H100 ignores them).
//    A matrix is one phase (rule 5), so which matrices share an
//    instruction moves wavefronts between instructions, never their sum.
//  * cp.async reads its global source in the same order, coalesced: lane l
//    of instruction i reads bytes [(32 i + l) B, +B) of its tile's global
//    block (tiles one after the other).
// A lane's V elements must lie at consecutive byte addresses aligned to its
// width, else no such instruction exists for the layout: an error names the
// lane and its elements' addresses.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/warp_request.hpp"
#include "sim/layout/access_kind.hpp"
#include "sim/layout/element_type.hpp"
#include "sim/layout/shared_layout.hpp"

namespace bankcheck::layout {

/// What to check: the inputs of `bankcheck layout` and of the library call.
struct LayoutAccessSpec {
  std::string layout;              ///< CuTe notation (sim/layout/layout_parser.hpp)
  std::string element;             ///< element type name; "" takes smem_ptr[Nb]'s size
  std::string access;              ///< access kind (sim/layout/access_kind.hpp)
  std::optional<unsigned> along;   ///< 0 or 1: the vector mode; unset: 1, else 0 (see above)
  std::uint64_t base = 0;          ///< byte address of the tile (what a byte swizzle sees); 0 takes a printed smem_ptr
};

/// The first element a lane moves.
struct LaneElement {
  std::uint64_t tile = 0;
  std::uint64_t row = 0;  ///< mode-0 index
  std::uint64_t col = 0;  ///< mode-1 index
};

struct LayoutInstruction {
  std::string site;                    ///< "r0-15.c0-15" (rows and columns it touches; "t2." first when tiled)
  std::uint64_t tile = 0;
  Op op = Op::load;
  unsigned width = 4;                  ///< bytes per lane
  std::vector<std::uint64_t> addr;     ///< 32 lanes, kInactive where idle
  std::vector<std::uint64_t> source;   ///< copies: global source per lane; else empty
  std::vector<LaneElement> lanes;      ///< 32 lanes; meaningful where addr is active

  WarpRequest request() const { return WarpRequest{op, width, addr, source}; }
};

struct LayoutAccess {
  SharedLayout layout;
  ElementType element;
  AccessKind access;
  unsigned along = 1;           ///< the vector mode
  std::uint64_t rows = 0, cols = 0, tiles = 1;
  std::uint64_t base = 0;       ///< the tile's byte address: the spec's, or the layout's printed smem_ptr
  std::vector<LayoutInstruction> instructions;
};

/// Lanes of a warp: the layout checker walks tiles with 32-lane instructions.
inline constexpr unsigned kLayoutWarp = 32;

/// Parse the spec and list the instructions that cover every tile.
/// @throws LayoutSyntaxError (a malformed layout) or std::invalid_argument
///         (an unknown type or access, a tile the access cannot cover), each naming what was expected.
LayoutAccess plan_layout_access(const LayoutAccessSpec& spec);

/// The same for a layout already parsed, of elements `element`; `base` 0 or
/// equal to a printed smem_ptr value, which is then the base.
/// @throws std::invalid_argument as above.
LayoutAccess plan_layout_access(const SharedLayout& layout, const ElementType& element, const AccessKind& access,
                                std::optional<unsigned> along, std::uint64_t base);

}  // namespace bankcheck::layout
