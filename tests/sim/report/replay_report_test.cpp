// Tests of sim/report/replay_report.hpp on a small dmm trace whose costs are
// computed by hand (cell = addr / 4, bank = cell mod 4).
#include "sim/report/replay_report.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace bankcheck;
using namespace bankcheck::report;

namespace {
/// Options for a report with a row (and the bank words) per instruction.
ReplayReportOptions rows_of(std::string name, std::vector<std::string> sites) {
  ReplayReportOptions o;
  o.trace_name = std::move(name);
  o.sites = std::move(sites);
  o.per_instruction = o.bank_words = true;
  return o;
}

/// Options for a summary that fails above `fail_on` conflicts.
ReplayReportOptions gate_of(std::string name, std::vector<std::string> sites, std::uint64_t fail_on) {
  ReplayReportOptions o;
  o.trace_name = std::move(name);
  o.sites = std::move(sites);
  o.fail_on_conflicts = fail_on;
  return o;
}

TraceBuffer trace() {
  TraceBuffer t;
  t.begin(4);
  const std::vector<std::uint64_t> row = {0, 4, 8, 12}, column = {0, 16, 32, 48}, pair = {0, 32, 4, 8};
  t.record("row", WarpRequest{Op::load, 4, row});        // 1 wavefront
  t.record("column", WarpRequest{Op::load, 4, column});  // cells 0,4,8,12: bank 0, 4-way
  t.record("pair", WarpRequest{Op::store, 4, pair});     // cells 0,8 in bank 0: 2-way
  return t;
}
}  // namespace

TEST_CASE("location_of: FILE:LINE, FILE:byte N, or nothing") {
  CHECK(location_of("t.trace", {RecordPosition::Unit::line, 12}) == "t.trace:12");
  CHECK(location_of("t.bktrace", {RecordPosition::Unit::byte, 96}) == "t.bktrace:byte 96");
  CHECK(location_of("x", {}) == "");
}

TEST_CASE("replay_report: totals, sites, the worst instruction, and rows of the selected sites only") {
  const TraceBuffer t = trace();
  const BankModel model = make_preset("dmm", 4);
  struct Case {
    std::vector<std::string> sites;
    std::uint64_t instructions, wavefronts, conflicts, worst_index, rows;
  };
  for (const Case& c : {Case{{}, 3, 7, 4, 1, 3}, Case{{"pair", "row"}, 2, 3, 1, 2, 2}, Case{{"pair"}, 1, 2, 1, 2, 1}}) {
    CAPTURE(c.sites.size());
    BufferSource source(t);
    std::ostringstream out;
    ResultsWriter writer(out, Format::json, true);
    Progress progress(nullptr, "replay");
    const Results r = replay_report(source, model, rows_of("mem", c.sites), writer, progress);
    CHECK(r.totals.instructions == c.instructions);
    CHECK(r.totals.wavefronts == c.wavefronts);
    CHECK(r.totals.conflicts == c.conflicts);
    REQUIRE(r.worst.has_value());
    CHECK(r.worst->index == c.worst_index);
    CHECK(r.sites.size() == c.instructions);  // one instruction per site here
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["instructions"].size() == c.rows);
    CHECK(doc["instructions"][0]["bank_words"].size() == 4);
  }
  // The column's bank words: bank 0 serves 4 words.
  BufferSource source(t);
  std::ostringstream out;
  ResultsWriter writer(out, Format::json, true);
  Progress progress(nullptr, "replay");
  replay_report(source, model, rows_of("mem", {"column"}), writer, progress);
  CHECK(nlohmann::json::parse(out.str())["instructions"][0]["bank_words"] == std::vector<unsigned>{4, 0, 0, 0});
}

TEST_CASE("replay_report: a selected site that never occurs has no accesses") {
  const TraceBuffer t = trace();
  BufferSource source(t);
  std::ostringstream out;
  ResultsWriter writer(out, Format::text, false);
  Progress progress(nullptr, "replay");
  const Results r = replay_report(source, make_preset("dmm", 4), gate_of("mem", {"nosuch"}, 0), writer, progress);
  CHECK(verdict_of(r.totals) == Verdict::no_accesses);
  CHECK(exit_code_of(r) == 2);
  CHECK(out.str().find("the selected sites had no shared-memory access") != std::string::npos);
}
