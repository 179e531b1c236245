#pragma once
// A tile held in registers, as Triton prints a linear layout: the (dim0,
// dim1) = (row, col) coordinate of every register basis, lane basis and warp
// basis. The element held by register r of lane l in warp w is the XOR of
// the bases of the set bits of r, l and w (Triton's LinearLayout over
// GF(2)). `layout --suggest --from/--to` takes the registers a tile is
// written from and read into, and derives the instructions they permit on
// each candidate shared layout (docs/layout.md, "Choosing the instructions").
//
// Accepted text (whitespace, ';', ',' and "- " between the parts):
//   register=[[0,1],[0,2]] lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] warp=[[2,0],[4,0]]
// `reg` is `register`; an empty `block=[]` is accepted (one CTA). Every
// element of the tile must be held exactly once: a zero or repeated basis
// (a broadcast) is refused, not modelled.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::layout {

struct TileCoord {
  std::uint64_t row = 0, col = 0;
  bool operator==(const TileCoord&) const = default;
};

struct RegisterLayout {
  std::vector<TileCoord> reg, lane, warp;  ///< bases, bit 0 first
  std::string text;                        ///< as given

  std::uint64_t registers() const { return std::uint64_t{1} << reg.size(); }
  std::uint64_t warps() const { return std::uint64_t{1} << warp.size(); }
  /// The element register r of lane l in warp w holds.
  TileCoord at(std::uint64_t r, std::uint64_t l, std::uint64_t w) const;
};

/// The accepted form, for messages and --help.
inline constexpr std::string_view kRegisterLayoutForm =
    "register=[[r,c],...] lane=[[r,c] x5] warp=[[r,c],...] (Triton's linear layout bases: (dim0, dim1) per basis)";

/// Parse and check against a rows x cols tile (powers of two): 5 lane bases,
/// every element held once. @throws std::invalid_argument naming the column or the basis at fault.
RegisterLayout parse_register_layout(std::string_view text, std::uint64_t rows, std::uint64_t cols);

}  // namespace bankcheck::layout
