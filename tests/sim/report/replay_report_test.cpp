// Tests of sim/report/replay_report.hpp on a small dmm trace whose costs are
// computed by hand (cell = addr / 4, bank = cell mod 4).
#include "sim/report/replay_report.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

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
    CHECK(r.totals.conflicts() == c.conflicts);
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

namespace {
/// The sums of a measured set's columns (validate/sm90/measured/NAME.csv):
/// per-instruction wavefronts and the kernel-level counters' wavefronts and conflicts.
struct MeasuredSums {
  std::uint64_t wavefronts = 0, kernel_wavefronts = 0, kernel_conflicts = 0, rows = 0;
};
MeasuredSums measured_sums(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  REQUIRE_MESSAGE(in.good(), "cannot open " << csv);
  MeasuredSums s;
  bool header = true;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      REQUIRE(line == "site,wavefronts,kernel_wavefronts,kernel_conflicts");
      header = false;
      continue;
    }
    std::stringstream cells(line);
    std::string site, w, kw, kc;
    std::getline(cells, site, ',') && std::getline(cells, w, ',') && std::getline(cells, kw, ',') &&
        std::getline(cells, kc, ',');
    s.wavefronts += std::stoull(w), s.kernel_wavefronts += std::stoull(kw), s.kernel_conflicts += std::stoull(kc);
    ++s.rows;
  }
  return s;
}
}  // namespace

TEST_CASE("replay_report: the kernel-level counters beside the per-instruction counts, as both were measured") {
  // ld8mix and ld8cap read both counters of each single-instruction kernel
  // (H100, 2026-11-23): paired 8-byte loads with a conflict are the half
  // warps' degrees added per instruction and the merged degree on the kernel
  // counters (docs/bank-model.md, rule 3). The totals must give both sums.
  const std::filesystem::path sm90 = std::filesystem::path(BANKCHECK_SOURCE_DIR) / "validate" / "sm90";
  const BankModel model = make_preset("sm90");
  for (const char* name : {"ld8mix", "ld8cap"}) {
    CAPTURE(name);
    const MeasuredSums m = measured_sums(sm90 / "measured" / (std::string(name) + ".csv"));
    TextTraceReader source(InputFile((sm90 / "cases" / (std::string(name) + ".trace")).string()));
    std::ostringstream out;
    ResultsWriter writer(out, Format::json, false);
    Progress progress(nullptr, "replay");
    ReplayReportOptions o;
    o.trace_name = name;
    const Results r = replay_report(source, model, o, writer, progress);
    REQUIRE(r.totals.instructions == m.rows);
    CHECK(r.totals.wavefronts == m.wavefronts);
    CHECK(m.kernel_wavefronts < m.wavefronts);  // the sets hold loads where the counters differ
    CHECK(r.totals.wavefronts - r.totals.fewer_on_kernel_counter == m.kernel_wavefronts);
    CHECK(r.totals.conflicts() - r.totals.fewer_on_kernel_counter == m.kernel_conflicts);
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["totals"]["kernel_counter"]["wavefronts"] == m.kernel_wavefronts);
    CHECK(doc["totals"]["kernel_counter"]["conflicts"] == m.kernel_conflicts);
  }
}

TEST_CASE("replay_report: the text names the kernel counter only where it differs") {
  // Hand counts: lanes l and l^1 read one 8-byte word; each half warp reads
  // two words of each of its banks (degree 2 + 2 per instruction), the
  // merged warp two words per bank (degree 2 on the kernel counter). With
  // the row (2 wavefronts, ideal 2): 6 per instruction, 4 on the counter.
  std::vector<std::uint64_t> paired(32);
  for (unsigned l = 0; l < 32; ++l) paired[l] = (l / 2 % 2) * 256 + (l / 4) * 8;
  std::vector<std::uint64_t> row(32);
  for (unsigned l = 0; l < 32; ++l) row[l] = 8 * l;
  TraceBuffer t;
  t.begin(32);
  t.record("paired", WarpRequest{Op::load, 8, paired});
  t.record("row", WarpRequest{Op::load, 8, row});  // no pair: two half warps, 1 each on both counters
  struct Case {
    std::vector<std::string> sites;
    std::string line;  // "" where no line is printed
  };
  for (const Case& c : {Case{{}, "  kernel counter 4 wavefronts, 1 conflicts"}, Case{{"row"}, ""}}) {
    CAPTURE(c.sites.size());
    BufferSource source(t);
    std::ostringstream out;
    ResultsWriter writer(out, Format::text, false);
    Progress progress(nullptr, "replay");
    ReplayReportOptions o;
    o.trace_name = "mem";
    o.sites = c.sites;
    replay_report(source, make_preset("sm90"), o, writer, progress);
    if (c.line.empty())
      CHECK(out.str().find("kernel counter") == std::string::npos);
    else
      CHECK(out.str().find(c.line) != std::string::npos);
  }
}
