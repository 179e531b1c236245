#include <doctest/doctest.h>

#include "sim/layout/layout_explanation.hpp"

using namespace bankcheck;
using namespace bankcheck::layout;

TEST_CASE("explanation: the phase of the culprit lanes and each lane's element, bytes and banks") {
  const auto a = plan_layout_access(LayoutAccessSpec{"(8,64):(64,1)", "fp16", "ldmatrix.x4", {}, 0});
  CHECK(phase_of(a, 0, {8, 9}) == std::pair<unsigned, unsigned>{8, 15});
  const auto lines = explain_conflict(a, make_preset("sm90").geometry(), 0, {0, 1}, 0);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("lanes 0-7 form one phase (matrix 0 of ldmatrix.x4)") != std::string::npos);
  CHECK(lines[2] == "  lane 1  element (1,0)  bytes 128-143  banks 0-3");
  const auto ld = plan_layout_access(LayoutAccessSpec{"(8,64):(64,1)", "fp16", "ld.64", {}, 0});
  CHECK(phase_of(ld, 0, {3}) == std::pair<unsigned, unsigned>{0, 15});     // 8-byte: half warps
  CHECK(phase_of(ld, 0, {3, 20}) == std::pair<unsigned, unsigned>{0, 31});  // paired: the whole warp
  const auto d = describe_access(a);
  REQUIRE(d.size() == 3);
  CHECK(d[0] == "layout (8,64):(64,1)");
  CHECK(d[2].find("ldmatrix.x4 (trace op ldsm 16)") != std::string::npos);
}
