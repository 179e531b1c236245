// The symbolic degree (GF(2) ranks) against the enumeration of
// check_layout under the bank model, instruction by instruction: every
// Swizzle<B,M,S> in small ranges over fp16 tiles, K- and MN-major, on
// elements and on bytes, with ldmatrix/stmatrix and ld/st of every width.
// A proof must equal the enumeration; padded layouts are never proven.
#include "proofs/layout_symbolic.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace layout_symbolic_test {

using namespace bankcheck;
using namespace bankcheck::proofs;
using Status = LayoutSymbolic::Status;

namespace {

layout::LayoutAccessSpec spec(std::string layout, std::string access, std::uint64_t base = 0) {
  layout::LayoutAccessSpec s;
  s.layout = std::move(layout);
  s.element = "fp16";
  s.access = std::move(access);
  s.base = base;
  return s;
}

/// Every instruction's cost is the proof's (symbolic_disagreement, checked
/// here too by hand on the totals), and the witness's lanes meet in its bank.
void check_proof(const layout::LayoutCheck& c, const LayoutSymbolic& s, const BankModel& model, const std::string& what) {
  INFO(what << ": " << s.text());
  REQUIRE(s.status == Status::proven);
  REQUIRE(c.not_modelled == 0);
  CHECK(symbolic_disagreement(s, c) == "");
  CHECK(c.wavefronts == s.wavefronts());
  if (s.degree < 2) {
    CHECK(!s.witness);
    return;
  }
  REQUIRE(s.witness);
  const auto& w = *s.witness;
  const auto& ins = c.access.instructions.at(0);
  const unsigned banks = model.geometry().banks;
  const unsigned cell = model.geometry().bank_bytes == 0 ? ins.width : model.geometry().bank_bytes;
  // Each cell lies in its lane's access, the two are distinct and share the bank.
  for (auto [lane, cellx] : {std::pair{w.lane_a, w.cell_a}, std::pair{w.lane_b, w.cell_b}}) {
    REQUIRE(ins.addr[lane] != kInactive);
    CHECK(cellx * cell >= ins.addr[lane] / cell * cell);
    CHECK(cellx * cell < ins.addr[lane] + std::max(ins.width, cell));
  }
  CHECK(w.cell_a != w.cell_b);
  CHECK(w.cell_a % banks == w.bank);
  CHECK(w.cell_b % banks == w.bank);
}

struct Tally {
  unsigned proven = 0, conflict_free = 0, conflicting = 0, not_proven = 0;
};

/// Prove and enumerate one case; a case the access cannot cover is skipped.
void run_case(const layout::LayoutAccessSpec& sp, const BankModel& model, Tally& t) {
  layout::LayoutAccess plan;
  try {
    plan = layout::plan_layout_access(sp);
  } catch (const std::invalid_argument&) {
    return;
  }
  const LayoutSymbolic s = prove_layout_degree(plan, sp.base, model);
  const layout::LayoutCheck c = layout::check_layout(plan, model);
  const std::string what = sp.layout + " " + sp.access + " base " + std::to_string(sp.base) + " on " + model.name();
  if (s.status != Status::proven) {
    ++t.not_proven;
    CHECK_MESSAGE(!s.reason.empty(), what);
    return;
  }
  check_proof(c, s, model, what);
  ++t.proven;
  (s.degree == 1 ? t.conflict_free : t.conflicting)++;
}

std::vector<std::string> swizzles() {
  std::vector<std::string> out{"Sw<0,0,0>"};
  for (int b = 1; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = -5; s <= 5; ++s)
        if ((s < 0 ? -s : s) >= b)
          out.push_back("Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">");
  return out;
}

}  // namespace

TEST_CASE("symbolic = enumeration on sm90 for every small swizzle, ldmatrix and ld/st") {
  const BankModel sm90 = make_preset("sm90");
  const std::vector<std::string> accesses = {"ldmatrix.x4", "ldmatrix.x4.trans", "ldmatrix.x2", "stmatrix.x1",
                                             "ld.128", "ld.64", "ld.32", "ld.16", "st.128", "st.64", "st.32"};
  Tally t;
  for (const std::string& sw : swizzles())
    for (const char* tile : {"(8,64):(64,1)", "(64,8):(1,64)", "(8,64,2):(64,1,512)", "((8,2),(8,4)):((64,512),(1,8))"})
      for (const std::string& unit : {std::string(" o 0 o "), std::string(" o smem_ptr[16b](unset) o ")})
        for (const std::string& acc : accesses) run_case(spec(sw + unit + tile, acc), sm90, t);
  MESSAGE("proven " << t.proven << " (conflict-free " << t.conflict_free << ", conflicting " << t.conflicting
                    << "), not proven " << t.not_proven);
  CHECK(t.proven > 3000);
  CHECK(t.conflict_free > 300);
  CHECK(t.conflicting > 300);
}

TEST_CASE("symbolic = enumeration on the DMM (one element per cell, the whole warp)") {
  const BankModel dmm = make_preset("dmm");
  Tally t;
  for (const std::string& sw : swizzles())
    for (const char* tile : {"(8,64):(64,1)", "(64,8):(1,64)", "(32,32):(32,1)"})
      for (const char* acc : {"ld.128", "ld.32", "st.16", "ld.64"}) run_case(spec(sw + " o 0 o " + tile, acc), dmm, t);
  CHECK(t.proven > 300);
  CHECK(t.conflicting > 50);
}

TEST_CASE("the CUTLASS layouts: swizzled conflict-free, unswizzled 8-way, mis-swizzled as enumerated") {
  const BankModel sm90 = make_preset("sm90");
  const auto degree = [&](const std::string& layout, const std::string& acc) {
    const auto plan = layout::plan_layout_access(spec(layout, acc));
    const LayoutSymbolic s = prove_layout_degree(plan, 0, sm90);
    REQUIRE(s.status == Status::proven);
    return s.degree;
  };
  CHECK(degree("Sw<3,3,3> o 0 o (8,64):(64,1)", "ldmatrix.x4") == 1);
  CHECK(degree("Sw<3,3,3> o 0 o (64,8):(1,64)", "ldmatrix.x4.trans") == 1);
  CHECK(degree("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "ldmatrix.x4") == 1);
  CHECK(degree("(8,64):(64,1)", "ldmatrix.x4") == 8);
  CHECK(degree("Sw<3,4,3> o 0 o (8,64):(64,1)", "ldmatrix.x4.trans") == 2);
  CHECK(degree("Sw<2,3,3> o 0 o (8,64):(64,1)", "ldmatrix.x4") == 2);
}

TEST_CASE("padded, partial and copy forms are never proven") {
  const BankModel sm90 = make_preset("sm90");
  const auto status = [&](const std::string& layout, const std::string& acc) {
    const auto plan = layout::plan_layout_access(spec(layout, acc));
    return prove_layout_degree(plan, 0, sm90);
  };
  CHECK(status("(8,64):(72,1)", "ld.128").status == Status::not_linear);
  CHECK(status("(8,64):(72,1)", "ldmatrix.x4").status == Status::not_linear);
  CHECK(status("(64,8):(1,72)", "ldmatrix.x4.trans").status == Status::not_linear);
  CHECK(status("(24,64):(64,1)", "ld.128").status == Status::not_proven);
  const LayoutSymbolic copy = status("Sw<3,3,3> o 0 o (8,64):(64,1)", "cp.async.16");
  CHECK(copy.status == Status::not_proven);
  CHECK(copy.reason.find("rule 6") != std::string::npos);
  // Rule 3: a 16-byte load whose lanes l, l^1 read one address (stride 0) merges phases.
  const LayoutSymbolic paired = status("(8,(8,2)):(64,(1,0))", "ld.128");
  CHECK(paired.status == Status::not_proven);
  CHECK(paired.reason.find("rule 3") != std::string::npos);
}

TEST_CASE("the test sees a wrong map: the proof without its swizzle disagrees with the enumeration") {
  // What a derivation that dropped the swizzle term would prove: the same
  // access on the unswizzled layout. For some swizzled layout it must differ
  // from the enumeration, or the comparison above could not catch that bug.
  const BankModel sm90 = make_preset("sm90");
  unsigned caught = 0;
  for (const std::string& sw : swizzles())
    for (const char* acc : {"ldmatrix.x4", "ld.128", "ld.32"}) {
      layout::LayoutAccess plan;
      try {
        plan = layout::plan_layout_access(spec(sw + " o 0 o (8,64):(64,1)", acc));
      } catch (const std::invalid_argument&) {
        continue;
      }
      const layout::LayoutCheck c = layout::check_layout(plan, sm90);
      layout::LayoutAccess dropped = plan;
      dropped.layout.swizzle.reset();
      const LayoutSymbolic wrong = prove_layout_degree(dropped, 0, sm90);
      if (wrong.status == Status::proven && !symbolic_disagreement(wrong, c).empty()) ++caught;
    }
  CHECK(caught > 10);
}

}  // namespace layout_symbolic_test
