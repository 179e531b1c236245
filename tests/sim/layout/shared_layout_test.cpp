// What a swizzle acts on: element offsets (CuTe's integer-offset
// composition) or byte addresses (smem_ptr composition).
#include <doctest/doctest.h>

#include "sim/layout/layout_parser.hpp"

using namespace bankcheck::layout;

TEST_CASE("shared layout: the SW128 atom in bytes equals Sw<3,3,3> on fp16 and Sw<3,2,3> on tf32 elements") {
  const auto bytes16 = parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  const auto elems16 = parse_shared_layout("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  for (std::int64_t e = 0; e < 512; ++e) REQUIRE(bytes16.byte_address(e, 2, 0) == elems16.byte_address(e, 2, 0));
  const auto bytes32 = parse_shared_layout("Sw<3,4,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)");
  const auto elems32 = parse_shared_layout("Sw<3,2,3> o _0 o (_8,_32):(_32,_1)");
  for (std::int64_t e = 0; e < 256; ++e) REQUIRE(bytes32.byte_address(e, 4, 0) == elems32.byte_address(e, 4, 0));
  // the same Sw<3,4,3> on fp16 element offsets is another layout (the CUTLASS issue class)
  const auto wrong = parse_shared_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  CHECK(wrong.byte_address(64, 2, 0) == 128);   // row 1: bits 7.. of the element offset are 0
  CHECK(bytes16.byte_address(64, 2, 0) == 144);  // row 1 of the byte swizzle: chunk 0 -> 1
  // a byte swizzle sees the tile's base address; an element swizzle does not
  CHECK(bytes16.byte_address(0, 2, 128) == 144);
  CHECK(elems16.byte_address(0, 2, 128) == 128);
}
