// The lane maps of docs/layout.md, three ways: written out by hand here,
// against validate/layout/make_layout_cases.py's own evaluator (every case
// it generates for the H100), and against the ldmatrix/stmatrix probes
// already measured (validate/sm90/cases/kinds.trace): the layout route must
// give exactly the addresses those probes passed.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/layout/layout_access.hpp"
#include "sim/layout/layout_parser.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/sim/layout/probe_routes.hpp"

using namespace bankcheck;
using namespace bankcheck::layout;

namespace {

struct Lines {
  std::vector<std::uint64_t> addr, source;
  Op op = Op::load;
  unsigned width = 0;
};

/// Every record of a text trace by site.
std::map<std::string, Lines> read_sites(const std::string& path) {
  auto src = open_trace(path);
  std::map<std::string, Lines> out;
  TraceRecord r;
  while (src->next(r)) {
    Lines& l = out[src->sites().name(r.site)];
    l.addr.assign(r.request.addr.begin(), r.request.addr.end());
    l.source.assign(r.request.source.begin(), r.request.source.end());
    l.op = r.request.op;
    l.width = r.request.width;
  }
  return out;
}

LayoutAccess plan(const std::string& layout, const std::string& type, const std::string& access,
                  std::optional<unsigned> along = std::nullopt) {
  return plan_layout_access(LayoutAccessSpec{layout, type, access, along, 0});
}

}  // namespace

TEST_CASE("lane maps: ld.128 on a row-major fp16 tile, by hand") {
  const auto a = plan("(8,64):(64,1)", "fp16", "ld.128");
  REQUIRE(a.instructions.size() == 2);
  CHECK(a.along == 1);
  for (unsigned l = 0; l < 32; ++l) {
    CHECK(a.instructions[0].addr[l] == l * 16);          // vector l: row l / 8, columns (l % 8) * 8 ..
    CHECK(a.instructions[0].lanes[l].row == l / 8);
    CHECK(a.instructions[1].addr[l] == 512 + l * 16);
  }
  CHECK(a.instructions[0].site == "r0-3.c0-63");
  // a tile that is not a whole number of warps: the last instruction's extra lanes idle
  const auto p = plan("(3,64):(64,1)", "fp16", "ld.128");
  REQUIRE(p.instructions.size() == 1);
  CHECK(p.instructions[0].addr[23] == 23 * 16);
  CHECK(p.instructions[0].addr[24] == kInactive);
}

TEST_CASE("lane maps: ldmatrix takes 8x8 matrices line block outer; .x1/.x2 idle the other lanes") {
  const auto a = plan("(16,16):(16,1)", "fp16", "ldmatrix.x4");
  REQUIRE(a.instructions.size() == 1);
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned r = 0; r < 8; ++r)
      CHECK(a.instructions[0].addr[8 * j + r] == ((j / 2 * 8 + r) * 16 + j % 2 * 8) * 2u);
  const auto x1 = plan("(16,16):(16,1)", "fp16", "ldmatrix.x1.trans");
  REQUIRE(x1.instructions.size() == 4);
  CHECK(x1.instructions[1].addr[0] == 16);
  CHECK(x1.instructions[1].addr[8] == kInactive);
  CHECK(x1.instructions[1].op == Op::ldsm);
  CHECK(plan("(16,16):(16,1)", "fp16", "stmatrix.x2").instructions[0].addr[15] == 7 * 32 + 16);
}

TEST_CASE("lane maps: cp.async reads its global source coalesced, tiles one after the other") {
  const auto a = plan("(8,64,2):(64,1,512)", "fp16", "cp.async.16");
  REQUIRE(a.instructions.size() == 4);
  CHECK(a.tiles == 2);
  CHECK(a.instructions[0].op == Op::cpasync);
  CHECK(a.instructions[1].source[3] == (32 + 3) * 16u);
  CHECK(a.instructions[2].source[0] == 1024u);
  CHECK(a.instructions[2].addr[0] == 1024u);
  CHECK(a.instructions[2].site == "t1.r0-3.c0-63");
  CHECK(plan("(8,64):(64,1)", "fp16", "cp.async.cg.16").instructions[0].op == Op::cpasync_cg);
  CHECK(plan("(8,64):(64,1)", "fp16", "ld.32").instructions[0].source.empty());
}

