#include "proofs/claims/input_plan.hpp"

#include <doctest/doctest.h>

#include <set>
#include <vector>

using namespace bankcheck::proofs;

TEST_CASE("few inputs: every vector in odometer order, the first entry fastest") {
  const auto all = vectors_or_sample(2, -1, 1, Point{2, 1}, CheckOptions{}, {{7, 7}});
  REQUIRE(all.size() == 9);  // 3^2 <= inputs_limit: the structured ones are not needed
  CHECK(all[0] == std::vector<long>{-1, -1});
  CHECK(all[1] == std::vector<long>{0, -1});
  CHECK(all[3] == std::vector<long>{-1, 0});
  CHECK(all[8] == std::vector<long>{1, 1});
  CHECK(std::set<std::vector<long>>(all.begin(), all.end()).size() == 9);
}

TEST_CASE("many inputs: the structured ones, then a sample that depends on (seed, w, E) only") {
  CheckOptions o;
  o.inputs = 5;
  const auto a = vectors_or_sample(20, 0, 9, Point{20, 9}, o, {{std::vector<long>(20, 3)}});
  REQUIRE(a.size() == 6);
  CHECK(a[0] == std::vector<long>(20, 3));
  for (const auto& v : a)
    for (long x : v) CHECK((x >= 0 && x <= 9));
  CHECK(vectors_or_sample(20, 0, 9, Point{20, 9}, o, {{std::vector<long>(20, 3)}}) == a);
  CHECK(vectors_or_sample(20, 0, 9, Point{21, 9}, o, {{std::vector<long>(20, 3)}}) != a);
  o.seed = 2;
  CHECK(vectors_or_sample(20, 0, 9, Point{20, 9}, o, {{std::vector<long>(20, 3)}}) != a);
}

TEST_CASE("enumeration follows the mode and the limit; the plan counts what is examined") {
  CheckOptions o;
  CHECK(enumerates(4096, o));
  CHECK_FALSE(enumerates(4097, o));
  o.mode = Mode::sample;
  CHECK_FALSE(enumerates(2, o));
  CHECK(planned_inputs(2, o, 3) == o.inputs + 3);
  o.mode = Mode::exhaustive;
  CHECK(enumerates(BigCount(1) << 100, o));
  CHECK(planned_inputs(7, o, 3) == 7);
}
