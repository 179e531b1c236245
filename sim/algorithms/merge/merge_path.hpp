#pragma once
// Merge-path partition (Odeh et al.; CUB's MergePath in
// cub/block/block_merge_sort.cuh): the number of elements of A among the
// first `diag` elements of the stable merge of sorted A and B (ties taken
// from A first).
//
// @pre 0 <= diag <= a_count + b_count; a_at(i) (0 <= i < a_count) and
//      b_at(j) (0 <= j < b_count) return the i-th / j-th key; both sorted by `less`.
// @post with s = result: max(0, diag - b_count) <= s <= min(diag, a_count), and
//       A[0..s) ∪ B[0..diag-s) are the diag smallest elements of the stable merge.
// Each probe reads A[mid] then B[diag-1-mid], as CUB does; through a
// recording accessor these are the two shared-memory sites of the search.
#include "model/hd.hpp"
#include "sim/algorithms/select.hpp"

namespace bankcheck {

/// The range the split at `diag` lies in: [max(0, diag - b_count), min(diag, a_count)].
template <class I>
BANKCHECK_HD void merge_path_range(I a_count, I b_count, I diag, I& begin, I& end) {
  begin = diag > b_count ? diag - b_count : 0;
  end = diag < a_count ? diag : a_count;
}

/// With a comparator (a strict weak order, as CUB's binary_pred) and any
/// signed index type I (the kernels use int inside a tile).
template <class I, class KeyAtA, class KeyAtB, class Less>
BANKCHECK_HD I merge_path(I a_count, I b_count, I diag, KeyAtA a_at, KeyAtB b_at, Less less) {
  I begin, end;
  merge_path_range(a_count, b_count, diag, begin, end);
  while (begin < end) {
    const I mid = begin + (end - begin) / 2;
    const auto key_a = a_at(mid);
    const auto key_b = b_at(diag - 1 - mid);
    const bool left = less(key_b, key_a);  // branch-free on the host (sim/algorithms/select.hpp)
    end = select<I>(left, mid, end);
    begin = select<I>(left, begin, mid + 1);
  }
  return begin;
}

/// A merge-path search that probes kProbes positions at once, for a warp
/// (kernels/cf_warp_partition.cuh: the lanes probe, a ballot narrows): each step
/// cuts [begin, end) to one of kProbes + 1 pieces, so a range of 2^23 keys
/// takes 5 dependent steps instead of binary search's 23, which is what a
/// search in global memory waits on. Same predicate, same result as merge_path.
template <int kProbes>
struct MergePathWide {
  static_assert(kProbes >= 1 && kProbes <= 31, "probes: a mask of at most 31 bits");
  /// Probe j (0 <= j < kProbes) of [begin, end), begin < end: non-decreasing in j, in [begin, end).
  template <class I>
  BANKCHECK_HD static I probe(I begin, I end, int j) {
    return begin + static_cast<I>((end - begin) * (j + 1) / (kProbes + 1));
  }
  /// The step: `left` has bit j set iff probe j's A key goes after its B key
  /// (less(B[diag - 1 - p], A[p])); the bits are monotone, so the first set one
  /// is kProbes minus their count. [begin, end) becomes the piece holding the
  /// first such position (end when there is none).
  template <class I>
  BANKCHECK_HD static void narrow(I& begin, I& end, unsigned left) {
    const int k = kProbes - popcount(left);
    const I next_begin = k == 0 ? begin : probe(begin, end, k - 1) + 1;
    const I next_end = k == kProbes ? end : probe(begin, end, k);
    begin = next_begin;
    end = next_end;
  }
  BANKCHECK_HD static int popcount(unsigned x) {
#if defined(__CUDA_ARCH__)
    return __popc(x);
#else
    return __builtin_popcount(x);
#endif
  }
  /// The whole search with the probes taken one after another (the host's
  /// stand-in for the warp; the tests hold it to merge_path).
  template <class I, class KeyAtA, class KeyAtB, class Less>
  BANKCHECK_HD static I search(I a_count, I b_count, I diag, KeyAtA a_at, KeyAtB b_at, Less less) {
    I begin, end;
    merge_path_range(a_count, b_count, diag, begin, end);
    while (begin < end) {
      unsigned left = 0;
      for (int j = 0; j < kProbes; ++j) {
        const I p = probe(begin, end, j);
        if (less(b_at(diag - 1 - p), a_at(p))) left |= 1u << j;
      }
      narrow(begin, end, left);
    }
    return begin;
  }
};

/// The keys' operator<.
template <class KeyAtA, class KeyAtB>
BANKCHECK_HD long merge_path(long a_count, long b_count, long diag, KeyAtA a_at, KeyAtB b_at) {
  return merge_path<long>(a_count, b_count, diag, a_at, b_at, [](const auto& x, const auto& y) { return x < y; });
}

}  // namespace bankcheck
