#include "proofs/claims/priced_run.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace bankcheck::proofs;

namespace {
// Each lane reads word stride * lane once: GCD(stride, w)-way on w banks.
struct Strided {
  static constexpr const char* kName = "toy";
  static constexpr const char* kSiteNames[] = {"read"};
  static constexpr int kPhases = 1;
  unsigned stride = 1;
  unsigned threads = 16;
  std::size_t shared_bytes() const { return 4 * 8 * 8; }
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    (void)smem.template load<unsigned>(0, static_cast<std::size_t>(tid) * stride);
  }
};
}  // namespace

TEST_CASE("price_block prices each warp instruction with the model") {
  const auto model = bankcheck::make_preset("dmm", 8);
  for (unsigned stride : {1u, 2u, 4u, 3u}) {
    const auto rows = price_block(Strided{stride}, 4 * 8 * 8, 16, 8, model);
    REQUIRE(rows.size() == 2);  // two warps, one instruction each
    const unsigned way = stride == 3 ? 1 : stride;
    CHECK(rows[0].cost.degree == way);
    CHECK(rows[1].warp == 1);
    CHECK(rows[1].cost.conflicts() == way - 1);
  }
}

TEST_CASE("list_text") {
  CHECK(list_text(std::vector<int>{}).empty());
  CHECK(list_text(std::vector<int>{-1, 2, 30}) == "-1,2,30");
}
