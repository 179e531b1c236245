#pragma once
// Batched predecessor search in shared memory, HiPC 2015 (Karsin, Casanova,
// Sitchinava, "Efficient batched predecessor search in shared memory on GPUs",
// /work/shared/papers/hipc2015-batched-predecessor-search.txt):
//   PBS     Algorithm 1: binary search with δ = ⌈K/4⌉, ⌈log K⌉ probes, final check.
//   PBS-CF  Algorithm 2 (stage 1: δ rounded down to a multiple of w, each lane
//           starting `offset = threadID mod w` keys to the right) then
//           Algorithm 3 (stage 2: a window check and a w-key linear scan).
//   PBS-CL  stage 1 of PBS-CF, Algorithm 3's window check, then a binary
//           search of the w-key window (Section IV-C).
// Keys live in shared memory padded with w copies of -inf in front and w of
// +inf behind (Section IV-B), so bank(K[i]) = i mod w is kept; queries and
// answers live in host ("global") arrays, which are not traced.
//
// Deviations from the printed pseudo-code, each checked by the tests:
//  * Algorithm 2 prints `if K[index] >= q then index = index + δ`; that walks
//    away from the query. We use the comparison of Algorithm 1 (q >= K[index]
//    moves right); docs/formula-findings.md.
//  * PBS keeps Algorithm 1's min/max clamps to [0, K-1] (the padding then only
//    preserves the bank mapping).
//  * PBS-CL's window search is the usual binary lifting over [index, index+w):
//    step d = w/2, w/4, ..., 1 (the largest power of two below w first when w
//    is not a power of two), probing K[index+j+d].
//
// Answer convention: the predecessor index, the largest i with K[i] <= q, or
// -1 when q < K[0] (equal to std::upper_bound(K, q) - K - 1).
#include <cstdint>
#include <limits>

#include "sim/hd.hpp"

namespace bankcheck {

enum class PbsVariant { pbs, cf, cl };

/// One block of batched predecessor search.
/// Phase 0 stores the padded keys (coalesced, thread t stores t, t+u, ...);
/// phase 1+j searches query j*threads + tid of the block's query array.
template <class Key, PbsVariant V>
struct PbsSearch {
  static constexpr const char* kName = V == PbsVariant::pbs ? "pbs" : V == PbsVariant::cf ? "pbs-cf" : "pbs-cl";
  enum Site : int { store_keys, probe, final_check, window_check, scan, binary };
  static constexpr const char* kSiteNames[] = {"store_keys", "probe", "final_check", "window_check", "scan",
                                               "binary"};

  int w = 32;                ///< warp size = banks (DMM)
  long K = 0;                ///< keys, without padding
  int threads = 0;           ///< threads per block
  int per_thread = 1;        ///< queries per thread (one phase each)
  long valid = 0;            ///< queries of this block (the last block may be partial)
  int offset_stride = 1;     ///< PBS-CF/CL lane offset = (offset_stride * (tid mod w)) mod w; 1 = paper
  const Key* keys = nullptr;      ///< K sorted keys (host)
  const Key* queries = nullptr;   ///< this block's queries (host)
  long* answers = nullptr;        ///< this block's answers (host)

  BANKCHECK_HD int phases() const { return 1 + per_thread; }
  /// Shared memory the block needs, in bytes.
  BANKCHECK_HD long shared_bytes() const { return (K + 2L * w) * static_cast<long>(sizeof(Key)); }

  static BANKCHECK_HD int ceil_log2(long n) {
    int r = 0;
    while ((1L << r) < n) ++r;
    return r;
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    if (k == 0) {
      const long padded = K + 2L * w;
      for (long i = tid; i < padded; i += threads) {
        const Key v = i < w ? std::numeric_limits<Key>::lowest()
                            : i >= K + w ? std::numeric_limits<Key>::max() : keys[i - w];
        smem.template store<Key>(store_keys, i, v);
      }
      return;
    }
    const long slot = static_cast<long>(k - 1) * threads + tid;
    if (slot >= valid) return;
    answers[slot] = search(tid, queries[slot], smem);
  }

  /// K[index] in padded shared memory.
  template <class Smem>
  BANKCHECK_HD Key key(const Smem& smem, int site, long index) const {
    return smem.template load<Key>(site, static_cast<unsigned long>(index + w));
  }

  template <class Smem>
  BANKCHECK_HD long search(int tid, Key q, const Smem& smem) const {
    if constexpr (V == PbsVariant::pbs) {
      // Algorithm 1.
      long index = K / 2;
      long delta = (K + 3) / 4;
      const int rounds = ceil_log2(K);
      for (int r = 0; r < rounds; ++r) {
        if (q >= key(smem, probe, index))
          index = index + delta < K - 1 ? index + delta : K - 1;
        else
          index = index - delta > 0 ? index - delta : 0;
        delta = (delta + 1) / 2;
      }
      if (q < key(smem, final_check, index)) index -= 1;
      return index;
    } else {
      // Algorithm 2 (stage 1), comparison as in Algorithm 1.
      const long offset = (static_cast<long>(offset_stride) * (tid % w)) % w;
      long index = K / 2 + offset;
      long delta = (K + 3) / 4;
      delta -= delta % w;
      while (delta >= w) {
        if (q >= key(smem, probe, index))
          index += delta;
        else
          index -= delta;
        delta = (delta + 1) / 2;
        delta -= delta % w;
      }
      // Algorithm 3's first step: the predecessor is in [index, index + w).
      if (q < key(smem, window_check, index)) index -= w;
      if constexpr (V == PbsVariant::cf) {
        long result = index - 1;  // stays only if the window misses (the tests would catch it)
        for (int i = 0; i < w; ++i)
          if (key(smem, scan, index + i) <= q) result = index + i;
        return result;
      } else {
        long j = 0;
        long d = 1;
        while (2 * d < w) d *= 2;  // largest power of two below w (w/2 for w a power of two)
        for (; d >= 1 && w > 1; d /= 2)
          if (j + d < w && key(smem, binary, index + j + d) <= q) j += d;
        return index + j;
      }
    }
  }
};

}  // namespace bankcheck
