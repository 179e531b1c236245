// Tests of model/request_cost.hpp: one definition of a request's cost for
// the host (64-bit counts) and the capture patch (32-bit), its conflicts
// derived from the wavefronts and the ideal and never wrapped.
#include "model/request_cost.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <type_traits>

using namespace bankcheck;

TEST_CASE_TEMPLATE("a cost's conflicts are its wavefronts less its ideal", Cost, RequestCost, sm90::WarpCost) {
  // 32 lanes on one bank in one phase: 32 wavefronts, ideal 1, 31 conflicts (docs/bank-model.md, rule 1)
  const Cost column{32, 1, 32};
  CHECK(column.conflicts() == 31);
  CHECK(column.modelled);
  const Cost free{4, 4, 1};  // a 16-byte load of 32 consecutive lanes: 4 phases, none conflicting
  CHECK(free.conflicts() == 0);
  const Cost declined{0, 0, 0, false};
  CHECK(declined.conflicts() == 0);
  CHECK_FALSE(declined.modelled);
  // a rule that gave fewer wavefronts than the ideal is a bug, never 2^N - 1 conflicts
  const Cost broken{1, 2, 1};
  CHECK_THROWS_AS(static_cast<void>(broken.conflicts()), CostInvariantError);
}

TEST_CASE("the host's and the device's costs are one template, their counts 64 and 32 bits wide") {
  static_assert(std::is_same_v<RequestCost, BasicCost<std::uint64_t>>);
  static_assert(std::is_same_v<sm90::WarpCost, BasicCost<std::uint32_t>>);
  const RequestCost big{std::numeric_limits<std::uint64_t>::max(), 1, 1};
  CHECK(big.conflicts() == std::numeric_limits<std::uint64_t>::max() - 1);
}
