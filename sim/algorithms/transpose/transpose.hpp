#pragma once
// Classic tiled matrix transpose through shared memory (the CUDA SDK's
// transposeCoalesced / transposeNoBankConflicts): a tile x tile block of
// threads writes the tile row by row, then reads it column by column.
//   plain:   tile[r][c] at r*tile + c      -> the column read is tile-way on tile banks
//   padded:  tile[r][c] at r*(tile+1) + c  -> lane c of a column read hits bank (c + r) mod w
//   swizzle: tile[r][c] at r*tile + (c ^ r) (tile a power of two) -> bank r ^ c, a permutation
// Threads: tid = row * tile + col; each phase is one barrier-separated step.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp, model/power_of_two.hpp

namespace bankcheck {

enum class TransposeLayout : int { plain, padded, swizzled };

inline TransposeLayout parse_transpose_layout(std::string_view name) {
  if (name == "plain") return TransposeLayout::plain;
  if (name == "padded") return TransposeLayout::padded;
  if (name == "swizzled") return TransposeLayout::swizzled;
  throw std::invalid_argument("transpose layout must be one of plain, padded, swizzled (got '" + std::string(name) +
                              "')");
}

template <class T = int>
struct Transpose {
  static constexpr const char* kName = "transpose";
  enum Site : int { kWriteTile, kReadColumn };
  static constexpr const char* kSiteNames[2] = {"write_tile", "read_column"};
  static constexpr int kPhases = 2;

  unsigned tile = 32;
  TransposeLayout layout = TransposeLayout::plain;
  const T* in = nullptr;  ///< tile*tile elements, row-major
  T* out = nullptr;       ///< tile*tile elements: out[c*tile + r] = in[r*tile + c]

  /// @throws std::invalid_argument: tile in [1, 1024]; swizzled needs a power-of-two tile.
  void validate() const {
    if (tile == 0 || tile > 1024)
      throw std::invalid_argument("transpose: tile must be in [1, 1024] (got " + std::to_string(tile) + ")");
    if (layout == TransposeLayout::swizzled && !is_power_of_two(tile))
      throw std::invalid_argument("transpose: the swizzled layout needs a power-of-two tile (got " +
                                  std::to_string(tile) + ")");
  }
  BANKCHECK_HD unsigned threads() const { return tile * tile; }
  BANKCHECK_HD std::size_t row_pitch() const { return layout == TransposeLayout::padded ? tile + 1 : tile; }
  BANKCHECK_HD std::size_t shared_bytes() const { return row_pitch() * tile * sizeof(T); }

  /// Element index of tile[r][c] in shared memory.
  BANKCHECK_HD std::size_t slot(unsigned r, unsigned c) const {
    switch (layout) {
      case TransposeLayout::padded: return std::size_t{r} * (tile + 1) + c;
      case TransposeLayout::swizzled: return std::size_t{r} * tile + (c ^ r);
      default: return std::size_t{r} * tile + c;
    }
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const unsigned r = static_cast<unsigned>(tid) / tile, c = static_cast<unsigned>(tid) % tile;
    if (k == 0) {
      smem.template store<T>(kWriteTile, slot(r, c), in[std::size_t{r} * tile + c]);  // coalesced row read
    } else {
      // Thread (r, c) writes out[r][c] = tile[c][r]: a warp reads a column of the tile.
      out[std::size_t{r} * tile + c] = smem.template load<T>(kReadColumn, slot(c, r));
    }
  }
};

static_assert(BlockAlgorithm<Transpose<int>>);

}  // namespace bankcheck
