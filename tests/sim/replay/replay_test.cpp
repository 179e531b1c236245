// Tests of sim/replay/replay.hpp on small traces whose costs are computed by hand
// from the DMM's definition (cell = addr / width, bank = cell mod banks,
// cost = most distinct cells in one bank), independently of the model code.
#include "sim/replay/replay.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using namespace bankcheck;

namespace {

constexpr std::uint64_t X = kInactive;

struct Expected {
  const char* site;
  unsigned width;
  std::vector<std::uint64_t> addr;
  unsigned active;
  std::uint64_t wavefronts;  // == degree: the DMM has one phase
};

// Warp 4, dmm with 4 banks (the preset takes both from the trace).
const std::vector<Expected> kTrace = {
    // stride 1: cells 0,1,2,3 -> banks 0,1,2,3 -> 1 wavefront
    {"a", 4, {0, 4, 8, 12}, 4, 1},
    // stride 2: cells 0,2,4,6 -> banks 0,2,0,2; bank 0 holds {0,4} -> 2-way
    {"a", 4, {0, 8, 16, 24}, 4, 2},
    // stride 4: cells 0,4,8,12 all in bank 0 -> 4-way
    {"b", 4, {0, 16, 32, 48}, 4, 4},
    // broadcast: one cell -> 1 wavefront
    {"b", 4, {20, 20, 20, 20}, 4, 1},
    // lanes 1,2 idle; cells 0 and 4 share bank 0 -> 2-way
    {"c", 4, {0, X, X, 16}, 2, 2},
    // width 8 is one element per cell too: cells 0..3 -> 1 wavefront
    {"a", 8, {0, 8, 16, 24}, 4, 1},
    // no active lane: costs nothing
    {"c", 4, {X, X, X, X}, 0, 0},
};

TraceBuffer make_trace() {
  TraceBuffer t;
  t.begin(4);
  for (const auto& e : kTrace) t.record(e.site, WarpRequest{Op::load, e.width, e.addr});
  return t;
}

}  // namespace

TEST_CASE("replay: totals and per-site sums on a hand-computed dmm trace") {
  const TraceBuffer trace = make_trace();
  BufferSource source(trace);
  std::vector<InstructionCost> seen;
  std::vector<std::vector<std::uint64_t>> addrs;
  const ReplaySummary s = replay(source, make_preset("dmm", 4), [&](const InstructionCost& i) {
    seen.push_back(i);
    addrs.emplace_back(i.request.addr.begin(), i.request.addr.end());
  });
  CHECK(s.model == "dmm");
  CHECK(s.warp == 4);
  // totals: wavefronts 1+2+4+1+2+1+0 = 11; ideal 6 (every instruction with an active lane);
  // conflicts 11-6 = 5; lanes 4*5+2+0 = 22; worst degree 4.
  CHECK(s.totals.instructions == 7);
  CHECK(s.totals.lane_accesses == 22);
  CHECK(s.totals.wavefronts == 11);
  CHECK(s.totals.ideal == 6);
  CHECK(s.totals.conflicts() == 5);
  CHECK(s.totals.worst_degree == 4);
  // per site: a = 1+2+1 (3 instr, 12 lanes, degree 2); b = 4+1 (degree 4); c = 2+0 (degree 2)
  REQUIRE(s.sites.size() == 3);
  CHECK(s.sites[0].site == "a");
  CHECK(s.sites[0].totals.instructions == 3);
  CHECK(s.sites[0].totals.lane_accesses == 12);
  CHECK(s.sites[0].totals.wavefronts == 4);
  CHECK(s.sites[0].totals.conflicts() == 1);
  CHECK(s.sites[0].totals.worst_degree == 2);
  CHECK(s.sites[1].site == "b");
  CHECK(s.sites[1].totals.wavefronts == 5);
  CHECK(s.sites[1].totals.conflicts() == 3);
  CHECK(s.sites[1].totals.worst_degree == 4);
  CHECK(s.sites[2].site == "c");
  CHECK(s.sites[2].totals.instructions == 2);
  CHECK(s.sites[2].totals.ideal == 1);
  CHECK(s.sites[2].totals.wavefronts == 2);
  // per instruction, in trace order
  REQUIRE(seen.size() == kTrace.size());
  for (std::size_t i = 0; i < kTrace.size(); ++i) {
    CAPTURE(i);
    CHECK(seen[i].index == i);
    CHECK(trace.sites().name(seen[i].site) == kTrace[i].site);
    CHECK(seen[i].active == kTrace[i].active);
    CHECK(seen[i].cost.wavefronts == kTrace[i].wavefronts);
    CHECK(seen[i].cost.ideal == (kTrace[i].active > 0 ? 1u : 0u));
    CHECK(seen[i].cost.degree == kTrace[i].wavefronts);
    CHECK(addrs[i] == kTrace[i].addr);
  }
}

