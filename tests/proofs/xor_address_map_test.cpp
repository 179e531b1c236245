// XOR maps of byte offsets: CuTe's swizzle as a special case, the inverse,
// the C++ expression evaluated by hand.
#include "proofs/xor_address_map.hpp"

#include <doctest/doctest.h>

namespace xor_address_map_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

TEST_CASE("xor map: Sw<3,4,3> on bytes is three one-source terms; a general map is its own inverse") {
  const layout::Swizzle sw{3, 4, 3};
  const XorAddressMap m = xor_map_of(sw);
  REQUIRE(m.terms.size() == 3);
  CHECK(m.terms[0] == XorTerm{4, 1u << 7});
  CHECK(m.as_swizzle() == sw);
  for (std::uint64_t x = 0; x < 4096; ++x) CHECK(m.apply(x) == sw.apply(x));
  CHECK(m.cpp("b") == "b ^ ((b >> 3) & 0x70)");
  CHECK(m.lowest_target() == 4);
  // bit 4 ^= bits 7 and 9, bit 6 ^= bit 8: not a CuTe swizzle (two sources, a gap).
  const XorAddressMap g{{XorTerm{4, (1u << 7) | (1u << 9)}, XorTerm{6, 1u << 8}}};
  CHECK(!g.as_swizzle());
  CHECK(g.text() == "bit 4 ^= bits 7,9; bit 6 ^= bit 8");
  CHECK(g.apply(0x80) == 0x90);
  CHECK(g.apply(0x280) == 0x280);  // bits 7 and 9: even parity
  CHECK(g.apply(0x100) == 0x140);
  for (std::uint64_t x = 0; x < 1024; ++x) CHECK(g.apply(g.apply(x)) == x);
  CHECK(XorAddressMap{}.is_identity());
  CHECK(XorAddressMap{}.lowest_target() == 64);
}

}  // namespace xor_address_map_test
