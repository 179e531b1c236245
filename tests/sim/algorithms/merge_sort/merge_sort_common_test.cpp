// sim/algorithms/merge_sort/merge_sort_common.hpp: the pieces both merge-sort
// kernels share, against hand computations and std::sort.
#include "sim/algorithms/merge_sort/merge_sort_common.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>

using namespace bankcheck;

TEST_CASE("odd_even_transposition_sort sorts every permutation of 6 keys (E rounds suffice)") {
  std::array<int, 6> p = {0, 1, 2, 3, 4, 5};
  int permutations = 0;
  do {
    int keys[6];
    std::copy(p.begin(), p.end(), keys);
    odd_even_transposition_sort(keys);
    CHECK(std::is_sorted(std::begin(keys), std::end(keys)));
    ++permutations;
  } while (std::next_permutation(p.begin(), p.end()));
  CHECK(permutations == 720);
  int one[1] = {7};
  odd_even_transposition_sort(one);
  CHECK(one[0] == 7);
}

TEST_CASE("shared-memory plan by hand: two 128-byte-aligned buffers of T+1 keys, then u+1 splits") {
  // u = 256, E = 17, 4-byte keys: T = 4352; (4353 * 4 = 17412 bytes) rounds up to 137 * 128 = 17536.
  const MergeSortSmemPlan plan{256L * 17, 256, 4};
  CHECK(plan.buffer_bytes() == 17536);
  CHECK(plan.splits_offset() == 2 * 17536);
  CHECK(plan.total_bytes() == 2 * 17536 + 257 * 4);
  MergeSortCommon<std::int32_t, 17> c;
  c.set_shape(32, 256);
  CHECK(c.shared_bytes() == plan.total_bytes());
  CHECK(c.tile() == 4352);
}

TEST_CASE("set_shape records d = gcd(w, E); 16-byte blocked accesses only when E*sizeof(Key) is a multiple of 16") {
  MergeSortCommon<std::int32_t, 15> a;
  a.set_shape(32, 512);
  CHECK(a.gcd_wE == 1);
  MergeSortCommon<std::int32_t, 16> b;
  b.set_shape(32, 256);
  CHECK(b.gcd_wE == 16);
  MergeSortCommon<std::int32_t, 12> c;
  c.set_shape(9, 18);
  CHECK(c.gcd_wE == 3);
  CHECK(MergeSortCommon<std::int32_t, 16>::kVectorBlocked);   // 64 bytes per thread
  CHECK(!MergeSortCommon<std::int32_t, 17>::kVectorBlocked);  // 68 bytes
  CHECK(MergeSortCommon<std::int64_t, 2>::kVectorBlocked);    // 16 bytes
}
