#pragma once
// A shared layout that is any invertible GF(2)-linear map of a tile's
// coordinate bits to element-offset bits (Triton's shared linear layouts:
// one (dim0, dim1) = (row, col) basis per offset bit). It covers row- and
// column-major tiles, every CuTe swizzle on element offsets, and what CuTe
// cannot say: the offset's low bits taken from any coordinate bits (a row
// permuted so that a lane's registers are contiguous where another lane's
// store put them), the choice `layout --suggest --from/--to` needs
// (docs/layout.md, "Choosing the instructions").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/layout/register_layout.hpp"

namespace bankcheck::proofs {

struct LinearSharedLayout {
  std::uint64_t rows = 0, cols = 0;
  std::vector<layout::TileCoord> bases;  ///< offset bit i holds the element at coordinate bases[i] (XORed)
  std::vector<std::uint64_t> image;      ///< coordinate bit j (column bits first, then row bits) -> offset

  /// The element offset of (row, col).
  std::uint64_t offset(std::uint64_t row, std::uint64_t col) const;
  /// "offset=[[0,4],[0,8],...]": the bases, offset bit 0 first (as Triton prints a shared linear layout).
  std::string text() const;
  /// A C++ expression of the element offset of (row, col): one term per offset bit.
  std::string cpp() const;
};

/// The layout whose offset bit i is bases[i]. @throws std::invalid_argument unless they are a basis of the tile.
LinearSharedLayout linear_layout_of(std::uint64_t rows, std::uint64_t cols, const std::vector<layout::TileCoord>& bases);

/// Read text() back ("offset=[[r,c],...]"). @throws std::invalid_argument naming the column.
LinearSharedLayout parse_linear_shared_layout(std::string_view text, std::uint64_t rows, std::uint64_t cols);

}  // namespace bankcheck::proofs
