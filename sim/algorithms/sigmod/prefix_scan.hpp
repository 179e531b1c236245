#pragma once
// Work-efficient exclusive prefix sum in shared memory (Blelloch's
// up-sweep/down-sweep, as in GPU Gems 3 ch. 39, the scan of the SIGMOD 2008
// split primitive step 3). n elements, n/2 threads, one barrier between
// tree levels. With padding on, element i is stored at i + i / banks
// (GPU Gems' CONFLICT_FREE_OFFSET): at stride 2^d >= banks the unpadded
// tree hits one bank with every lane.
//
// Phases: 0 load; 1..L up-sweep levels (L = log2 n); L+1 clear the root;
// L+2..2L+1 down-sweep levels; 2L+2 write out.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp, model/power_of_two.hpp

namespace bankcheck {

template <class T = int>
struct PrefixScan {
  static constexpr const char* kName = "scan";
  enum Site : int { kLoadA, kLoadB, kUpA, kUpB, kUpWrite, kClear, kDownA, kDownB, kDownWriteA, kDownWriteB, kOutA, kOutB };
  static constexpr const char* kSiteNames[12] = {"load_a", "load_b", "up_read_a", "up_read_b", "up_write", "clear",
                                               "down_read_a", "down_read_b", "down_write_a", "down_write_b",
                                               "out_read_a", "out_read_b"};

  unsigned n = 64;         ///< elements, a power of two >= 2
  unsigned pad_banks = 0;  ///< 0: no padding; else insert one slot every pad_banks elements
  const T* in = nullptr;
  T* out = nullptr;        ///< out[i] = in[0] + ... + in[i-1]

  /// @throws std::invalid_argument: n a power of two in [2, 2^20]; pad_banks 0 or >= 1.
  void validate() const {
    if (n < 2 || n > (1u << 20) || !is_power_of_two(n))
      throw std::invalid_argument("scan: n must be a power of two in [2, 1048576] (got " + std::to_string(n) + ")");
  }
  BANKCHECK_HD unsigned levels() const {
    unsigned l = 0;
    while ((1u << l) < n) ++l;
    return l;
  }
  BANKCHECK_HD int phases() const { return static_cast<int>(2 * levels() + 3); }
  BANKCHECK_HD unsigned threads() const { return n / 2; }
  BANKCHECK_HD std::size_t slots() const { return n + (pad_banks ? n / pad_banks : 0); }
  BANKCHECK_HD std::size_t shared_bytes() const { return slots() * sizeof(T); }

  BANKCHECK_HD std::size_t slot(std::size_t i) const { return pad_banks ? i + i / pad_banks : i; }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const unsigned L = levels();
    const unsigned t = static_cast<unsigned>(tid);
    const unsigned p = static_cast<unsigned>(k);
    if (p == 0) {
      smem.template store<T>(kLoadA, slot(t), in[t]);
      smem.template store<T>(kLoadB, slot(t + n / 2), in[t + n / 2]);
    } else if (p <= L) {
      // Up-sweep level p: offset 2^(p-1), d = n / 2^p active threads.
      const std::size_t offset = std::size_t{1} << (p - 1), d = n >> p;
      if (t < d) {
        const std::size_t ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        const T a = smem.template load<T>(kUpA, slot(ai));
        const T b = smem.template load<T>(kUpB, slot(bi));
        smem.template store<T>(kUpWrite, slot(bi), a + b);
      }
    } else if (p == L + 1) {
      if (t == 0) smem.template store<T>(kClear, slot(n - 1), T{});
    } else if (p <= 2 * L + 1) {
      // Down-sweep level: d = 1, 2, 4, ... active threads, offset n / (2d).
      const unsigned level = p - (L + 2);
      const std::size_t d = std::size_t{1} << level, offset = n / (2 * d);
      if (t < d) {
        const std::size_t ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        const T a = smem.template load<T>(kDownA, slot(ai));
        const T b = smem.template load<T>(kDownB, slot(bi));
        smem.template store<T>(kDownWriteA, slot(ai), b);
        smem.template store<T>(kDownWriteB, slot(bi), a + b);
      }
    } else {
      out[t] = smem.template load<T>(kOutA, slot(t));
      out[t + n / 2] = smem.template load<T>(kOutB, slot(t + n / 2));
    }
  }
};

static_assert(BlockAlgorithm<PrefixScan<int>>);

}  // namespace bankcheck
