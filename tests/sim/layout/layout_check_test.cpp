// Counts of the layout checker against sources that are not the model:
// bank counting written out here for 4-byte accesses (one phase on the H100:
// the most distinct words one bank serves), the padded-transpose gcd rule,
// the H100's own counts of the ldmatrix/stmatrix probes
// (validate/sm90/measured/kinds.csv), and for ldmatrix and 16-byte stores
// the measured phase rules of docs/bank-model.md counted by hand (a matrix,
// a quarter warp: the most distinct words one bank serves).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "sim/layout/layout_check.hpp"
#include "tests/support/sm90_measured.hpp"
#include "tests/sim/layout/probe_routes.hpp"

using namespace bankcheck;
using namespace bankcheck::layout;

namespace {

const BankModel& sm90() {
  static const BankModel m = make_preset("sm90");
  return m;
}

LayoutCheck check(const std::string& layout, const std::string& type, const std::string& access,
                  std::optional<unsigned> along = std::nullopt) {
  return check_layout(LayoutAccessSpec{layout, type, access, along, 0}, sm90());
}

/// The most distinct 4-byte words one of 32 banks serves to lanes [first, first + n) of an instruction.
std::uint64_t degree(const LayoutInstruction& ins, unsigned first, unsigned n) {
  std::map<std::uint64_t, std::set<std::uint64_t>> words;
  for (unsigned l = first; l < first + n; ++l) {
    if (ins.addr[l] == kInactive) continue;
    for (std::uint64_t b = ins.addr[l]; b < ins.addr[l] + ins.width; b += 4) words[b / 4 % 32].insert(b / 4);
  }
  std::uint64_t d = 0;
  for (const auto& [bank, w] : words) d = std::max<std::uint64_t>(d, w.size());
  return d;
}

/// Hand-counted wavefronts of an instruction made of phases of `n` lanes.
std::uint64_t phased(const LayoutInstruction& ins, unsigned n) {
  std::uint64_t w = 0;
  for (unsigned first = 0; first < 32; first += n) w += degree(ins, first, n);
  return w;
}

}  // namespace

TEST_CASE("check: 4-byte loads and stores of any strided fp32 tile, counted bank by bank") {
  for (std::int64_t row_stride : {1, 2, 4, 8, 16, 31, 32, 33, 34, 40, 48, 64, 96}) {
    for (unsigned along : {0u, 1u}) {
      for (const char* access : {"ld.32", "st.32"}) {
        const std::string layout = "(32,8):(" + std::to_string(row_stride) + ",32)";
        CAPTURE(layout);
        CAPTURE(along);
        const LayoutCheck c = check(layout, "f32", access, along);
        std::uint64_t wavefronts = 0;
        for (std::size_t i = 0; i < c.costs.size(); ++i) {
          REQUIRE(c.costs[i].modelled);
          CHECK(c.costs[i].wavefronts == degree(c.access.instructions[i], 0, 32));
          wavefronts += c.costs[i].wavefronts;
        }
        CHECK(c.wavefronts == wavefronts);
        CHECK(c.ideal == c.costs.size());
        CHECK(c.conflicts == c.wavefronts - c.ideal);
      }
    }
  }
}

TEST_CASE("check: a column of a padded fp32 transpose costs gcd(row stride, 32) per warp") {
  for (std::uint64_t s = 1; s <= 80; ++s) {
    CAPTURE(s);
    const LayoutCheck c = check("(32,4):(" + std::to_string(s) + ",1)", "f32", "ld.32", 0u);
    REQUIRE(c.costs.size() == 4);
    for (const RequestCost& cost : c.costs) CHECK(cost.wavefronts == std::gcd(s, std::uint64_t{32}));
  }
  // the XOR transpose: column c of row r at c ^ r, conflict-free down a column
  CHECK(check("Sw<5,0,5> o _0 o (_32,_4):(_32,_1)", "f32", "ld.32", 0u).conflict_free());
}

TEST_CASE("check: the measured ldmatrix/stmatrix probes, reached through their layouts") {
  auto measured = test::measured_wavefronts(std::string(BANKCHECK_SOURCE_DIR) + "/validate/sm90/measured/kinds.csv");
  for (const bankcheck::test::ProbeRoute& r : bankcheck::test::probe_routes()) {
    CAPTURE(r.probe);
    REQUIRE(measured.count(r.probe));
    const LayoutCheck c = check(r.layout, "fp16", r.access);
    CHECK(c.costs.front().wavefronts == measured[r.probe]);
  }
}

