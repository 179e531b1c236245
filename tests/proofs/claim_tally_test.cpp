// A claim's tally: points and cases counted where they lie, the first
// counterexample (lowest order) kept whatever the order of arrival, and the
// text form that carries tallies between MPI ranks merging to the sum.
#include "proofs/claim_tally.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sim/parallel/cluster.hpp"

using namespace bankcheck::proofs;

namespace {

PointResult result(std::uint64_t cases, std::uint64_t w = 0) {
  PointResult r;
  r.cases = cases;
  if (w) r.counterexample = Counterexample{{w, 1}, "at w=" + std::to_string(w), "reproduce"};
  return r;
}

}  // namespace

TEST_CASE("points and cases go where the point lies; the lowest order's counterexample is kept") {
  ClaimTally t;
  t.add(Region::within, result(3), 0, 0.5);
  t.add(Region::within, result(4, 9), 9, 0.25);
  t.add(Region::within, result(5, 2), 2, 0.25);  // earlier in (w, E) order, found later
  t.add(Region::beyond, result(7, 6), 6, 1);
  CHECK(t.points_within == 3);
  CHECK(t.cases_within == 12);
  CHECK(t.points_beyond == 1);
  CHECK(t.cases_beyond == 7);
  CHECK(t.seconds == doctest::Approx(2.0));
  REQUIRE(t.within);
  CHECK(t.within->order == 2);
  CHECK(t.within->counterexample.point.w == 2);
  REQUIRE(t.beyond);
  CHECK(t.beyond->order == 6);
}

TEST_CASE("tallies travel as text and merge to the sum, keeping the first counterexample") {
  std::vector<ClaimTally> a(2), b(2);
  a[0].add(Region::within, result(10, 5), 5, 1);
  b[0].add(Region::within, result(20, 3), 3, 2);
  b[1].add(Region::beyond, result(1), 0, 0);
  std::vector<ClaimTally> sum(2);
  merge_tallies_from_text(tallies_to_text(a), sum);
  merge_tallies_from_text(tallies_to_text(b), sum);
  CHECK(sum[0].points_within == 2);
  CHECK(sum[0].cases_within == 30);
  REQUIRE(sum[0].within);
  CHECK(sum[0].within->order == 3);
  CHECK(sum[0].within->counterexample.detail == "at w=3");
  CHECK(sum[1].points_beyond == 1);
  CHECK_FALSE(sum[1].beyond);
  std::vector<ClaimTally> e(2);
  e[0].add_error(Region::beyond, Counterexample{{4, 4}, "threw", "r"}, 4, 0);
  e[0].add_error(Region::beyond, Counterexample{{1, 1}, "threw first", "r"}, 1, 0);
  merge_tallies_from_text(tallies_to_text(e), sum);
  CHECK(sum[0].points_beyond == 2);  // an error counts as a checked point where it lies
  REQUIRE(sum[0].error);
  CHECK(sum[0].error->counterexample.detail == "threw first");
  std::vector<ClaimTally> three(3);
  CHECK_THROWS_AS(merge_tallies_from_text(tallies_to_text(a), three), std::invalid_argument);
  CHECK_THROWS_AS(merge_tallies_from_text("not json", sum), std::invalid_argument);
}

TEST_CASE("undecided points travel and merge: counted, the lowest order's kept") {
  std::vector<ClaimTally> a(1), b(1), sum(1);
  PointResult open;
  open.cases = 2;
  open.undecided = Counterexample{{9, 9}, "not reached (9)", "r"};
  a[0].add(Region::within, open, 9, 0);
  open.undecided = Counterexample{{2, 2}, "not reached (2)", "r"};
  b[0].add(Region::beyond, open, 2, 0);
  merge_tallies_from_text(tallies_to_text(a), sum);
  merge_tallies_from_text(tallies_to_text(b), sum);
  CHECK(sum[0].points_undecided == 2);
  CHECK(sum[0].points_within + sum[0].points_beyond == 2);
  REQUIRE(sum[0].undecided);
  CHECK(sum[0].undecided->counterexample.detail == "not reached (2)");
  CHECK_FALSE(sum[0].within);
}

TEST_CASE("merged over the ranks of a single process, the tallies are unchanged") {
  std::vector<ClaimTally> t(1);
  t[0].add(Region::within, result(4, 8), 8, 0);
  merge_over_ranks(bankcheck::Cluster::instance(), t);
  CHECK(t[0].points_within == 1);
  CHECK(t[0].cases_within == 4);
  REQUIRE(t[0].within);
  CHECK(t[0].within->order == 8);
}
