#pragma once
// What every cost of a warp request satisfies, checked in one place
// (a rule that gives fewer wavefronts than the ideal would make reports
// print 2^64 - 1 conflicts). Whatever the rule, a modelled cost has
//   * ideal >= 1, wavefronts >= 1 and degree >= 1 exactly when a lane is
//     active (a request with no active lane costs nothing);
//   * wavefronts >= ideal: the ideal is the fewest wavefronts the request
//     could take, so conflicts = wavefronts - ideal is never negative;
//   * degree <= wavefronts, and degree <= the bank words the active lanes
//     touch (a bank cannot serve more distinct words, nor more lanes, than
//     the request has).
// A cost that breaks one is a bug in a rule, never a number to report: on
// the host it throws CostInvariantError; on the GPU (the capture patch
// compiles this header with nvcc, where there are no exceptions) the sm90
// rules turn such a cost into "not modelled" (sm90::warp_cost), so that no
// caller there ever subtracts an ideal from fewer wavefronts.
#include <cstdint>

#include "model/hd.hpp"
#include "model/warp_request.hpp"

#ifndef __CUDA_ARCH__
#include <stdexcept>
#include <string>
#endif

namespace bankcheck {

/// Which invariant a cost breaks; none for a sound one.
enum class CostFault : std::uint8_t {
  none,
  cost_without_lanes,      ///< no lane is active, yet a count is not zero
  no_cost_with_lanes,      ///< a lane is active, yet the ideal, wavefronts or degree is zero
  wavefronts_below_ideal,  ///< fewer wavefronts than the ideal: the conflicts would wrap
  degree_above_wavefronts, ///< one phase costs more than the whole request
  degree_above_words,      ///< a bank serves more than the active lanes' words
  counts_not_modelled,     ///< a cost marked not modelled that still has counts
};

/// The invariant a modelled cost breaks, if any. `active_lanes`: lanes that
/// take part; `words_per_lane`: bank words (cells) one lane's access touches.
BANKCHECK_HD_INLINE CostFault cost_fault(std::uint64_t wavefronts, std::uint64_t ideal, std::uint64_t degree,
                                         unsigned active_lanes, unsigned words_per_lane) {
  if (active_lanes == 0)
    return wavefronts == 0 && ideal == 0 && degree == 0 ? CostFault::none : CostFault::cost_without_lanes;
  if (ideal == 0 || wavefronts == 0 || degree == 0) return CostFault::no_cost_with_lanes;
  if (wavefronts < ideal) return CostFault::wavefronts_below_ideal;
  if (degree > wavefronts) return CostFault::degree_above_wavefronts;
  if (degree > std::uint64_t{active_lanes} * words_per_lane) return CostFault::degree_above_words;
  return CostFault::none;
}

/// The invariant in words, for messages.
BANKCHECK_HD_INLINE const char* cost_fault_text(CostFault f) {
  switch (f) {
    case CostFault::none: return "none";
    case CostFault::cost_without_lanes: return "a cost without an active lane";
    case CostFault::no_cost_with_lanes: return "no cost although a lane is active";
    case CostFault::wavefronts_below_ideal: return "fewer wavefronts than the ideal";
    case CostFault::degree_above_wavefronts: return "a degree above the wavefronts";
    case CostFault::degree_above_words: return "a degree above the words the active lanes touch";
    case CostFault::counts_not_modelled: return "counts although not modelled";
  }
  return "?";
}

#ifndef __CUDA_ARCH__
/// A cost that breaks an invariant: a bug in the model, not in the input.
class CostInvariantError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// @throws CostInvariantError naming `what` (the request) and the counts.
[[noreturn]] inline void throw_cost_fault(CostFault f, const std::string& what, std::uint64_t wavefronts,
                                          std::uint64_t ideal, std::uint64_t degree) {
  throw CostInvariantError("bank model bug: " + what + ": " + cost_fault_text(f) + " (wavefronts " +
                           std::to_string(wavefronts) + ", ideal " + std::to_string(ideal) + ", degree " +
                           std::to_string(degree) + "); please report it with this request");
}
#endif

/// Whether a rule's cost for a request of `op` and `width` may be reported:
/// true for a modelled cost that keeps every invariant, and for a cost not
/// modelled whose counts are all zero. Otherwise the host throws
/// CostInvariantError naming the kind and the counts, and the GPU answers
/// false: its caller reports the request as not modelled.
BANKCHECK_HD_INLINE bool checked_cost(std::uint64_t wavefronts, std::uint64_t ideal, std::uint64_t degree,
                                      bool modelled, Op op, unsigned width, unsigned active_lanes,
                                      unsigned words_per_lane) {
  const CostFault f = modelled ? cost_fault(wavefronts, ideal, degree, active_lanes, words_per_lane)
                      : wavefronts == 0 && ideal == 0 && degree == 0 ? CostFault::none
                                                                     : CostFault::counts_not_modelled;
  if (f == CostFault::none) return true;
#ifdef __CUDA_ARCH__
  return false;
#else
  throw_cost_fault(f,
                   std::string(op_name(op)) + " " + std::to_string(width) + " with " + std::to_string(active_lanes) +
                       " active lanes",
                   wavefronts, ideal, degree);
#endif
}

/// conflicts = wavefronts - ideal (as Nsight Compute counts them): the one
/// place it is computed, for a request or for sums of them. Fewer
/// wavefronts than the ideal throws CostInvariantError on the host; on the
/// GPU only costs that passed sm90::warp_cost's check reach it, so there it
/// cannot happen, and a trap stops the kernel rather than wrap.
BANKCHECK_HD_INLINE std::uint64_t conflicts_of(std::uint64_t wavefronts, std::uint64_t ideal) {
  if (wavefronts < ideal) {
#ifdef __CUDA_ARCH__
    __trap();
#else
    throw_cost_fault(CostFault::wavefronts_below_ideal, "conflicts = wavefronts - ideal", wavefronts, ideal, 0);
#endif
  }
  return wavefronts - ideal;
}

}  // namespace bankcheck
