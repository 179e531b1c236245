#pragma once
// BlockAlgorithm: what one thread block of a single-source algorithm must
// provide so that the CPU recorder (sim/algorithms/block_recorder.hpp, and so
// the registry and the claims), the CUDA launcher (kernels/block_kernel.cuh)
// and the capture build all run the same code (docs/algorithms.md,
// "single-source accessor design"; docs/extending.md walks through one):
//
//   struct Algo {
//     static constexpr const char* kName = "toy";                // sites are reported as "toy.<site>"
//     static constexpr const char* kSiteNames[2] = {"a", "b"};    // site ids index this, 1..65535 of them
//     static constexpr int kPhases = 2;                          // or: BANKCHECK_HD int phases() const
//     BANKCHECK_HD unsigned threads() const;                     // or a data member `threads`
//     BANKCHECK_HD std::size_t shared_bytes() const;             // the block's shared memory
//     template <class Smem> BANKCHECK_HD void phase(int k, int tid, Smem& smem) const;
//   };
//
// phase(k, tid, smem) is thread tid's work between barriers k-1 and k; it
// reaches shared memory only through smem (SharedArray on the device,
// RecordingArray on the host: sim/algorithms/shared_accessor.hpp). The two
// spellings of the phase and thread counts are both accepted because a
// count is sometimes fixed (kPhases) and sometimes a field the caller sets
// (PbsSearch::threads); block_phases() and block_threads() read either.
#include <concepts>
#include <cstddef>
#include <iterator>

#include "model/hd.hpp"
#include "model/power_of_two.hpp"  // for the algorithm headers, which run on the device too
#include "sim/algorithms/shared_accessor.hpp"

namespace bankcheck {

namespace detail {

template <class A>
concept PhaseCountFunction = requires(const A& a) {
  { a.phases() } -> std::convertible_to<int>;
};
template <class A>
concept PhaseCountConstant = requires {
  { A::kPhases } -> std::convertible_to<int>;
};
template <class A>
concept ThreadCountFunction = requires(const A& a) {
  { a.threads() } -> std::convertible_to<unsigned>;
};
template <class A>
concept ThreadCountMember = requires(const A& a) {
  { a.threads } -> std::convertible_to<unsigned>;
};

}  // namespace detail

/// The single-source block protocol above. Site ids are stored in 16 bits
/// (AccessTag, kernels/capture_trace.cuh's CaptureRecord), hence at most
/// 65535 sites. kSiteNames carries its bound (kSiteNames[N]): in a class
/// template, GCC 13 does not deduce `[]` from the initializer when the
/// constraint is checked (seen with nvcc 13.0's host compiler).
template <class A>
concept BlockAlgorithm =
    requires(const A& a, int k, int tid, RecordingArray& host_smem, SharedArray& device_smem) {
      { A::kName } -> std::convertible_to<const char*>;
      { A::kSiteNames[0] } -> std::convertible_to<const char*>;
      { a.shared_bytes() } -> std::convertible_to<std::size_t>;
      a.phase(k, tid, host_smem);
      a.phase(k, tid, device_smem);
    } &&
    (detail::PhaseCountFunction<A> || detail::PhaseCountConstant<A>) &&
    (detail::ThreadCountFunction<A> || detail::ThreadCountMember<A>) &&
    std::size(A::kSiteNames) >= 1 && std::size(A::kSiteNames) <= 65535 &&
    A::kSiteNames[std::size(A::kSiteNames) - 1] != nullptr;  // a bound larger than the names leaves nullptr

/// Number of phases (barrier-separated steps) of a.
template <BlockAlgorithm A>
BANKCHECK_HD constexpr int block_phases(const A& a) {
  if constexpr (detail::PhaseCountFunction<A>)
    return static_cast<int>(a.phases());
  else
    return static_cast<int>(A::kPhases);
}

/// Threads of a's block.
template <BlockAlgorithm A>
BANKCHECK_HD constexpr unsigned block_threads(const A& a) {
  if constexpr (detail::ThreadCountFunction<A>)
    return static_cast<unsigned>(a.threads());
  else
    return static_cast<unsigned>(a.threads);
}

/// Number of sites of A.
template <BlockAlgorithm A>
constexpr std::size_t block_site_count() {
  return std::size(A::kSiteNames);
}

}  // namespace bankcheck
