// Tests of sim/report/results.hpp: the verdict, the CI gate and the exit
// codes they call for, on totals written by hand.
#include "sim/report/results.hpp"

#include <doctest/doctest.h>

using namespace bankcheck;
using namespace bankcheck::report;

namespace {
Results with(std::uint64_t instructions, std::uint64_t lanes, std::uint64_t wavefronts, std::uint64_t ideal) {
  Results r;
  r.totals.instructions = instructions;
  r.totals.lane_accesses = lanes;
  r.totals.wavefronts = wavefronts;
  r.totals.ideal = ideal;
  return r;
}
}  // namespace

TEST_CASE("verdict: nothing costed is 'no accesses', never conflict-free") {
  struct Case {
    Results r;
    Verdict v;
    int code;
  };
  for (const Case& c : {Case{with(0, 0, 0, 0), Verdict::no_accesses, 2},    // empty trace
                        Case{with(3, 0, 0, 0), Verdict::no_accesses, 2},    // instructions without an active lane
                        Case{with(2, 64, 2, 2), Verdict::conflict_free, 0},
                        Case{with(2, 64, 9, 2), Verdict::conflicts, 0}}) {
    CHECK(verdict_of(c.r.totals) == c.v);
    CHECK(exit_code_of(c.r) == c.code);
    CHECK((exit_reason(c.r).empty()) == (c.code == 0));
  }
  CHECK(std::string(verdict_name(Verdict::no_accesses)) == "no-accesses");
  CHECK(std::string(verdict_name(Verdict::conflict_free)) == "conflict-free");
  CHECK(std::string(verdict_name(Verdict::conflicts)) == "conflicts");
}

TEST_CASE("gate: exit 1 when conflicts exceed the threshold or anything is unmodelled") {
  Results r = with(2, 64, 9, 2);  // 7 conflicts
  CHECK(gate_passes(r));          // no gate
  r.fail_on_conflicts = 0;
  CHECK_FALSE(gate_passes(r));
  CHECK(exit_code_of(r) == 1);
  CHECK(exit_reason(r).find("7 conflicts exceed the threshold 0") != std::string::npos);
  r.fail_on_conflicts = 6;
  CHECK(exit_code_of(r) == 1);
  r.fail_on_conflicts = 7;
  CHECK(exit_code_of(r) == 0);
  r.unmodelled["atom"] = UnmodelledCount{3, 96};
  CHECK(exit_code_of(r) == 1);
  CHECK(exit_reason(r).find("3 instructions are not modelled") != std::string::npos);
  // An empty input is exit 2 even under a gate that would pass.
  Results empty = with(0, 0, 0, 0);
  empty.fail_on_conflicts = 100;
  CHECK(exit_code_of(empty) == 2);
}

TEST_CASE("lane ranges") {
  CHECK(lane_ranges({}) == "");
  CHECK(lane_ranges({5}) == "5");
  CHECK(lane_ranges({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
  CHECK(lane_ranges({1, 3}) == "1,3");
}

TEST_CASE("worst_row names the bank and lanes of the conflict") {
  // dmm, 4 banks: lanes 0 and 2 read cells 0 and 8, both bank 0; lanes 1 and 3 cells 1 and 2.
  const BankModel m = make_preset("dmm", 4);
  WorstInstruction w;
  w.present = true;
  w.index = 7;
  w.site = "s";
  w.op = Op::store;
  w.width = 4;
  w.addr = {0, 4, 32, 8};
  w.cost = m.cost(w.request());
  const WorstRow row = worst_row(m, w, "t.trace:9");
  CHECK(row.index == 7);
  CHECK(row.location == "t.trace:9");
  CHECK(row.op == "st");
  CHECK(row.degree == 2);
  CHECK(row.bank == 0);
  CHECK(row.lanes == std::vector<unsigned>{0, 2});
  CHECK(row.cells.size() == 2);
}

TEST_CASE("instruction_identity_json: the six keys that name a row, in the schema's order") {
  InstructionRow r;
  r.index = 7;
  r.location = "t.trace:9";
  r.site = "tile.column";
  r.op = "ld";
  r.width = 4;
  r.active = 32;
  CHECK(instruction_identity_json(r).dump() ==
        R"({"index":7,"location":"t.trace:9","site":"tile.column","op":"ld","width":4,"lane_accesses":32})");
}
