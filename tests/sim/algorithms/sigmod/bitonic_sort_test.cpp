#include "sim/algorithms/sigmod/bitonic_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

using namespace bankcheck;

TEST_CASE("bitonic: sorts like std::sort; 2-way exactly in the stages with j < w") {
  for (unsigned w : {4u, 8u, 32u}) {
    const auto model = make_preset("dmm", w);
    for (unsigned n : {2u, 8u, 64u, 256u, 1024u}) {
      CAPTURE(w);
      CAPTURE(n);
      std::mt19937 rng(n * 7 + w);
      std::vector<int> in(n), out(n, -1);
      for (auto& v : in) v = static_cast<int>(rng() % 50);  // duplicates included
      BitonicSort<int> sort{n, in.data(), out.data()};
      sort.validate();
      auto tally = test::tally(sort, sort.threads(), model, sort.shared_bytes());
      auto expect = in;
      std::sort(expect.begin(), expect.end());
      REQUIRE(out == expect);

      // Hand count: stage (size, j) costs 4 instructions per warp; when j < w and the warp
      // is full (n/2 >= w), the lanes' i = 2j(t/j) + t%j hit each bank exactly twice -> 1
      // conflict per instruction. Stages with j < w: for each size 2^s, min(s, log2 w) of them.
      unsigned L = 0, lw = 0;
      while ((1u << L) < n) ++L;
      while ((1u << lw) < w) ++lw;
      const unsigned warps = std::max(1u, n / 2 / w);
      std::uint64_t small_j_stages = 0;
      for (unsigned s = 1; s <= L; ++s) small_j_stages += std::min(s, lw);
      const std::uint64_t expect_conflicts = n / 2 >= w ? small_j_stages * 4 * warps : 0;
      std::uint64_t stage_conflicts = 0;
      for (auto site : {"bitonic.read_lo", "bitonic.read_hi", "bitonic.write_lo", "bitonic.write_hi"})
        stage_conflicts += tally.sites.at(site).conflicts();
      CHECK(stage_conflicts == expect_conflicts);
      CHECK(tally.total.conflicts() == stage_conflicts);  // load/out are consecutive
    }
  }
}

TEST_CASE("bitonic: n must be a power of two") {
  BitonicSort<int> s{48};
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("power of two in [2, 65536]"), std::invalid_argument);
}
