#pragma once
// The toy pattern of SPAA 2025 Figure 1: thread t of a block reads element
// t * stride. With w banks the warp is conflict-free iff GCD(stride, w) = 1
// (SPAA 2025 Lemma 1); otherwise GCD(stride, w) lanes share each bank.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "model/hd.hpp"
#include "sim/algorithms/block_algorithm.hpp"

namespace bankcheck {

struct StridedAccess {
  static constexpr const char* kName = "strided";
  enum Site : int { kRead };
  static constexpr const char* kSiteNames[1] = {"read"};
  static constexpr int kPhases = 1;

  unsigned threads = 32;
  unsigned stride = 1;
  int* out = nullptr;  ///< optional: out[t] = value read by thread t

  /// @throws std::invalid_argument unless threads >= 1 and stride >= 1.
  void validate() const {
    if (threads == 0) throw std::invalid_argument("strided: threads must be >= 1 (got 0)");
    if (stride == 0) throw std::invalid_argument("strided: stride must be >= 1 (got 0)");
  }
  /// Elements of shared memory the block uses.
  BANKCHECK_HD std::size_t elements() const { return std::size_t{threads - 1} * stride + 1; }
  BANKCHECK_HD std::size_t shared_bytes() const { return elements() * sizeof(int); }

  template <class Smem>
  BANKCHECK_HD void phase(int /*k*/, int tid, Smem& smem) const {
    const int v = smem.template load<int>(kRead, static_cast<std::size_t>(tid) * stride);
    if (out) out[tid] = v;
  }
};

static_assert(BlockAlgorithm<StridedAccess>);

}  // namespace bankcheck
