#pragma once
// Reads a shared layout in CuTe's notation, including what cute::print
// writes, so that a user can paste it:
//   (8,64):(64,1)                          shape:stride
//   ((8,2),(4,16)):((64,8),(1,512))        nested modes
//   (8,64)                                 strides omitted: compact column-major, as CuTe
//   (_8,_64):(_64,_1)                      static integers (cute::print's underscores)
//   Swizzle<3,3,3> o (8,64):(64,1)         a swizzle composed with a layout (element offsets)
//   Sw<3,4,3> o _0 o (_8,_64):(_64,_1)     cute::print of a ComposedLayout (element offsets)
//   Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)
//                                          cute::print of a GMMA atom: the swizzle acts on bytes
//   Sw<3,4,3>_smem_ptr[16b](0x7f0a00000400) o (_8,_64):(_64,_1)
//                                          cute::print of a tensor: the same, the pointer the base
//   smem_ptr[16b](0x7f0a00000400) o (_8,_64):(_64,_1)    a tensor without swizzle
// Grammar (spaces allowed between tokens):
//   input   := [swizzle ('_' pointer | 'o' [middle 'o'])] layout | pointer layout
//   swizzle := ('Sw' | 'Swizzle') '<' int ',' int ',' int '>'
//   middle  := int | pointer
//   pointer := 'smem_ptr[' digits 'b](' ('unset' | '0x' hex) ')' 'o'
//   layout  := tuple [':' tuple]
//   tuple   := int | '(' tuple (',' tuple)* ')'
//   int     := ['_'] ['-'] digits
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/layout/shared_layout.hpp"

namespace bankcheck::layout {

/// Input that is not a layout: says where (1-based column) and what was expected.
class LayoutSyntaxError : public std::invalid_argument {
 public:
  LayoutSyntaxError(std::string_view input, std::size_t column, const std::string& what);
  std::size_t column() const { return column_; }

 private:
  std::size_t column_;
};

/// @throws LayoutSyntaxError on malformed input (column and expectation),
///         std::invalid_argument on a well-formed but impossible layout (a
///         swizzle CuTe rejects, shape and stride of different nesting).
SharedLayout parse_shared_layout(std::string_view text);

}  // namespace bankcheck::layout
