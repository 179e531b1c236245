// cf_register_sort against std::sort: every 0/1 input of 16 items (the 0-1
// principle: a comparator network that sorts them sorts everything), random
// keys with many ties at E = 32 and 64 with values that must stay with their
// keys, and the network's size against Batcher's count.
#include "sim/algorithms/merge/cf_register_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

using namespace bankcheck;

namespace cf_register_sort_test {

template <int kE>
void check_random(std::mt19937& rng, int range) {
  int keys[kE];
  int vals[kE];
  std::vector<std::pair<int, int>> expected;
  for (int i = 0; i < kE; ++i) {
    keys[i] = static_cast<int>(rng() % static_cast<unsigned>(range));
    vals[i] = 1000 * keys[i] + i;  // a value names its key
    expected.push_back({keys[i], vals[i]});
  }
  cf_register_sort(keys, vals, [](int a, int b) { return a < b; });
  std::sort(expected.begin(), expected.end());
  std::vector<std::pair<int, int>> got;
  for (int i = 0; i < kE; ++i) {
    if (i > 0) REQUIRE(keys[i - 1] <= keys[i]);
    REQUIRE(vals[i] / 1000 == keys[i]);
    got.push_back({keys[i], vals[i]});
  }
  std::sort(got.begin(), got.end());
  CHECK(got == expected);
}

}  // namespace cf_register_sort_test

TEST_CASE("cf_register_sort sorts every 0/1 input of 16 items") {
  for (unsigned bits = 0; bits < (1u << 16); ++bits) {
    int keys[16];
    CfNoValue none[16];
    int ones = 0;
    for (int i = 0; i < 16; ++i) ones += keys[i] = static_cast<int>((bits >> i) & 1u);
    cf_register_sort(keys, none, [](int a, int b) { return a < b; });
    for (int i = 0; i < 16; ++i) REQUIRE(keys[i] == (i >= 16 - ones ? 1 : 0));
  }
}

TEST_CASE("cf_register_sort: random keys with ties, values stay with their keys") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    cf_register_sort_test::check_random<32>(rng, 1 + trial % 40);
    cf_register_sort_test::check_random<64>(rng, 1 + trial % 70);
    cf_register_sort_test::check_random<2>(rng, 3);
    cf_register_sort_test::check_random<1>(rng, 3);
  }
}

TEST_CASE("cf_register_sort's network: Batcher's size, every comparator low to high") {
  // E/2 * log2 E * (log2 E + 1) / 2: 240 at E = 32 (CUB's odd-even transposition sort takes 496)
  CHECK(cf_sort_plan<32>().count == 240);
  CHECK(cf_sort_plan<16>().count == 80);
  CHECK(cf_sort_plan<2>().count == 1);
  CHECK(cf_sort_plan<1>().count == 0);
  constexpr auto plan = cf_sort_plan<32>();
  for (int i = 0; i < plan.count; ++i) CHECK(plan.ops[i].lo < plan.ops[i].hi);
  CHECK(cf_register_sort_fits(32));
  CHECK_FALSE(cf_register_sort_fits(17));
}
