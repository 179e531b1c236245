// Tests of sim/replay/cost_totals.hpp: checked sums, the kernel-level
// counter's share of the wavefronts, and the conflicts derived from the
// wavefronts and the ideal. Expected counts by hand from the costs added.
#include "sim/replay/cost_totals.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>

#include "model/cost_invariants.hpp"

using namespace bankcheck;

TEST_CASE("cost totals: sums throw instead of wrapping") {
  const RequestCost two{2, 1, 2};
  CostTotals t;
  t.wavefronts = std::numeric_limits<std::uint64_t>::max() - 1;
  t.add(4, RequestCost{1, 1, 1});  // reaches exactly 2^64-1: fine
  CHECK(t.wavefronts == std::numeric_limits<std::uint64_t>::max());
  CHECK_THROWS_AS(t.add(4, two), std::overflow_error);
  CostTotals lanes;
  lanes.lane_accesses = std::numeric_limits<std::uint64_t>::max() - 3;
  CHECK_THROWS_AS(lanes.add(4, two), std::overflow_error);
}

TEST_CASE("cost totals: the kernel counter's wavefronts stay within [ideal, wavefronts] and add up") {
  const RequestCost paired{4, 1, 4};  // a paired 8-byte load: 2 + 2 per instruction, 2 on the kernel counter
  CostTotals t;
  t.add_with_kernel_counter(32, paired, 2, 3);
  CHECK(t.wavefronts == 12);
  CHECK(t.fewer_on_kernel_counter == 6);
  CostTotals sum;
  sum += t;
  sum += t;
  CHECK(sum.fewer_on_kernel_counter == 12);
  CHECK_THROWS_AS(t.add_with_kernel_counter(32, paired, 5), std::logic_error);  // more than per instruction
  CHECK_THROWS_AS(t.add_with_kernel_counter(32, paired, 0), std::logic_error);  // fewer than the ideal
  CHECK(t.fewer_on_kernel_counter == 6);  // a refused instruction adds nothing
}

TEST_CASE("cost totals: conflicts are wavefronts - ideal after every add and +=, and totals below the ideal are refused") {
  CostTotals t;
  CHECK(t.conflicts() == 0);
  t.add(32, RequestCost{4, 1, 4});  // 4-way: 3 conflicts
  CHECK(t.conflicts() == 3);
  t.add(32, RequestCost{2, 2, 1}, 5);  // 5 times two wavefronts without a conflict
  CHECK(t.wavefronts == 14);
  CHECK(t.ideal == 11);
  CHECK(t.conflicts() == 3);
  t.add(32, RequestCost{3, 1, 3}, 4);  // 4 times 2 conflicts
  CHECK(t.conflicts() == 11);
  CostTotals sum = t;
  sum += t;
  CHECK(sum.wavefronts == 52);
  CHECK(sum.ideal == 30);
  CHECK(sum.conflicts() == 22);
  CostTotals k;  // 3 paired loads: 4 wavefronts each, 2 on the kernel counter, ideal 1
  k.add_with_kernel_counter(32, RequestCost{4, 1, 4}, 2, 3);
  CHECK(k.conflicts() == 9);
  CHECK(k.kernel_counter_wavefronts() == 6);
  CHECK(k.kernel_counter_conflicts() == 3);

  // A cost with fewer wavefronts than its ideal is a model bug: refused before anything is added.
  const CostTotals before = t;
  CHECK_THROWS_AS(t.add(32, RequestCost{1, 2, 1}), CostInvariantError);
  CHECK_THROWS_AS(t.add(32, RequestCost{1, 2, 1}, 3), CostInvariantError);
  CHECK(t == before);
  // Totals written by hand below their ideal never give wrapped conflicts, nor add into others.
  CostTotals below;
  below.wavefronts = 1;
  below.ideal = 2;
  CHECK_THROWS_AS(below.conflicts(), CostInvariantError);
  CHECK_THROWS_AS(sum += below, CostInvariantError);
  CHECK(sum.wavefronts == 52);
  CHECK(sum.instructions == 2 * t.instructions);
  // More kernel-counter savings than conflicts would be fewer kernel wavefronts than the ideal.
  CostTotals saved = k;
  saved.fewer_on_kernel_counter = 10;
  CHECK_THROWS_AS(saved.kernel_counter_conflicts(), CostInvariantError);
}
