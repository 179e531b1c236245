// The grid of a claim: the default triangle E <= w, an explicit E range
// lifting it, points the hypotheses skip and warp sizes without the model's
// preset left out, the size guard, and seeded samples. Expected counts are
// recounted here by brute force over the ranges.
#include "proofs/claim_grid.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

using namespace bankcheck::proofs;

namespace {

Claim toy(Domain domain) {
  Claim c;
  c.id = "toy";
  c.domain = domain;
  c.region = [](const Point&) { return Region::within; };
  return c;
}

bool sorted_we(const std::vector<Point>& pts) {
  return std::is_sorted(pts.begin(), pts.end(),
                        [](const Point& a, const Point& b) { return a.w != b.w ? a.w < b.w : a.E < b.E; });
}

}  // namespace

TEST_CASE("ranges: A..B, single values, and bad input") {
  CHECK(parse_range("1..256", "--w").hi == 256);
  CHECK(parse_range("7", "--w").lo == 7);
  CHECK(parse_range("7", "--w").hi == 7);
  CHECK(parse_range("1048576", "--w").lo == 1048576);
  CHECK_THROWS_AS(parse_range("9..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("0..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("a..3", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("1..", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("1048577", "--w"), std::invalid_argument);
  CHECK_THROWS_AS(parse_range("", "--w"), std::invalid_argument);
}

TEST_CASE("the default grid is the claim's ranges with E <= w; an explicit E range lifts the triangle") {
  const Claim c = toy(Domain{1, 10, 1, 10});
  const ClaimGrid tri = claim_grid(c, GridRequest{}, "dmm");
  CHECK(tri.points.size() == 55);  // 10 * 11 / 2
  CHECK(tri.w.lo == 1);
  CHECK(tri.w.hi == 10);
  CHECK(sorted_we(tri.points));
  CHECK(std::all_of(tri.points.begin(), tri.points.end(), [](const Point& p) { return p.E <= p.w; }));
  GridRequest e;
  e.E = Range{1, 10};
  CHECK(claim_grid(c, e, "dmm").points.size() == 100);
  GridRequest w;  // --w alone keeps the triangle
  w.w = Range{3, 4};
  CHECK(claim_grid(c, w, "dmm").points.size() == 7);  // 3 + 4
  Claim square = toy(Domain{1, 10, 1, 10, false});
  CHECK(claim_grid(square, GridRequest{}, "").points.size() == 100);
}

TEST_CASE("points the hypotheses skip and warp sizes without the model's preset are left out") {
  Claim c = toy(Domain{1, 40, 1, 40, false});
  c.region = [](const Point& p) { return std::gcd(p.w, p.E) == 1 ? Region::within : Region::outside; };
  std::size_t coprime = 0;
  for (std::uint64_t w = 1; w <= 40; ++w)
    for (std::uint64_t E = 1; E <= 40; ++E) coprime += std::gcd(w, E) == 1;
  const ClaimGrid g = claim_grid(c, GridRequest{}, "dmm");
  CHECK(g.points.size() == coprime);
  CHECK(g.outside == 40 * 40 - coprime);  // left out, and counted
  // sm90 exists only at w = 32: of w in 30..34 only w = 32 stays.
  GridRequest r;
  r.w = Range{30, 34};
  r.E = Range{1, 2};
  const ClaimGrid sm90 = claim_grid(toy(Domain{}), r, "sm90");
  REQUIRE(sm90.points.size() == 2);
  CHECK(sm90.points[0].w == 32);
  CHECK(sm90.points[1].w == 32);
  CHECK(sm90.outside == 8);
  CHECK(claim_grid(toy(Domain{}), r, "dmm").points.size() == 10);
}

TEST_CASE("a grid over the point limit is refused unless sampled") {
  const Claim c = toy(Domain{1, 100, 1, 100, false});
  GridRequest r;
  r.point_limit = 9999;
  try {
    claim_grid(c, r, "dmm");
    FAIL("expected a refusal");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("10000 points") != std::string::npos);
  }
  r.point_limit = 10000;
  CHECK(claim_grid(c, r, "dmm").points.size() == 10000);
  r.point_limit = 9999;
  r.sample_points = 50;
  CHECK(claim_grid(c, r, "dmm").points.size() == 50);
}

TEST_CASE("a sample draws distinct points of the grid, sorted, the same for the same seed") {
  const Claim c = toy(Domain{1, 1000, 1, 1000, false});
  GridRequest r;
  r.sample_points = 200;
  r.seed = 7;
  const ClaimGrid a = claim_grid(c, r, "dmm"), b = claim_grid(c, r, "dmm");
  REQUIRE(a.points.size() == 200);
  CHECK(sorted_we(a.points));
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (const Point& p : a.points) {
    CHECK(p.w >= 1);
    CHECK(p.w <= 1000);
    CHECK(p.E >= 1);
    CHECK(p.E <= 1000);
    seen.insert({p.w, p.E});
  }
  CHECK(seen.size() == 200);
  CHECK(a.outside == 0);
  // Drawn points outside the domain are counted once each, and not returned.
  Claim half = c;
  half.region = [](const Point& p) { return p.w % 2 ? Region::outside : Region::within; };
  const ClaimGrid h = claim_grid(half, r, "dmm");
  CHECK(h.points.size() == 200);
  CHECK(h.outside > 0);
  CHECK(std::all_of(h.points.begin(), h.points.end(), [](const Point& p) { return p.w % 2 == 0; }));
  CHECK(std::equal(a.points.begin(), a.points.end(), b.points.begin(),
                   [](const Point& x, const Point& y) { return x.w == y.w && x.E == y.E; }));
  r.seed = 8;
  const ClaimGrid other = claim_grid(c, r, "dmm");
  CHECK_FALSE(std::equal(a.points.begin(), a.points.end(), other.points.begin(),
                         [](const Point& x, const Point& y) { return x.w == y.w && x.E == y.E; }));
  // A sample at least as large as the grid is the whole grid.
  r.w = Range{1, 3};
  r.E = Range{1, 3};
  CHECK(claim_grid(c, r, "dmm").points.size() == 9);
}
