#pragma once
// XOR maps of the address bits built from the accesses themselves, beyond
// CuTe's Swizzle<B,M,S> (whose B sources are consecutive and as many as its
// targets). The map XORs into the bank bits above every vector (targets
// [v, bank top): v = log2 of the widest access, bank top = log2 of banks x
// bank bytes) the parity of chosen bits above the banks (sources [bank top,
// log2 tile bytes)). It is fixed by one vector c_h of target bits per source
// bit h: the offset delta x then lands in banks low(x) ^ (x's target bits ^
// sum of c_h over x's source bits).
//
// Construction from the phase spaces: every access, heaviest first, has a
// phase (the lanes the model serves together; a linear coset of lane bits
// for the plans of sim/layout/layout_access.hpp on a power-of-two tile) whose
// lane deltas are the columns of its GF(2) map (proofs/layout_linear_map.hpp).
// A column whose bank image depends on the ones before it is a conflict
// direction; if it has a source bit not yet given a vector, that bit gets
// one that makes the image independent (a fresh bank bit, the idea of
// Triton's generic swizzling: give the lanes of one wavefront distinct
// banks). Then coordinate descent: each c_h in turn takes the value with the
// fewest wavefronts, costed by the checker (proofs/layout_candidate.hpp),
// until a pass changes nothing (proofs/xor_map_search.hpp, shared with
// `bankcheck suggest` on captures). Both maps are candidates; what they cost is
// the enumeration's.
#include <cstdint>
#include <vector>

#include "proofs/layout_candidate.hpp"

namespace bankcheck::proofs {

struct XorSynthesis {
  std::vector<LayoutCandidate> candidates;  ///< the constructed map, then the refined one (when different)
  std::uint64_t evaluations = 0;            ///< candidates costed by the descent
  unsigned sources = 0, targets = 0;        ///< the matrix searched: targets x sources bits
  std::string skipped;                      ///< why no map was built, or ""
};

/// Maps over the plain layout `plain` (row- or column-major, no swizzle).
XorSynthesis synthesize_xor_maps(const LayoutCandidate& plain, const TileAccesses& t, const BankModel& model);

}  // namespace bankcheck::proofs
