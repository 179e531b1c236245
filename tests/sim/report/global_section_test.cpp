// The global-memory part of a report, on a trace whose sectors are counted by
// hand: text section and rows, CSV scopes (global-total, global-site,
// global-instruction), the JSON "global" object, the global-only verdict
// (exit 0), and that a shared-only report prints none of it.
#include "sim/report/global_section.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "sim/report/replay_report.hpp"

using namespace bankcheck;
using namespace bankcheck::report;

namespace {

TraceBuffer trace(bool with_shared) {
  TraceBuffer t;
  t.begin(4);
  const std::vector<std::uint64_t> row = {0, 4, 8, 12};
  // by hand: bytes 0x101c..0x102b: 2 sectors, 16 bytes = 1 ideal, 1 line, 2 pages of 4 words
  const std::vector<std::uint64_t> crossing = {0x101c, 0x1020, 0x1024, 0x1028};
  // 8 bytes at 0, 256, 512: 3 sectors, 1 ideal, 3 lines, 3 pages of 4 x 8 bytes
  const std::vector<std::uint64_t> scatter = {0, 256, 512, kInactive};
  if (with_shared) t.record("s", WarpRequest{Op::load, 4, row});
  t.record("g", WarpRequest{Op::gld, 4, crossing});
  t.record("w", WarpRequest{Op::gst, 8, scatter});
  return t;
}

Results report_of(const TraceBuffer& t, Format format, bool rows, std::string& text) {
  BufferSource source(t);
  std::ostringstream out;
  ResultsWriter writer(out, format, rows);
  Progress progress(nullptr, "replay");
  ReplayReportOptions o;
  o.trace_name = "g.trace";
  o.per_instruction = rows;
  const Results r = replay_report(source, make_preset("dmm", 4), o, writer, progress);
  text = out.str();
  return r;
}

}  // namespace

TEST_CASE("text: rows and the global section; the bank totals keep the shared instruction only") {
  std::string text;
  const Results r = report_of(trace(true), Format::text, true, text);
  CHECK(r.totals.instructions == 1);
  CHECK(r.sites.size() == 1);  // sites of global instructions only are in the global table
  CHECK(r.global.sectors == 5);
  CHECK(r.global_sites.size() == 2);
  CHECK(verdict_of(r) == Verdict::conflict_free);
  CHECK(text.find("  sectors 2 ideal 1 lines 1 pages 2") != std::string::npos);
  CHECK(text.find("  sectors 3 ideal 1 lines 3 pages 3") != std::string::npos);
  CHECK(text.find("global memory (32-byte sectors, 128-byte lines, Karsin pages of 4 elements") != std::string::npos);
  CHECK(text.find("  instructions   2 (1 gld, 1 gst or gatom)\n") != std::string::npos);
  CHECK(text.find("  excess sectors 3\n") != std::string::npos);
}

TEST_CASE("csv: global scopes put sectors, ideal, excess, pages and lines in the documented columns") {
  std::string text;
  report_of(trace(true), Format::csv, true, text);
  CHECK(text.find("global-instruction,g,1,,gld,4,,,1,4,2,1,1,2,1,,,true,0\n") != std::string::npos);
  CHECK(text.find("global-total,,,,,,,,2,7,5,2,3,5,4,,,true,0\n") != std::string::npos);
  CHECK(text.find("global-site,w,,,,,,,1,3,3,1,2,3,3,,,true,0\n") != std::string::npos);
}

TEST_CASE("json: a global object and global instruction rows") {
  std::string text;
  report_of(trace(true), Format::json, true, text);
  const auto doc = nlohmann::json::parse(text);
  CHECK(doc["global"]["geometry"]["page_elements"] == 4);
  CHECK(doc["global"]["totals"]["sectors"] == 5);
  CHECK(doc["global"]["totals"]["stores"] == 1);
  CHECK(doc["global"]["sites"][1]["site"] == "w");
  CHECK(doc["instructions"][1]["sectors"] == 2);
  CHECK(doc["instructions"][1]["pages"] == 2);
  CHECK_FALSE(doc["instructions"][1].contains("wavefronts"));
  CHECK(doc["totals"]["instructions"] == 1);
}

TEST_CASE("a trace of global instructions only is global-only and exits 0; a shared-only one has no global part") {
  std::string text;
  const Results r = report_of(trace(false), Format::text, false, text);
  CHECK(verdict_of(r) == Verdict::global_only);
  CHECK(exit_code_of(r) == 0);
  CHECK(text.find("verdict: no shared-memory access; 2 global instructions cost 5 sectors (ideal 2)") !=
        std::string::npos);
  TraceBuffer shared;
  shared.begin(4);
  const std::vector<std::uint64_t> row = {0, 4, 8, 12};
  shared.record("s", WarpRequest{Op::load, 4, row});
  for (Format f : {Format::text, Format::csv, Format::json}) {
    report_of(shared, f, true, text);
    CHECK(text.find("global") == std::string::npos);
  }
}
