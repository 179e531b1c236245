// The derived GF(2)-affine address map against the planned addresses
// (sim/layout/layout_access.hpp) of every lane of every instruction; maps
// that carry are reported not linear with a witness, never derived wrong.
#include "proofs/layout_linear_map.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace layout_linear_map_test {

using namespace bankcheck;
using namespace bankcheck::proofs;
using bankcheck::layout::LayoutAccessSpec;
using Status = LayoutLinearMap::Status;

namespace {

/// The map agrees with the plan on every active lane of every instruction,
/// and the active lanes are exactly 0 .. 2^lane_bits - 1.
void check_against_plan(const layout::LayoutAccess& plan, const LayoutLinearMap& map, const std::string& what) {
  INFO(what);
  REQUIRE(map.status == Status::linear);
  REQUIRE(plan.instructions.size() == (std::size_t{1} << map.instruction_bits));
  for (std::size_t i = 0; i < plan.instructions.size(); ++i)
    for (unsigned l = 0; l < layout::kLayoutWarp; ++l) {
      const bool active = plan.instructions[i].addr[l] != kInactive;
      CHECK(active == (l < (1u << map.lane_bits)));
      if (active && map.address(l, i) != plan.instructions[i].addr[l]) {
        FAIL_CHECK("instruction " << i << " lane " << l << ": map " << map.address(l, i) << ", plan "
                                  << plan.instructions[i].addr[l]);
        return;
      }
    }
}

LayoutAccessSpec spec(std::string layout, std::string type, std::string access, std::uint64_t base = 0) {
  LayoutAccessSpec s;
  s.layout = std::move(layout);
  s.element = std::move(type);
  s.access = std::move(access);
  s.base = base;
  return s;
}

}  // namespace

TEST_CASE("the map of the 128-byte swizzle, bit by bit") {
  // Sw<3,3,3> on fp16 (8,64):(64,1) with ld.128: lane bits 0-2 are column
  // bits 3-5 (16-byte vectors), lane bits 3-4 row bits 0-1; row bit r adds
  // 128 << r bytes, and the swizzle XORs row bits 0-2 into the vector's bits.
  const auto plan = layout::plan_layout_access(spec("Sw<3,3,3> o 0 o (8,64):(64,1)", "fp16", "ld.128"));
  const LayoutLinearMap m = derive_layout_linear_map(plan, 0);
  REQUIRE(m.status == Status::linear);
  CHECK(m.lane_bits == 5);
  CHECK(m.instruction_bits == 1);
  CHECK(m.constant == 0);
  REQUIRE(m.bits.size() == 6);
  CHECK(m.bits[0].column == 16);
  CHECK(m.bits[2].column == 64);
  CHECK(m.bits[3].meaning == "row bit 0");
  CHECK(m.bits[3].column == (128 | 16));  // row bit 0: +128 bytes, and swizzled into the vector's bit 0
  CHECK(m.bits[5].role == AddressBit::Role::instruction);
  CHECK(m.bits[5].column == (512 | 64));
  check_against_plan(plan, m, "Sw<3,3,3> ld.128");
}

TEST_CASE("maps of swizzles, units, tiles and accesses equal the planned addresses") {
  const std::vector<std::string> tiles = {"(8,64):(64,1)", "(64,8):(1,64)", "(8,64,4):(64,1,512)",
                                          "((8,2),(8,8)):((64,512),(1,8))", "(16,16):(16,1)", "(32,32):(1,32)"};
  const std::vector<std::string> accesses = {"ld.128", "ld.32", "st.64", "ld.16", "ldmatrix.x4", "ldmatrix.x2.trans",
                                             "stmatrix.x1", "cp.async.16", "ld.8"};
  unsigned checked = 0;
  for (const std::string& tile : tiles)
    for (int b = 0; b <= 3; ++b)
      for (int m = 0; m <= 4; ++m)
        for (int s = -4; s <= 5; ++s) {
          if (s < 0 ? -s < b : s < b) continue;
          if (b == 0 && (m != 0 || s != 0)) continue;
          const std::string sw = "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">";
          for (const std::string& form : {sw + " o 0 o " + tile, sw + " o smem_ptr[16b](unset) o " + tile})
            for (const std::string& acc : accesses) {
              layout::LayoutAccess plan;
              try {
                plan = layout::plan_layout_access(spec(form, "fp16", acc));
              } catch (const std::invalid_argument&) {
                continue;  // the access does not fit the layout (a lane's bytes not contiguous)
              }
              check_against_plan(plan, derive_layout_linear_map(plan, 0), form + " " + acc);
              ++checked;
            }
        }
  CHECK(checked > 2000);
}

TEST_CASE("a base and a composed offset whose bits stay clear XOR in") {
  for (std::uint64_t base : {0u, 1024u, 4096u}) {
    const auto plan = layout::plan_layout_access(spec("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "", "ldmatrix.x4", base));
    check_against_plan(plan, derive_layout_linear_map(plan, base), "base " + std::to_string(base));
  }
  const auto plan = layout::plan_layout_access(spec("Sw<3,3,3> o 512 o (8,64):(64,1)", "fp16", "ld.128"));
  check_against_plan(plan, derive_layout_linear_map(plan, 0), "offset 512");
}

TEST_CASE("padded rows carry: not linear, with a witness that the layout confirms") {
  for (const char* padded : {"(8,64):(72,1)", "(8,32):(40,1)", "(32,32):(33,1)", "(64,8):(1,72)"}) {
    for (const char* acc : {"ld.32", "ld.16", "ldmatrix.x4"}) {
      layout::LayoutAccess plan;
      try {
        plan = layout::plan_layout_access(spec(padded, "fp16", acc));
      } catch (const std::invalid_argument&) {
        continue;
      }
      const LayoutLinearMap m = derive_layout_linear_map(plan, 0);
      INFO(padded << " " << acc << ": " << m.reason);
      CHECK(m.status == Status::not_linear);
      CHECK(m.reason.find("carries") != std::string::npos);
      CHECK(m.bits.empty());
    }
  }
}

TEST_CASE("what is no bit field is not proven") {
  // An extent of 24 rows splits no index into bits.
  const auto plan = layout::plan_layout_access(spec("(24,64):(64,1)", "fp16", "ld.128"));
  const LayoutLinearMap m = derive_layout_linear_map(plan, 0);
  CHECK(m.status == Status::not_proven);
  CHECK(m.reason.find("not a power of two") != std::string::npos);
  // A base that meets the offsets' bits: the sum may carry, nothing claimed.
  const auto based = layout::plan_layout_access(spec("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "", "ld.128", 128));
  CHECK(derive_layout_linear_map(based, 128).status == Status::not_proven);
}

}  // namespace layout_linear_map_test
