// Tests of capture/host/summary/summary_results.hpp: summary rows become the
// results schema, one site per instruction added up over launches, with
// the unmodelled executions counted apart, the SASS joined, sites ordered
// by conflicts, and the worst record named by bank and lanes; a worst
// record that the CPU costs differently is reported.
#include "capture/host/summary/summary_results.hpp"

#include <doctest/doctest.h>

using namespace bankcheck;
using namespace bankcheck::capture;

namespace {

InstructionSummary row(std::uint64_t launch, const std::string& site, std::uint64_t executions, std::uint64_t wavefronts,
                       std::uint64_t ideal) {
  InstructionSummary r;
  r.launch = launch;
  r.site = site;
  r.executions = executions;
  r.lanes = 32 * executions;
  r.costs = CostColumn{0, 0, wavefronts, ideal, 1};
  return r;
}

WorstRecord column_conflict() {  // 32 lanes in bank 0: 32 wavefronts, 31 of them conflicts
  WorstRecord w;
  w.block = {7, 0, 0};
  w.warp = 3;
  w.mask = ~0u;
  for (unsigned l = 0; l < 32; ++l) w.addr[l] = 128 * l;
  w.wavefronts = 32;
  w.excess = 31;
  return w;
}

}  // namespace

TEST_CASE("summary rows as results: instructions added up over launches, ordered by conflicts") {
  std::vector<InstructionSummary> rows = {row(0, "k+0x10", 4, 4, 4), row(0, "k+0x20", 2, 64, 2),
                                          row(1, "k+0x10", 6, 6, 6)};
  rows[1].costs.degree = 32;
  rows[1].worst = column_conflict();
  InstructionSummary twelve = row(1, "k+0x30", 3, 0, 0);
  twelve.width = 12;
  twelve.costs.unmodelled = 3;
  twelve.costs.unmodelled_lanes = 96;
  rows.push_back(twelve);
  const auto sass_of = [](const std::string& site) { return site == "k+0x20" ? std::string("LDS R0, [R1]") : ""; };
  const report::Results r = summary_results(rows, make_preset("sm90"), sass_of, "OUT");
  CHECK(r.command == "capture");
  REQUIRE(r.sites.size() == 3);
  CHECK(r.sites[0].site == "k+0x20");
  CHECK(r.sites[0].sass == "LDS R0, [R1]");
  CHECK(r.sites[0].totals.conflicts() == 62);
  CHECK(r.sites[0].totals.worst_degree == 32);
  CHECK(r.sites[1].site == "k+0x10");
  CHECK(r.sites[1].totals.instructions == 10);
  CHECK(r.sites[1].totals.lane_accesses == 320);
  CHECK(r.sites[2].totals.instructions == 0);
  CHECK(r.sites[2].unmodelled.at("ld 12").instructions == 3);
  CHECK(r.unmodelled.at("ld 12").lane_accesses == 96);
  CHECK(r.totals.wavefronts == 74);
  CHECK(r.totals.ideal == 12);
  CHECK(r.totals.conflicts() == 62);
  REQUIRE(r.worst);
  CHECK(r.worst->site == "k+0x20");
  CHECK(r.worst->location == "launch 0 block 7,0,0 warp 3");
  CHECK(r.worst->bank == 0);
  CHECK(r.worst->lanes.size() == 32);
  CHECK(r.extra["worst_record_disagreements"] == 0);
  CHECK(r.notes.empty());
  CHECK_FALSE(r.sites[0].source);  // no sass.csv: nothing said
  // With sass.csv's line info: each site's, and the worst conflict's.
  const auto source_of = [](const std::string& site) {
    return site == "k+0x20" ? report::SourceLine{report::FileLine{"k.cu", 9}, {}} : report::SourceLine{};
  };
  const report::Results lines = summary_results(rows, make_preset("sm90"), sass_of, "OUT", source_of);
  CHECK(report::source_text(*lines.sites[0].source) == "k.cu:9");
  CHECK(report::source_text(*lines.sites[1].source) == "no line info");
  CHECK(report::source_text(*lines.worst->source) == "k.cu:9");
}

TEST_CASE("a worst record the CPU costs differently is reported") {
  std::vector<InstructionSummary> rows = {row(0, "k+0x20", 1, 32, 1)};
  rows[0].worst = column_conflict();
  rows[0].worst->excess = 30;  // what a drifted device rule would say
  const report::Results r = summary_results(rows, make_preset("sm90"), {}, "OUT");
  CHECK(r.extra["worst_record_disagreements"] == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("cannot be trusted") != std::string::npos);
}

TEST_CASE("a copy's worst record is costed on the CPU with its sources") {
  // Probe cgsrc-32-rows64-0 (validate/sm90/probes/cases/cgsrc.trace): 32 lanes
  // copy 16 bytes each into 512 contiguous bytes from 64-byte source rows at the
  // starts of 128-byte lines; the H100 measured 8 wavefronts, ideal 4
  // (validate/sm90/measured/cgsrc.csv, 2026-11-23). The cost depends on the
  // sources, so a CPU check without them would call the device wrong.
  InstructionSummary copy = row(0, "k+0x40", 1, 8, 4);
  copy.op = Op::cpasync_cg;
  copy.width = 16;
  WorstRecord w;
  w.mask = ~0u;
  w.wavefronts = 8;
  w.excess = 4;
  w.source.emplace();
  for (unsigned l = 0; l < 32; ++l) {
    w.addr[l] = 16 * l;
    (*w.source)[l] = 256 * (l / 4) + 16 * (l % 4);
  }
  copy.worst = w;
  const report::Results r = summary_results({copy}, make_preset("sm90"), {}, "OUT");
  CHECK(r.extra["worst_record_disagreements"] == 0);
  CHECK(r.notes.empty());
  REQUIRE(r.worst);
  CHECK(r.worst->site == "k+0x40");
}
