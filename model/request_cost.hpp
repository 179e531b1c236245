#pragma once
// The cost of one warp request, defined once for both of its users: the
// host's counts (RequestCost, 64-bit: a replay adds billions of them) and the
// capture patch's on the GPU (sm90::WarpCost, 32-bit: one warp's request
// never needs more, and the patch keeps it in registers). Conflicts are not
// stored but derived, checked (model/cost_invariants.hpp's conflicts_of), so
// that no cost can carry a conflict count that disagrees with its wavefronts.
#include <cstdint>

#include "model/cost_invariants.hpp"
#include "model/hd.hpp"

namespace bankcheck {

/// @post wavefronts == ideal + conflicts(); degree <= wavefronts; all zero iff no lane is active
///       or the request is not modelled.
template <class Count>
struct BasicCost {
  Count wavefronts = 0;      ///< serialized passes the banks make
  Count ideal = 0;           ///< passes the same request needs with no bank conflict
  std::uint32_t degree = 0;  ///< k of the worst k-way conflict in one phase (1 = none)
  /// False when the model has no rule for the request's (op, width) or
  /// addresses: the counts above are then zero and mean nothing; callers
  /// count such requests apart (replay's "not modelled" lines), never as
  /// conflict-free.
  bool modelled = true;

  /// wavefronts - ideal, as Nsight Compute counts them (never wrapped).
  BANKCHECK_HD Count conflicts() const { return static_cast<Count>(conflicts_of(wavefronts, ideal)); }
};

using RequestCost = BasicCost<std::uint64_t>;

namespace sm90 {
using WarpCost = BasicCost<std::uint32_t>;
}  // namespace sm90

}  // namespace bankcheck
