#pragma once
// How many lanes of a warp one phase serves before any pairing of wide
// loads: a wavefront carries one bank word from every bank, so a phase takes
// as many lanes as their bytes fit in banks x bank bytes (x rows per word
// where a bank word spans several rows), at least one lane and at most the
// warp. Every preset's phases start from this count (model/phase_rules.cpp);
// sm90 then pairs 8- and 16-byte loads (rule 3, sm90::phase_lanes in
// model/sm90_phases.hpp). Device-safe: the capture patch evaluates it too.
#include <cstdint>

#include "model/hd.hpp"
#include "model/power_of_two.hpp"

namespace bankcheck {

/// Lanes per phase for accesses of `width` bytes when one wavefront carries
/// `wavefront_bytes` of lane data, on a warp of `warp` lanes. A width that
/// is no power of two (the 12-byte access) takes the phases of the next
/// power, the 16-byte instruction that carries it (docs/bank-model.md, rule 7).
/// @pre width >= 1, warp >= 1.
BANKCHECK_HD constexpr unsigned unpaired_phase_lanes(std::uint64_t wavefront_bytes, unsigned width, unsigned warp) {
  const std::uint64_t lanes = wavefront_bytes >> log2_ceil(width);
  return lanes < 1 ? 1u : lanes > warp ? warp : static_cast<unsigned>(lanes);
}

}  // namespace bankcheck
