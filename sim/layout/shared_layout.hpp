#pragma once
// A shared-memory tile layout as CuTe composes it: an optional swizzle, an
// offset, and a layout ("Sw<3,3,3> o _0 o (8,64):(64,1)"). What the swizzle
// acts on follows CuTe:
//  * ComposedLayout<Swizzle, Offset, Layout> with an integer offset (printed
//    "Sw<B,M,S> o 0 o L"): the swizzle acts on element offsets,
//    offset(c) = Sw(O + L(c)), the byte address offset(c) x element bytes;
//  * with a shared-memory pointer flag (printed "Sw<B,M,S> o smem_ptr[16b](unset) o L",
//    CuTe's GMMA atoms such as GMMA::Layout_K_SW128_Atom): the swizzle acts
//    on the byte address of the pointer, address(c) = Sw(base + L(c) x bytes);
//    cute::print of a tensor writes the pointer's value ("Sw<3,4,3>_smem_ptr[16b](0x7f..) o L"),
//    which is then the tile's base address.
// Negative strides are CuTe's too: an address is the base plus a signed
// offset, refused only where it would fall below 0.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/layout/cute_layout.hpp"
#include "sim/layout/swizzle.hpp"

namespace bankcheck::layout {

enum class SwizzleUnit : std::uint8_t {
  element,  ///< the swizzle permutes element offsets (CuTe's integer-offset composition)
  byte,     ///< the swizzle permutes byte addresses (CuTe's smem_ptr composition)
};

struct SharedLayout {
  std::optional<Swizzle> swizzle;             ///< none: a plain layout
  SwizzleUnit unit = SwizzleUnit::element;
  std::int64_t offset = 0;                    ///< O, in elements (element unit only)
  std::optional<unsigned> pointer_bits;       ///< the smem_ptr[Nb] element size, when given
  std::optional<std::uint64_t> pointer_address;  ///< the smem_ptr's printed value (the base), unless "(unset)"
  CuteLayout layout{IntTuple{1, {}}, IntTuple{0, {}}};

  /// The byte address of the element at layout offset `element_offset` (L(c)),
  /// for elements of `element_bytes` and a tile starting at byte `base`.
  /// @throws std::invalid_argument when the address would be negative.
  std::uint64_t byte_address(std::int64_t element_offset, unsigned element_bytes, std::uint64_t base) const;
  /// As cute::print writes it, without underscores: "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
  /// ("smem_ptr[16b](0x400)" for a printed pointer).
  std::string text() const;
};

}  // namespace bankcheck::layout
