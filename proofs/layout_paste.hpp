#pragma once
// A suggested layout in the forms people paste: CuTe code, Triton/Gluon's
// SwizzledSharedLayout where it is one (else the linear layout's bases), and
// a C++ expression of the byte offset of element (row, col).
//
// Triton's swizzled shared layout (order [1, 0]: dim 1 contiguous) puts
// element (r, c) at r x C + ((c / vec) ^ ((r / per_phase) % max_phase)) x vec
// + c % vec, which is CuTe's Swizzle<B,M,S> on element offsets of the
// row-major tile with vec = 2^M, max_phase = 2^B and per_phase =
// 2^(M + S - log2 C), when S > 0, M + B <= log2 C (the XORed bits lie in the
// column) and M + S >= log2 C (the phase bits in the row). Column-major is
// order [0, 1] with the roles swapped. Any other swizzle, XOR map or atom
// tiling of a power-of-two tile is a linear layout: its bases are the
// (dim0, dim1) coordinates at element offsets 1, 2, 4, ...
#include <string>

#include "proofs/layout_candidate.hpp"

namespace bankcheck::proofs {

struct LayoutPaste {
  std::string cute;    ///< CuTe C++, or "none: why"
  std::string triton;  ///< SwizzledSharedLayout(...), or "LinearLayout bases ...", or "none: why"
  std::string cpp;     ///< the byte offset of (row, col) from the tile's start
};

LayoutPaste paste_of(const LayoutCandidate& c, const TileAccesses& t);

}  // namespace bankcheck::proofs
