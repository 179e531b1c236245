#include "sim/algorithms/sigmod/split_histogram.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <random>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace split_histogram_test {

using namespace bankcheck;

namespace {
unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

struct Run {
  std::vector<unsigned> hist;
  test::TallyListener tally;
};
Run run(const std::vector<unsigned>& keys, unsigned threads, unsigned fanout, HistogramLayout layout,
        const BankModel& model) {
  SplitHistogram h{threads, fanout, static_cast<unsigned>(keys.size() / threads), layout, keys.data()};
  std::vector<unsigned> hist(std::size_t{threads} * fanout, 999);
  h.hist = hist.data();
  h.validate();
  auto tally = test::tally(h, threads, model, h.shared_bytes());
  // CPU reference: count each thread's chunk.
  std::vector<unsigned> expect(hist.size(), 0);
  for (unsigned t = 0; t < threads; ++t)
    for (unsigned i = 0; i < h.keys_per_thread; ++i) ++expect[(keys[t * h.keys_per_thread + i] % fanout) * threads + t];
  REQUIRE(hist == expect);
  return {hist, tally};
}
}  // namespace

TEST_CASE("split: histograms equal the CPU count; interleaved is conflict-free on any keys") {
  std::mt19937 rng(5);
  for (unsigned w : {8u, 32u})
    for (unsigned fanout : {1u, 6u, 16u, 33u}) {
      CAPTURE(w);
      CAPTURE(fanout);
      const auto model = make_preset("dmm", w);
      std::vector<unsigned> keys(64 * 8);
      for (auto& k : keys) k = rng();
      auto r = run(keys, 64, fanout, HistogramLayout::interleaved, model);
      CHECK(r.tally.total.conflicts() == 0);  // lane t is always in bank t mod w (threads = 64 is a multiple of w)
      run(keys, 64, fanout, HistogramLayout::thread_major, model);
    }
}

TEST_CASE("split: thread_major on one partition is GCD(F, w)-way") {
  // Every key in partition 0: lane t touches slot t*F, banks t*F mod w take w/g values, g each.
  for (unsigned w : {8u, 12u, 32u})
    for (unsigned fanout : {2u, 3u, 4u, 6u, 16u, 32u}) {
      CAPTURE(w);
      CAPTURE(fanout);
      const auto model = make_preset("dmm", w);
      const unsigned threads = 2 * w, per = 4;
      std::vector<unsigned> keys(threads * per, fanout * 7);  // partition 0
      auto r = run(keys, threads, fanout, HistogramLayout::thread_major, model);
      const unsigned g = gcd(fanout, w);
      const auto& rd = r.tally.sites.at("split.count_read");
      CHECK(rd.instructions == 2 * per);
      CHECK(rd.worst_degree == g);
      CHECK(rd.conflicts() == std::uint64_t{2} * per * (g - 1));
      // Zeroing walks p = 0..F-1 with the same lane pattern t*F + p.
      CHECK(r.tally.sites.at("split.zero").conflicts() == std::uint64_t{2} * fanout * (g - 1));
    }
}

TEST_CASE("split: parameters are checked") {
  SplitHistogram h;
  h.fanout = 0;
  CHECK_THROWS_WITH_AS(h.validate(), doctest::Contains("fanout must be in [1, 4096]"), std::invalid_argument);
  CHECK_THROWS_AS(parse_histogram_layout("diagonal"), std::invalid_argument);
}

}  // namespace split_histogram_test
