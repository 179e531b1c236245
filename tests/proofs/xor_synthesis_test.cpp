// The XOR maps built from phase spaces: the transpose's column reads get
// their row bits spread over the banks by construction alone, before any
// descent, and the counts are the checker's.
#include "proofs/xor_synthesis.hpp"

#include <doctest/doctest.h>

namespace xor_synthesis_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

namespace {
TileAccesses transpose() {
  TileAccesses t;
  t.rows = 32, t.cols = 32, t.element = layout::parse_element_type("f32");
  t.accesses.push_back({layout::parse_access_kind("st.32"), 1u, 1, "st.32"});
  t.accesses.push_back({layout::parse_access_kind("ld.32"), 0u, 1, "ld.32,along=0"});
  return t;
}
}  // namespace

TEST_CASE("xor synthesis: the 32x32 fp32 transpose, conflict-free from the phase spaces alone") {
  const BankModel model = make_preset("sm90", 32);
  const TileAccesses t = transpose();
  LayoutCandidate plain;
  plain.layout.layout = plain_layout(32, 32, true);
  const XorSynthesis x = synthesize_xor_maps(plain, t, model);
  CHECK(x.skipped.empty());
  CHECK(x.targets == 5);  // byte bits 2-6: the banks (4-byte vectors)
  CHECK(x.sources == 5);  // byte bits 7-11: the rows
  REQUIRE(!x.candidates.empty());
  const LayoutCandidate& constructed = x.candidates.front();
  // Every target bit takes a different row bit: a column's 32 words then lie in 32 banks.
  CHECK(constructed.map.terms.size() == 5);
  const CandidateCost k = cost_candidate(constructed, t, model);
  REQUIRE(k.feasible);
  CHECK(k.checks[0].wavefronts == 32);
  CHECK(k.checks[1].wavefronts == 32);
  CHECK(k.checks[1].conflicts == 0);
  // Without the map the column reads are 32-way.
  CHECK(cost_candidate(plain, t, model).checks[1].wavefronts == 32 * 32);
}

TEST_CASE("xor synthesis: nothing to build where 16-byte vectors leave no bank bit above them over 128-byte rows") {
  TileAccesses t;
  t.rows = 1, t.cols = 32, t.element = layout::parse_element_type("f32");  // 128 bytes: no bit above the banks
  t.accesses.push_back({layout::parse_access_kind("ld.128"), 1u, 1, "ld.128"});
  LayoutCandidate plain;
  plain.layout.layout = plain_layout(1, 32, true);
  const XorSynthesis x = synthesize_xor_maps(plain, t, make_preset("sm90", 32));
  CHECK(x.candidates.empty());
  CHECK(!x.skipped.empty());
}

}  // namespace xor_synthesis_test