TEST_CASE("check: the CUTLASS issue class on fp16 tiles, counted by hand per phase") {
  for (const char* layout : {"Sw<3,3,4> o _0 o (_16,_64):(_64,_1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
                             "Sw<2,3,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_16,_64):(_64,_1)",
                             "Sw<3,4,3> o smem_ptr[16b](unset) o (_16,_64):(_64,_1)", "(_16,_64):(_64,_1)",
                             "(_16,_64):(_72,_1)"}) {
    CAPTURE(layout);
    for (const char* access : {"ldmatrix.x4", "ldmatrix.x4.trans", "stmatrix.x4"}) {
      const LayoutCheck c = check(layout, "fp16", access);
      for (std::size_t i = 0; i < c.costs.size(); ++i) CHECK(c.costs[i].wavefronts == phased(c.access.instructions[i], 8));
    }
    // 16-byte stores: quarter-warp phases (rule 2)
    const LayoutCheck st = check(layout, "fp16", "st.128");
    for (std::size_t i = 0; i < st.costs.size(); ++i) CHECK(st.costs[i].wavefronts == phased(st.access.instructions[i], 8));
  }
  // the numbers the issue asks about: 2-way for Sw<3,3,4>, Sw<3,4,3> on element offsets and Sw<2,3,3>
  CHECK(check("Sw<3,3,4> o _0 o (_16,_64):(_64,_1)", "fp16", "ldmatrix.x4").worst_degree == 2);
  CHECK(check("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "fp16", "ldmatrix.x4.trans").worst_degree == 2);
  CHECK(check("Sw<2,3,3> o _0 o (_8,_64):(_64,_1)", "fp16", "ldmatrix.x4").worst_degree == 2);
  CHECK(check("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)", "fp16", "ldmatrix.x4").conflict_free());
}

TEST_CASE("check: totals and the worst instruction") {
  const LayoutCheck c = check("(8,64):(64,1)", "fp16", "ldmatrix.x4");
  CHECK(c.instructions == 2);
  CHECK(c.wavefronts == 64);
  CHECK(c.ideal == 8);
  CHECK(c.conflicts == 56);
  CHECK(c.worst == std::size_t{0});
  CHECK(!c.conflict_free());
  CHECK(!check("Sw<3,3,3> o _0 o (8,64):(64,1)", "fp16", "ldmatrix.x4").worst);
  CHECK_THROWS_AS(check_layout(LayoutAccessSpec{"(8,64):(64,1)", "fp16", "ld.32", {}, 0}, make_preset("dmm", 16)),
                  std::invalid_argument);
}

TEST_CASE("check: every instruction of the 71 layout cases measured on the H100") {
  // validate/layout/cases/cases.tsv (the layout x access cases)
  // against validate/layout/measured.csv (ncu per instruction, H100,
  // 2026-11-27): each instruction's wavefronts as the hardware counted them.
  const std::string dir = std::string(BANKCHECK_SOURCE_DIR) + "/validate/layout/";
  auto measured = test::measured_wavefronts(dir + "measured.csv");
  std::ifstream cases(dir + "cases/cases.tsv");
  REQUIRE(cases.good());
  std::size_t compared = 0, case_count = 0;
  for (std::string line; std::getline(cases, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("name\t", 0) == 0) continue;
    std::stringstream row(line);
    std::string name, layout, type, access, along, count;
    std::getline(row, name, '\t');
    std::getline(row, layout, '\t');
    std::getline(row, type, '\t');
    std::getline(row, access, '\t');
    std::getline(row, along, '\t');
    std::getline(row, count, '\t');
    CAPTURE(name);
    const LayoutCheck c =
        check(layout, type, access, along.empty() ? std::nullopt : std::optional<unsigned>(std::stoul(along)));
    REQUIRE(c.costs.size() == std::stoull(count));
    ++case_count;
    for (std::size_t i = 0; i < c.costs.size(); ++i) {
      const std::string site = name + ".i" + std::to_string(i);
      CAPTURE(site);
      REQUIRE(measured.count(site));
      CHECK(c.costs[i].wavefronts == measured[site]);
      ++compared;
    }
  }
  CHECK(case_count == 71);
  CHECK(compared == measured.size());
}
