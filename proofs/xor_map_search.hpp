#pragma once
// The search shared by `layout --suggest` (proofs/xor_synthesis.hpp) and
// `bankcheck suggest` on captures (proofs/capture_suggestion.hpp): XOR maps
// of the address bits fixed by one vector c_h of target bits per source bit
// h (targets [v, top): above every vector and inside the banks; sources
// [top, n): above the banks, inside the buffer), built from the lanes'
// address deltas and refined by coordinate descent on a cost the caller
// gives (the bank model's, enumerated: never a cost of its own).
#include <cstdint>
#include <functional>
#include <vector>

#include "proofs/xor_address_map.hpp"
#include "sim/layout/swizzle.hpp"

namespace bankcheck::proofs {

struct XorFrame {
  unsigned v = 0, top = 0, n = 0;  ///< lowest target, bank top, buffer bits
  unsigned cell_shift = 2;         ///< log2 of the bank's bytes
  std::uint64_t target_mask() const { return (std::uint64_t{1} << (top - v)) - 1; }
  unsigned sources() const { return n > top ? n - top : 0; }
};

/// The map of the vectors `c` (c[h] for source bit top + h).
XorAddressMap xor_map_of_vectors(const std::vector<std::uint64_t>& c, const XorFrame& f);

/// One phase of one access: the lanes' address deltas (the GF(2) columns of
/// the lane bits the model serves together, lowest lane bit first).
using PhaseColumns = std::vector<std::uint64_t>;

/// The lane bits one phase spans, as the model's rules group lanes
/// (docs/bank-model.md: rule 1 the warp for 1-4 bytes, rule 2 half and
/// quarter warps for 8 and 16, rule 5 a matrix). A seed only: every cost is enumerated.
unsigned phase_lane_bits(bool matrix, unsigned bytes);

/// Construction: for each phase in turn (heaviest first), a column whose bank
/// image depends on the ones before it gets a source bit's vector that makes
/// it independent (give the lanes of one wavefront distinct banks).
std::vector<std::uint64_t> construct_xor_vectors(const std::vector<PhaseColumns>& phases, const XorFrame& f);

/// Coordinate descent: each c_h in turn takes the value of least `cost`
/// until a pass changes nothing (at most 4 passes). Counts the evaluations.
void descend_xor_vectors(const std::function<std::uint64_t(const XorAddressMap&)>& cost, const XorFrame& f,
                         std::vector<std::uint64_t>& c, std::uint64_t& evaluations);

/// Every valid Swizzle<B,M,S> whose fields lie in the low `bits` bits.
std::vector<layout::Swizzle> swizzles_within(unsigned bits);

}  // namespace bankcheck::proofs
