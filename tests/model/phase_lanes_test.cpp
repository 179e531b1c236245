#include "model/phase_lanes.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

using namespace bankcheck;

namespace {

/// Oracle by counting: add lanes while their bytes (each lane's width
/// rounded up to a power of two) still fit in one wavefront and the warp
/// has lanes left; a phase holds at least one lane.
unsigned lanes_by_counting(std::uint64_t wavefront_bytes, unsigned width, unsigned warp) {
  std::uint64_t carried = 1;
  while (carried < width) carried *= 2;
  unsigned lanes = 0;
  while (lanes < warp && (lanes + 1) * carried <= wavefront_bytes) ++lanes;
  return lanes == 0 ? 1 : lanes;
}

}  // namespace

TEST_CASE("lanes per phase: the bytes of one wavefront, at least one lane, at most the warp") {
  // The H100's 128-byte wavefront (docs/bank-model.md, rules 1-2): 32 lanes up
  // to 4 bytes, 16 of 8 bytes, 8 of 16 bytes; the 12-byte access as 16.
  CHECK(unpaired_phase_lanes(128, 1, 32) == 32);
  CHECK(unpaired_phase_lanes(128, 4, 32) == 32);
  CHECK(unpaired_phase_lanes(128, 8, 32) == 16);
  CHECK(unpaired_phase_lanes(128, 16, 32) == 8);
  CHECK(unpaired_phase_lanes(128, 12, 32) == 8);
  // Kepler's 8-byte mode: 256 bytes a wavefront, so 8-byte lanes fill a warp.
  CHECK(unpaired_phase_lanes(256, 8, 32) == 32);
  CHECK(unpaired_phase_lanes(256, 16, 32) == 16);
  // A wavefront narrower than one lane's access still serves that lane.
  CHECK(unpaired_phase_lanes(4, 16, 32) == 1);
  for (std::uint64_t bytes : {1u, 2u, 4u, 8u, 64u, 128u, 256u, 512u, 4096u})
    for (unsigned width = 1; width <= 16; ++width)
      for (unsigned warp : {1u, 8u, 32u, 64u}) {
        CAPTURE(bytes);
        CAPTURE(width);
        CAPTURE(warp);
        CHECK(unpaired_phase_lanes(bytes, width, warp) == lanes_by_counting(bytes, width, warp));
      }
  static_assert(unpaired_phase_lanes(128, 8, 32) == 16, "usable in constant expressions");
}
