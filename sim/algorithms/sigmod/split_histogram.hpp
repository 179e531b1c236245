#pragma once
// Thread-level histograms of the SIGMOD 2008 split primitive (Algorithm 1,
// step 1: tHist[t][p] = tuples of thread t in partition p), kept in shared
// memory. The layout decides the banks:
//   interleaved:  tHist[t][p] at p * threads + t  (the paper's L order, step 2:
//                 "L[(p-1)*#thread + t]"); lane t always hits bank t mod w.
//   thread_major: tHist[t][p] at t * F + p; lanes t hit banks (t*F + p_t) mod w,
//                 GCD(F, w)-way when the lanes share a partition.
// Phases: 0 zero the histograms; 1 count (each thread reads its contiguous
// chunk of keys from global memory); 2 write L[p * threads + t] to global memory.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp

namespace bankcheck {

enum class HistogramLayout : int { interleaved, thread_major };

inline HistogramLayout parse_histogram_layout(std::string_view name) {
  if (name == "interleaved") return HistogramLayout::interleaved;
  if (name == "thread_major") return HistogramLayout::thread_major;
  throw std::invalid_argument("histogram layout must be interleaved or thread_major (got '" + std::string(name) +
                              "')");
}

struct SplitHistogram {
  static constexpr const char* kName = "split";
  enum Site : int { kZero, kCountRead, kCountWrite, kOut };
  static constexpr const char* kSiteNames[4] = {"zero", "count_read", "count_write", "out"};
  static constexpr int kPhases = 3;

  unsigned threads = 32;
  unsigned fanout = 16;           ///< partitions F
  unsigned keys_per_thread = 8;   ///< chunk length
  HistogramLayout layout = HistogramLayout::interleaved;
  const unsigned* keys = nullptr;  ///< threads * keys_per_thread keys; partition = key mod fanout
  unsigned* hist = nullptr;        ///< fanout * threads counts, L order: hist[p * threads + t]

  void validate() const {
    if (threads == 0 || threads > 1024)
      throw std::invalid_argument("split: threads must be in [1, 1024] (got " + std::to_string(threads) + ")");
    if (fanout == 0 || fanout > 4096)
      throw std::invalid_argument("split: fanout must be in [1, 4096] (got " + std::to_string(fanout) + ")");
    if (keys_per_thread == 0)
      throw std::invalid_argument("split: keys per thread must be >= 1 (got 0)");
  }
  BANKCHECK_HD std::size_t shared_bytes() const { return std::size_t{threads} * fanout * sizeof(unsigned); }

  BANKCHECK_HD std::size_t slot(unsigned t, unsigned p) const {
    return layout == HistogramLayout::interleaved ? std::size_t{p} * threads + t : std::size_t{t} * fanout + p;
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const unsigned t = static_cast<unsigned>(tid);
    if (k == 0) {
      for (unsigned p = 0; p < fanout; ++p) smem.template store<unsigned>(kZero, slot(t, p), 0u);
    } else if (k == 1) {
      for (unsigned i = 0; i < keys_per_thread; ++i) {
        const unsigned p = keys[std::size_t{t} * keys_per_thread + i] % fanout;
        const unsigned c = smem.template load<unsigned>(kCountRead, slot(t, p));
        smem.template store<unsigned>(kCountWrite, slot(t, p), c + 1);
      }
    } else {
      for (unsigned p = 0; p < fanout; ++p) hist[std::size_t{p} * threads + t] = smem.template load<unsigned>(kOut, slot(t, p));
    }
  }
};

static_assert(BlockAlgorithm<SplitHistogram>);

}  // namespace bankcheck