TEST_CASE("replay: the worst instruction of each site and of the trace, with its position") {
  const TraceBuffer trace = make_trace();
  BufferSource source(trace);
  const ReplaySummary s = replay(source, make_preset("dmm", 4));
  // a: instruction 1 (2-way); b: instruction 2 (4-way); c: instruction 4 (2-way). Trace: instruction 2.
  REQUIRE(s.sites.size() == 3);
  const std::uint64_t expect_index[] = {1, 2, 4};
  const std::uint32_t expect_degree[] = {2, 4, 2};
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(s.sites[i].worst.present);
    CHECK(s.sites[i].worst.index == expect_index[i]);
    CHECK(s.sites[i].worst.cost.degree == expect_degree[i]);
    CHECK(s.sites[i].worst.site == s.sites[i].site);
  }
  CHECK(s.worst.present);
  CHECK(s.worst.index == 2);
  CHECK(s.worst.site == "b");
  CHECK(s.worst.position.unit == RecordPosition::Unit::none);  // an in-memory trace has no file position
  // Ties keep the earliest instruction.
  WorstInstruction early, late;
  early.present = late.present = true;
  early.index = 3;
  late.index = 9;
  early.cost.degree = late.cost.degree = 2;
  CHECK(early.worse(WorstInstruction{}) == false);
  CHECK(late.worse(early));
  CHECK_FALSE(early.worse(late));
  CHECK(WorstInstruction{}.worse(late));
}

TEST_CASE("replay: dmm with fewer banks than lanes") {
  // 2 banks: stride 1 gives cells 0,1,2,3 -> banks 0,1,0,1 -> 2-way.
  TraceBuffer t;
  t.begin(4);
  const std::vector<std::uint64_t> a = {0, 4, 8, 12};
  t.record("", WarpRequest{Op::store, 4, a});
  BufferSource source(t);
  const ReplaySummary s = replay(source, make_preset("dmm", 4, 2));
  CHECK(s.totals.wavefronts == 2);
  CHECK(s.totals.conflicts() == 1);
  REQUIRE(s.sites.size() == 1);
  CHECK(s.sites[0].site == "");
}

TEST_CASE("replay: a trace whose warp differs from the model's is refused") {
  const TraceBuffer trace = make_trace();  // warp 4
  BufferSource source(trace);
  CHECK_THROWS_AS(replay(source, make_preset("dmm", 8)), std::invalid_argument);
  BufferSource again(trace);
  CHECK_THROWS_AS(replay(again, make_custom(4, 4, 32)), std::invalid_argument);
}

TEST_CASE("active_lanes counts lanes that are not kInactive") {
  const std::vector<std::uint64_t> a = {X, 0, X, 8, 0};
  CHECK(active_lanes(WarpRequest{Op::load, 4, a}) == 3);
}

