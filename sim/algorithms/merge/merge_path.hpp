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

/// With a comparator (a strict weak order, as CUB's binary_pred) and any
/// signed index type I (the kernels use int inside a tile).
template <class I, class KeyAtA, class KeyAtB, class Less>
BANKCHECK_HD I merge_path(I a_count, I b_count, I diag, KeyAtA a_at, KeyAtB b_at, Less less) {
  I begin = diag > b_count ? diag - b_count : 0;
  I end = diag < a_count ? diag : a_count;
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

/// The keys' operator<.
template <class KeyAtA, class KeyAtB>
BANKCHECK_HD long merge_path(long a_count, long b_count, long diag, KeyAtA a_at, KeyAtB b_at) {
  return merge_path<long>(a_count, b_count, diag, a_at, b_at, [](const auto& x, const auto& y) { return x < y; });
}

}  // namespace bankcheck
