// Tests of model/warp_request.hpp: which 12-byte accesses rule 7 prices as
// the 16-byte instruction that carries them.
#include "model/warp_request.hpp"

#include <doctest/doctest.h>

#include <cstdint>

using namespace bankcheck;

TEST_CASE("a 12-byte access is carried by a 16-byte instruction exactly at the multiples of 16") {
  // Oracle: the multiples of 16 listed by stepping, against every address up to 4 KiB and a few near 2^64.
  std::uint64_t next_multiple = 0;
  for (std::uint64_t a = 0; a <= 4096; ++a) {
    const bool multiple = a == next_multiple;
    if (multiple) next_multiple += 16;
    CAPTURE(a);
    CHECK(carried_by_quad(a) == multiple);
  }
  CHECK(carried_by_quad(~std::uint64_t{0} - 15));   // 2^64 - 16
  CHECK_FALSE(carried_by_quad(~std::uint64_t{0} - 7));  // 2^64 - 8: 8-byte aligned only
  static_assert(carried_by_quad(48) && !carried_by_quad(40), "usable in constant expressions");
}
