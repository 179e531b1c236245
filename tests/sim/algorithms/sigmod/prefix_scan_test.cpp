#include "sim/algorithms/sigmod/prefix_scan.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace prefix_scan_test {

using namespace bankcheck;

namespace {
struct Result {
  std::vector<int> out;
  test::TallyListener tally;
};
Result run(unsigned n, unsigned pad, const BankModel& model, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int> in(n), out(n, -1);
  for (auto& v : in) v = static_cast<int>(rng() % 100);
  PrefixScan<int> scan{n, pad, in.data(), out.data()};
  scan.validate();
  auto t = test::tally(scan, scan.threads(), model, scan.shared_bytes());
  // CPU reference: exclusive scan.
  int sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    REQUIRE(out[i] == sum);
    sum += in[i];
  }
  return {out, t};
}
unsigned log2u(unsigned x) {
  unsigned l = 0;
  while ((1u << l) < x) ++l;
  return l;
}
}  // namespace

TEST_CASE("scan: exclusive sums equal the CPU reference") {
  const auto model = make_preset("dmm", 32);
  for (unsigned n : {2u, 4u, 64u, 256u, 2048u})
    for (unsigned pad : {0u, 32u}) run(n, pad, model, n + pad);
}

TEST_CASE("scan: n = 2w, hand-counted conflicts") {
  // One warp of w lanes. Unpadded: every up-sweep level with >= 2 active lanes
  // (log2 w levels) is 2-way on its 3 sites, every down-sweep level with >= 2 lanes
  // (log2 w levels) 2-way on its 4 sites: 7 log2 w conflicts. Padded by i / w:
  // worked by hand for w = 32 and w = 4 (every level's slots fall in distinct banks).
  for (unsigned w : {4u, 8u, 16u, 32u}) {
    CAPTURE(w);
    const auto model = make_preset("dmm", w);
    auto plain = run(2 * w, 0, model, w);
    CHECK(plain.tally.total.conflicts() == 7 * log2u(w));
    CHECK(plain.tally.total.worst_degree == 2);
    CHECK(plain.tally.sites.at("scan.load_a").conflicts() == 0);
    auto padded = run(2 * w, w, model, w);
    CHECK(padded.tally.total.conflicts() == 0);
  }
}

TEST_CASE("scan: padding removes the deep levels' w-way conflicts") {
  // n = 2048, w = 32: at up-sweep level p >= 6 the unpadded slots offset*(2t+1)-1 with
  // offset >= 32 all sit in bank 31 (degree = active lanes of the warp, up to 32).
  const auto model = make_preset("dmm", 32);
  auto plain = run(2048, 0, model, 1);
  auto padded = run(2048, 32, model, 1);
  CHECK(plain.tally.total.worst_degree == 32);
  CHECK(padded.tally.total.worst_degree <= 2);
  CHECK(padded.tally.total.conflicts() * 4 < plain.tally.total.conflicts());
  MESSAGE("n=2048 w=32 conflicts: plain " << plain.tally.total.conflicts() << ", padded "
                                          << padded.tally.total.conflicts());
}

TEST_CASE("scan: n must be a power of two") {
  for (unsigned n : {0u, 1u, 3u, 96u}) {
    PrefixScan<int> s{n};
    CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("power of two"), std::invalid_argument);
  }
}

}  // namespace prefix_scan_test