TEST_CASE("replay counts unmodelled instructions per kind, apart from the totals") {
  TraceBuffer b;
  b.begin(32);
  std::vector<std::uint64_t> rows(32), partial(32, kInactive);
  for (unsigned l = 0; l < 32; ++l) rows[l] = 4 * l;
  for (unsigned l = 0; l < 8; ++l) partial[l] = 16 * l;
  b.record("a", WarpRequest{Op::load, 4, rows});
  b.record("a", WarpRequest{Op::atom, 4, rows});
  b.record("b", WarpRequest{Op::ldsm, 16, partial});
  b.record("b", WarpRequest{Op::atom, 4, rows});
  BufferSource src(b);
  // Atomics and matrix accesses were measured on the H100 only: the DMM reports them.
  const ReplaySummary s = replay(src, make_preset("dmm", 32));
  CHECK(s.totals.instructions == 1);
  CHECK(s.totals.wavefronts == 1);
  REQUIRE(s.unmodelled.size() == 2);
  CHECK(s.unmodelled[0] == UnmodelledKind{Op::atom, 4, 2, 64});
  CHECK(s.unmodelled[1] == UnmodelledKind{Op::ldsm, 16, 1, 8});
  CHECK(s.unmodelled_instructions() == 3);
  REQUIRE(s.sites.size() == 2);
  CHECK(s.sites[1].totals.instructions == 0);  // a site of unmodelled instructions only is still listed
  CHECK(s.sites[1].unmodelled == 2);
}

TEST_CASE("replay: gld/gst go to the global-access model, by site, and nowhere in the bank totals") {
  TraceBuffer t;
  t.begin(4);
  const std::vector<std::uint64_t> row = {0, 4, 8, 12};
  // Counted by hand: 4 words from 0x1000 are 16 bytes of sector 0x80, line 0x20, page 0x100 (16-byte pages).
  const std::vector<std::uint64_t> aligned = {0x1000, 0x1004, 0x1008, 0x100c};
  // 0x101c..0x102b crosses the sector (and page) boundary at 0x1020: 2 sectors, 1 line, 2 pages, 16 bytes.
  const std::vector<std::uint64_t> crossing = {0x101c, 0x1020, 0x1024, 0x1028};
  // 8-byte stores 256 bytes apart: 3 sectors, 3 lines, 3 pages (32-byte pages), 24 bytes = 1 ideal sector.
  const std::vector<std::uint64_t> scatter = {0, 256, 512, kInactive};
  t.record("s", WarpRequest{Op::load, 4, row});
  t.record("g", WarpRequest{Op::gld, 4, aligned});
  t.record("g", WarpRequest{Op::gld, 4, crossing});
  t.record("w", WarpRequest{Op::gst, 8, scatter});
  BufferSource source(t);
  std::vector<GlobalCost> seen;
  const ReplaySummary s = replay(source, make_preset("dmm", 4), [&](const InstructionCost& i) {
    if (is_global(i.request.op)) {
      CHECK_FALSE(i.cost.modelled);
      seen.push_back(i.global);
    }
  });
  CHECK(s.totals.instructions == 1);
  CHECK(s.unmodelled.empty());
  CHECK(s.global.instructions == 3);
  CHECK(s.global.loads == 2);
  CHECK(s.global.lane_accesses == 11);
  CHECK(s.global.sectors == 1 + 2 + 3);
  CHECK(s.global.ideal_sectors == 1 + 1 + 1);
  CHECK(s.global.lines == 1 + 1 + 3);
  CHECK(s.global.pages == 1 + 2 + 3);
  REQUIRE(seen.size() == 3);
  CHECK(seen[1].sectors == 2);
  CHECK(seen[1].pages == 2);
  REQUIRE(s.sites.size() == 3);
  CHECK(s.sites[1].site == "g");
  CHECK(s.sites[1].totals.instructions == 0);
  CHECK(s.sites[1].global.sectors == 3);
  CHECK(s.sites[2].global.lines == 3);
}
