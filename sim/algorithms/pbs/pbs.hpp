#pragma once
// Batched predecessor search in shared memory, HiPC 2015 (Karsin, Casanova,
// Sitchinava, "Efficient batched predecessor search in shared memory on GPUs"):
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
// PBS-CF and PBS-CL as printed give wrong predecessors for queries below a
// lane's offset and for K not a power of two (docs/formula-findings.md, item
// 7). PbsVariant::cf_corrected / cl_corrected keep both stages' access
// pattern but make stage 1 a complete search: lane ℓ with offset r owns the
// windows [g_m, g_m + w), g_m = r - w + m·w, m = 0..M, M = ⌊(K-1-r)/w⌋ + 1;
// they tile [r - w, ...) and so hold every answer -1..K-1 (window 0 lies in
// the -inf padding up to index r - 1). Stage 1 is a binary search for the
// largest m with K[g_m] <= q (g_0 is padding, so K[g_0] <= q holds): every
// probe of lane ℓ is ≡ r (mod w), so distinct lanes stay in distinct banks
// (conflict free, as IV-B argues for Algorithm 2), and it needs no window
// check. Stage 2 is the printed one (w-key scan / binary lifting) on the
// window found; the answer is the last key <= q in it. Any K >= 1 works.
//
// Answer convention: the predecessor index, the largest i with K[i] <= q, or
// -1 when q < K[0] (equal to std::upper_bound(K, q) - K - 1).
#include <cstdint>
#include <limits>

#include "model/hd.hpp"
#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/select.hpp"

namespace bankcheck {

/// pbs: Algorithm 1; cf, cl: Algorithms 2+3 / IV-C as printed; cf_corrected,
/// cl_corrected: the same stage 2 after a complete stage-1 search (above).
enum class PbsVariant { pbs, cf, cl, cf_corrected, cl_corrected };

/// Whether V is a PBS-CL variant (stage 2 = binary search of the window).
constexpr bool pbs_is_cl(PbsVariant v) { return v == PbsVariant::cl || v == PbsVariant::cl_corrected; }

/// One block of batched predecessor search.
/// Phase 0 stores the padded keys (coalesced, thread t stores t, t+u, ...);
/// phase 1+j searches query j*threads + tid of the block's query array.
template <class Key, PbsVariant V>
struct PbsSearch {
  static constexpr const char* kName = V == PbsVariant::pbs ? "pbs" : pbs_is_cl(V) ? "pbs-cl" : "pbs-cf";
  enum Site : int { store_keys, probe, final_check, window_check, scan, binary };
  static constexpr const char* kSiteNames[6] = {"store_keys", "probe", "final_check", "window_check", "scan",
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

  /// ceil(log2 n), 0 for n <= 1: model/power_of_two.hpp's log2_ceil for
  /// this header's signed sizes.
  static BANKCHECK_HD int ceil_log2(long n) {
    return static_cast<int>(log2_ceil(n <= 1 ? 1 : static_cast<std::uint64_t>(n)));
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
        const bool right = q >= key(smem, probe, index);
        const long up = index + delta < K - 1 ? index + delta : K - 1;
        const long down = index - delta > 0 ? index - delta : 0;
        index = select<long>(right, up, down);
        delta = (delta + 1) / 2;
      }
      return index - static_cast<long>(q < key(smem, final_check, index));
    } else if constexpr (V == PbsVariant::cf_corrected || V == PbsVariant::cl_corrected) {
      // Stage 1, corrected (header comment): largest m in [0, M] with K[g_m] <= q.
      const long r = (static_cast<long>(offset_stride) * (tid % w)) % w;
      const long M = (K - 1 - r + w) / w;
      long m = 0, len = M + 1;
      while (len > 1) {
        const long half = len / 2;
        m += select<long>(key(smem, probe, r - w + (m + half) * w) <= q, half, 0);
        len -= half;
      }
      return window_search(r - w + m * w, q, smem);  // K[g_m] <= q < K[g_m + w]
    } else {
      // Algorithm 2 (stage 1), comparison as in Algorithm 1.
      const long offset = (static_cast<long>(offset_stride) * (tid % w)) % w;
      long index = K / 2 + offset;
      long delta = (K + 3) / 4;
      delta -= delta % w;
      while (delta >= w) {
        index += select<long>(q >= key(smem, probe, index), delta, -delta);
        delta = delta == w ? 0 : (delta + 1) / 2;  // a step of w is the last: at w = 1, (1 + 1) / 2 repeats it forever
        delta -= delta % w;
      }
      // Algorithm 3's first step: the predecessor is in [index, index + w).
      index -= select<long>(q < key(smem, window_check, index), w, 0);
      return window_search(index, q, smem);
    }
  }

  /// Stage 2 on the window [index, index + w): the last i with K[index + i] <= q.
  /// PBS-CF: Algorithm 3's w-key scan; PBS-CL: binary lifting (IV-C), which
  /// assumes K[index] <= q.
  template <class Smem>
  BANKCHECK_HD long window_search(long index, Key q, const Smem& smem) const {
    if constexpr (!pbs_is_cl(V)) {
      long result = index - 1;  // stays only if the window misses (the tests would catch it)
      for (int i = 0; i < w; ++i) result = select<long>(key(smem, scan, index + i) <= q, index + i, result);
      return result;
    } else {
      long j = 0;
      long d = 1;
      while (2 * d < w) d *= 2;  // largest power of two below w (w/2 for w a power of two)
      for (; d >= 1 && w > 1; d /= 2)
        if (j + d < w) j += select<long>(key(smem, binary, index + j + d) <= q, d, 0);
      return index + j;
    }
  }
};

static_assert(BlockAlgorithm<PbsSearch<std::int32_t, PbsVariant::pbs>>);
static_assert(BlockAlgorithm<PbsSearch<std::int64_t, PbsVariant::cl_corrected>>);

}  // namespace bankcheck
