// sim/algorithms/warp_grouping.hpp on hand-written lane logs: instruction
// (s, k) holds the k-th access to site s of every lane that has one, in an
// order consistent with each lane's own, and crossed orders throw.
#include "sim/algorithms/warp_grouping.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace warp_grouping_test {

using namespace bankcheck;

namespace {

struct Emitted {
  std::string name;
  std::uint64_t k;
  unsigned active;
  std::vector<std::uint64_t> addr;
};

struct Collect final : InstructionListener {
  std::vector<Emitted> got;
  void instruction(const InstructionInfo& i, const WarpRequest& r) override {
    got.push_back({std::string(i.name), i.k, i.active, {r.addr.begin(), r.addr.end()}});
  }
};

constexpr const char* kSites[] = {"a", "b"};

// Lane l's log: its (site, address) pairs, 4-byte loads.
std::vector<Emitted> group(const std::vector<std::vector<std::pair<unsigned, std::uint64_t>>>& lanes) {
  RecordingState state;
  WarpGrouper grouper(state);
  const auto warp = static_cast<unsigned>(lanes.size());
  grouper.name_sites("toy", kSites);
  grouper.reset(warp, 2);
  state.site_count = 2;
  state.reset_log();
  for (unsigned l = 0; l < warp; ++l) {
    grouper.lane_begin(l, state.used());
    for (const auto& [site, addr] : lanes[l]) state.append(addr, AccessTag::make(site, 4, Op::load));
  }
  grouper.lane_begin(warp, state.used());
  Collect out;
  RecorderSummary summary;
  grouper.emit(0, 0, 0, warp, 2, out, summary);
  std::uint64_t lanes_total = 0;
  for (const auto& e : out.got) lanes_total += e.active;
  CHECK(summary.instructions == out.got.size());
  CHECK(summary.lane_accesses == lanes_total);
  return out.got;
}

}  // namespace

TEST_CASE("equal logs: one instruction per entry, every lane active") {
  const auto got = group({{{0, 0}, {1, 100}}, {{0, 4}, {1, 104}}, {{0, 8}, {1, 108}}});
  REQUIRE(got.size() == 2);
  CHECK(got[0].name == "toy.a");
  CHECK(got[0].addr == std::vector<std::uint64_t>{0, 4, 8});
  CHECK(got[1].name == "toy.b");
  CHECK(got[1].active == 3);
}

TEST_CASE("a lane that loops less is inactive in the later rounds") {
  // Lane 0 runs a three times, lane 1 once, lane 2 twice.
  const auto got = group({{{0, 0}, {0, 4}, {0, 8}}, {{0, 40}}, {{0, 80}, {0, 84}}});
  REQUIRE(got.size() == 3);
  CHECK(got[0].k == 0);
  CHECK(got[0].addr == std::vector<std::uint64_t>{0, 40, 80});
  CHECK(got[1].k == 1);
  CHECK(got[1].addr == std::vector<std::uint64_t>{4, kInactive, 84});
  CHECK(got[2].k == 2);
  CHECK(got[2].addr == std::vector<std::uint64_t>{8, kInactive, kInactive});
  CHECK(got[2].active == 1);
}

TEST_CASE("different heads, common tail: the heads merge by the lowest ready lane, then the tail") {
  // Lane 0: a, b. Lane 1: b only. Lane 0's a is ready first (no lane runs a
  // later), then (b, 0) holds both lanes.
  const auto got = group({{{0, 0}, {1, 4}}, {{1, 8}}});
  REQUIRE(got.size() == 2);
  CHECK(got[0].name == "toy.a");
  CHECK(got[0].addr == std::vector<std::uint64_t>{0, kInactive});
  CHECK(got[1].name == "toy.b");
  CHECK(got[1].addr == std::vector<std::uint64_t>{4, 8});
}

TEST_CASE("crossed orders have no single instruction stream") {
  CHECK_THROWS_AS(group({{{0, 0}, {1, 4}}, {{1, 8}, {0, 12}}}), DivergenceError);
}

}  // namespace warp_grouping_test