TEST_CASE("lane maps: the vector mode is the columns, else the rows; a layout without one is refused") {
  const auto mn = plan("Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)", "", "ldmatrix.x4.trans");
  CHECK(mn.along == 0);
  CHECK(mn.element.bytes == 2);
  CHECK(plan("(32,4):(1,32)", "f32", "ld.32").along == 1);  // one element per lane: the columns
  CHECK(plan("(32,4):(1,32)", "f32", "ld.32", 0u).along == 0);
  CHECK_THROWS_WITH_AS(plan("Sw<3,2,3> o _0 o (8,64):(64,1)", "fp16", "ld.128"),
                       doctest::Contains("not 16 contiguous bytes"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(8,64):(64,1)", "fp16", "ld.128", 0u), doctest::Contains("elements (0,0)..(7,0)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(8,64):(65,1)", "fp16", "ld.64", 1u), doctest::Contains("not a multiple of 8"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(64):(1)", "fp16", "ld.32"), doctest::Contains("rank 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(8,64):(64,1)", "fp16", "ld.8"), doctest::Contains("not a whole number"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(8,64):(64,1)", "", "ld.32"), doctest::Contains("no element type"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "f32", "ld.32"),
                       doctest::Contains("smem_ptr[16b]"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(plan("(8,8):(8,1)", "fp16", "ldmatrix.x2"), doctest::Contains("not a multiple of the 2"),
                       std::invalid_argument);
}

TEST_CASE("layout access: a printed smem_ptr[Nb] gives the element type, and a --type of another width is refused") {
  // The names and their widths as docs/layout.md lists them (kElementTypeNames), one per width.
  const std::vector<std::pair<const char*, unsigned>> types = {
      {"int8", 8}, {"e4m3", 8}, {"fp16", 16}, {"bf16", 16}, {"f32", 32}, {"tf32", 32}, {"int32", 32},
      {"f64", 64}, {"int64", 64}, {"b128", 128}};
  for (const unsigned bits : {8u, 16u, 32u, 64u, 128u}) {
    // Rows of 128 bytes, read by ld.128 along the rows: a whole number of elements of every width.
    const unsigned per_row = 1024 / bits;
    const std::string tile = "(8," + std::to_string(per_row) + "):(" + std::to_string(per_row) + ",1)";
    for (const std::string& pointer : {"smem_ptr[" + std::to_string(bits) + "b](unset) o ",
                                      "Sw<3,4,3>_smem_ptr[" + std::to_string(bits) + "b](0x7f0a00000400) o "}) {
      CAPTURE(pointer);
      const auto taken = plan(pointer + tile, "", "ld.128");  // no --type: the pointer's width
      CHECK(taken.element.bytes * 8 == bits);
      for (const auto& [name, width] : types) {
        CAPTURE(name);
        if (width == bits) {
          CHECK(plan(pointer + tile, name, "ld.128").element.bytes * 8 == bits);
        } else {
          CHECK_THROWS_WITH_AS(plan(pointer + tile, name, "ld.128"),
                               doctest::Contains(doctest::String(
                                   ("contradicts the layout's smem_ptr[" + std::to_string(bits) + "b]").c_str())),
                               std::invalid_argument);
        }
      }
    }
  }
}

TEST_CASE("lane maps: the Python evaluator of validate/layout gives the same addresses for every case") {
  const std::string dir = std::string(BANKCHECK_SOURCE_DIR) + "/validate/layout/cases/";
  const auto sites = read_sites(dir + "layout.trace");
  std::ifstream in(dir + "cases.tsv");
  REQUIRE(in.good());
  std::string line;
  unsigned cases = 0, instructions = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("name\t", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, '\t');) f.push_back(cell);
    REQUIRE(f.size() == 6);
    CAPTURE(f[0]);
    const auto a = plan(f[1], f[2], f[3], static_cast<unsigned>(std::stoul(f[4])));
    REQUIRE(a.instructions.size() == std::stoul(f[5]));
    for (std::size_t k = 0; k < a.instructions.size(); ++k) {
      const auto it = sites.find(f[0] + ".i" + std::to_string(k));
      REQUIRE(it != sites.end());
      const LayoutInstruction& ins = a.instructions[k];
      CHECK(ins.op == it->second.op);
      CHECK(ins.width == it->second.width);
      CHECK(ins.addr == it->second.addr);
      CHECK(ins.source == it->second.source);
      ++instructions;
    }
    ++cases;
  }
  CHECK(cases >= 48);
  CHECK(instructions == sites.size());
}

TEST_CASE("lane maps: the layouts behind the measured ldmatrix/stmatrix probes give their addresses") {
  const auto probes = read_sites(std::string(BANKCHECK_SOURCE_DIR) + "/validate/sm90/cases/kinds.trace");
  for (const bankcheck::test::ProbeRoute& r : bankcheck::test::probe_routes()) {
    CAPTURE(r.probe);
    const auto it = probes.find(r.probe);
    REQUIRE(it != probes.end());
    const auto a = plan(r.layout, "fp16", r.access);
    CHECK(a.instructions.front().op == it->second.op);
    CHECK(a.instructions.front().addr == it->second.addr);
  }
}

TEST_CASE("lane maps: a printed smem_ptr is the base; negative strides need a base that keeps addresses non-negative") {
  LayoutAccessSpec spec;
  spec.layout = "Sw<3,4,3>_smem_ptr[16b](0x55bd18220000) o (_8,_64):(_64,_1)";
  spec.access = "ldmatrix.x4";
  const std::uint64_t base = 0x55bd18220000;
  LayoutAccess a = plan_layout_access(spec);
  CHECK(a.base == base);
  CHECK(a.element.bytes == 2);
  // Lane 1 reads row 1 of matrix 0: byte 128 of the tile, whose bit 7 the swizzle XORs into bit 4.
  CHECK(a.instructions[0].addr[0] == base);
  CHECK(a.instructions[0].addr[1] == base + 128 + 16);
  spec.base = 4096;  // contradicts the printed pointer
  CHECK_THROWS_WITH_AS(plan_layout_access(spec), doctest::Contains("contradicts the layout's printed pointer"),
                       std::invalid_argument);
  spec.base = base;  // the same value is no contradiction
  CHECK(plan_layout_access(spec).base == base);

  LayoutAccessSpec neg;
  neg.layout = "(_8,_64):(_-64,_1)";
  neg.element = "fp16";
  neg.access = "ld.128";
  CHECK_THROWS_WITH_AS(plan_layout_access(neg), doctest::Contains("give --base of at least 896"), std::invalid_argument);
  neg.base = 896;  // row 7 at 896 - 7 x 128 = 0
  a = plan_layout_access(neg);
  CHECK(a.instructions[0].addr[0] == 896);
  CHECK(a.instructions[0].addr[8] == 768);  // lane 8 starts row 1
  CHECK(a.instructions[1].addr[31] == 0 + 7 * 16);  // lane 63 = row 7, its last 16 bytes
}
