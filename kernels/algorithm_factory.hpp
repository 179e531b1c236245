#pragma once
// AlgorithmFactory: how a kernel program hands a BlockAlgorithm
// (sim/algorithms/block_algorithm.hpp) to the launcher (kernels/block_kernel.cuh)
// and, for the same blocks, to the CPU recorder (kernels/capture_trace.cuh):
//   struct F { ...pointers...; BANKCHECK_HD Algo operator()(unsigned block) const; };
// The factory is copied to the device as a kernel argument, so it must be
// trivially copyable; block b's global-memory pointers live in the Algo it
// returns, and the host and device factories differ only in those pointers.
#include <type_traits>

#include "sim/algorithms/block_algorithm.hpp"

namespace bankcheck::kernels {

template <class F>
concept AlgorithmFactory = std::is_trivially_copyable_v<F> && requires(const F& factory, unsigned block) {
  { factory(block) } -> BlockAlgorithm;
};

/// The algorithm type a factory builds.
template <AlgorithmFactory F>
using FactoryAlgorithm = std::invoke_result_t<const F&, unsigned>;

}  // namespace bankcheck::kernels
