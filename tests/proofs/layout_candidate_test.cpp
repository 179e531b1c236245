// Candidates are planned and costed by the checker; a map that would split
// a lane's vector is refused, padding costs its bytes.
#include "proofs/layout_candidate.hpp"

#include <doctest/doctest.h>

namespace layout_candidate_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

TEST_CASE("candidate: padding's footprint and cost, an XOR map inside a vector refused") {
  const BankModel model = make_preset("sm90", 32);
  TileAccesses t;
  t.rows = 32, t.cols = 32, t.element = layout::parse_element_type("f32");
  t.accesses.push_back({layout::parse_access_kind("ld.32"), 0u, 3, "ld.32,along=0,weight=3"});
  LayoutCandidate c;
  c.family = LayoutCandidate::Family::padded;
  c.layout.layout = plain_layout(32, 32, true, 1);
  CandidateCost k = cost_candidate(c, t, model);
  REQUIRE(k.feasible);
  CHECK(k.checks[0].wavefronts == 32);    // stride 33 words: a column in 32 banks
  CHECK(k.weighted == 3 * 32);
  CHECK(k.footprint == (31 * 33 + 32) * 4);
  CHECK(c.simplicity() == 1);
  // ld.128 moves 16 bytes: a map whose lowest target is bit 3 would split them.
  t.accesses[0] = {layout::parse_access_kind("ld.128"), 1u, 1, "ld.128"};
  c.family = LayoutCandidate::Family::xor_map;
  c.layout.layout = plain_layout(32, 32, true);
  c.map = XorAddressMap{{XorTerm{3, 1u << 7}}};
  k = cost_candidate(c, t, model);
  CHECK(!k.feasible);
  CHECK(k.why.find("inside the 16 bytes") != std::string::npos);
  c.map = XorAddressMap{{XorTerm{4, 1u << 7}}};
  CHECK(cost_candidate(c, t, model).feasible);
}

}  // namespace layout_candidate_test
