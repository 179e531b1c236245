#include "proofs/claims/pbs_runs.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace bankcheck::proofs;

TEST_CASE("predecessors over the keys 0..K-1, by hand") {
  CHECK(predecessor(8, -1) == -1);
  CHECK(predecessor(8, 0) == 0);
  CHECK(predecessor(8, 5) == 5);
  CHECK(predecessor(8, 8) == 7);  // above the last key
  CHECK(wrong_answer(8, {-1, 8}, {-1, 7}).empty());
  CHECK(wrong_answer(8, {-1, 8}, {0, 7}) == "lane 0 answers 0 for query -1 (predecessor -1)");
}

TEST_CASE("Corollary 4.1's queries K[iK/w + C], by hand; its region") {
  CHECK(corollary_queries(4, 16, 0) == std::vector<int>{0, 4, 8, 12});
  CHECK(corollary_queries(4, 32, 3) == std::vector<int>{3, 11, 19, 27});
  CHECK(corollary_region({4, 32}) == Region::within);
  CHECK(corollary_region({4, 48}) == Region::beyond);  // K = 0 mod w^2 but not a power of two
  CHECK(corollary_region({4, 8}) == Region::outside);     // K < w^2
}

TEST_CASE("PBS on Corollary 4.1's queries: probe round i costs min(2^(i-1), w) (w = 4, K = 64)") {
  const auto run = run_pbs<int, bankcheck::PbsVariant::pbs>(4, 64, corollary_queries(4, 64, 0),
                                                              bankcheck::make_preset("dmm", 4));
  const auto deg = probe_degrees(run.rows);
  REQUIRE(deg.size() >= 4);
  CHECK(deg[0] == 1);
  CHECK(deg[1] == 2);
  CHECK(deg[2] == 4);
  CHECK(deg[3] == 4);
  CHECK(run.answers == std::vector<long>{0, 16, 32, 48});
}

TEST_CASE("query sets: all (K+2)^w when few, else 3 structured plus the sample") {
  CHECK(pbs_inputs({2, 3}, CheckOptions{}).size() == 25);
  CHECK(pbs_exhaustive({2, 3}) == 25);
  CheckOptions o;
  o.inputs = 10;
  CHECK(pbs_inputs({8, 100}, o).size() == 13);
  CHECK(pbs_planned({8, 100}, o, 1) == 14);
}
