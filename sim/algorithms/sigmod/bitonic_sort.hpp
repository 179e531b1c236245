#pragma once
// Bitonic sort of n keys in shared memory (Batcher's network; the SIGMOD 2008
// joins sort chunks this way "entirely in the local memory", Sec. 3.2).
// n/2 threads; in stage (k, j) thread t compares i = 2j*(t div j) + t mod j
// with i + j. When j < w the warp's i's cover 2w consecutive slots with a
// gap pattern that puts exactly two lanes in each bank (2-way); j >= w is
// conflict-free (consecutive i's).
// Phases: 0 load; then one per stage (k = 2, 4, .., n; j = k/2, .., 1); last writes out.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp, model/power_of_two.hpp

namespace bankcheck {

template <class T = int>
struct BitonicSort {
  static constexpr const char* kName = "bitonic";
  enum Site : int { kLoadA, kLoadB, kReadLo, kReadHi, kWriteLo, kWriteHi, kOutA, kOutB };
  static constexpr const char* kSiteNames[8] = {"load_a", "load_b", "read_lo", "read_hi",
                                               "write_lo", "write_hi", "out_a", "out_b"};

  unsigned n = 64;  ///< keys, a power of two in [2, 2^16]
  const T* in = nullptr;
  T* out = nullptr;  ///< ascending

  void validate() const {
    if (n < 2 || n > (1u << 16) || !is_power_of_two(n))
      throw std::invalid_argument("bitonic: n must be a power of two in [2, 65536] (got " + std::to_string(n) + ")");
  }
  BANKCHECK_HD unsigned levels() const {
    unsigned l = 0;
    while ((1u << l) < n) ++l;
    return l;
  }
  BANKCHECK_HD unsigned stages() const { return levels() * (levels() + 1) / 2; }
  BANKCHECK_HD int phases() const { return static_cast<int>(stages() + 2); }
  BANKCHECK_HD unsigned threads() const { return n / 2; }
  BANKCHECK_HD std::size_t shared_bytes() const { return std::size_t{n} * sizeof(T); }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const unsigned t = static_cast<unsigned>(tid);
    const unsigned p = static_cast<unsigned>(k);
    if (p == 0) {
      smem.template store<T>(kLoadA, t, in[t]);
      smem.template store<T>(kLoadB, t + n / 2, in[t + n / 2]);
      return;
    }
    if (p == stages() + 1) {
      out[t] = smem.template load<T>(kOutA, t);
      out[t + n / 2] = smem.template load<T>(kOutB, t + n / 2);
      return;
    }
    // Stage number p-1 -> (size, j): sizes 2, 4, ..; for size 2^s, j runs 2^(s-1) .. 1.
    unsigned stage = p - 1, s = 1;
    while (stage >= s) {
      stage -= s;
      ++s;
    }
    const unsigned size = 1u << s, j = size >> (stage + 1);
    const unsigned i = 2 * j * (t / j) + t % j, l = i + j;
    const bool ascending = (i & size) == 0;
    const T a = smem.template load<T>(kReadLo, i);
    const T b = smem.template load<T>(kReadHi, l);
    // Every thread writes both slots (no divergent store sites).
    const bool swap = ascending ? (b < a) : (a < b);
    smem.template store<T>(kWriteLo, i, swap ? b : a);
    smem.template store<T>(kWriteHi, l, swap ? a : b);
  }
};

static_assert(BlockAlgorithm<BitonicSort<int>>);

}  // namespace bankcheck
