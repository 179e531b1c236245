// Tests of sim/html/report_document.hpp: a trace's sites as report
// instructions (totals added over launches, the worst execution kept) and a
// results document's sites. Expected counts from the banks' definition.
#include "sim/html/report_document.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <utility>

#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

namespace report_document_test {

using namespace bankcheck;

namespace {
/// A text trace: `n` loads at `site`, lane l at byte 4 * pitch * l, then one at pitch 1.
std::string trace(const std::string& site, unsigned pitch, unsigned n) {
  std::string t = "warp 32\n";
  for (unsigned i = 0; i <= n; ++i) {
    t += "@" + site + " ld 4";
    for (unsigned l = 0; l < 32; ++l) t += " " + std::to_string(4 * (i == n ? 1 : pitch) * l);
    t += "\n";
  }
  return t;
}
}  // namespace

TEST_CASE("a trace's sites: totals over every launch, the worst execution, the capture's lookups") {
  const BankModel model = make_preset("sm90");
  std::vector<html::ReportInstruction> into;
  html::SiteInfo info;
  info.kernel_of = [](const std::string& site) { return site.substr(0, site.find('+')); };
  info.sass_of = [](const std::string&) { return std::string("LDS R1, [R2]"); };
  info.source_of = [](const std::string&) { return report::SourceLine{report::FileLine{"k.cu", 7}, {}}; };
  for (unsigned pitch : {2u, 32u}) {  // two launches of one kernel: 2-way, then 32-way
    const std::string path = test::scratch("report_document_" + std::to_string(pitch) + ".trace");
    std::ofstream(path) << trace("_Z1kv+0x10", pitch, 3);
    auto source = open_trace(path);
    html::add_trace(into, *source, model, "unused", info);
  }
  REQUIRE(into.size() == 1);
  const auto& i = into[0];
  CHECK(i.kernel == "_Z1kv");
  CHECK(i.sass == "LDS R1, [R2]");
  CHECK(report::source_text(*i.source) == "k.cu:7");
  CHECK(i.totals.instructions == 8);
  CHECK(i.totals.wavefronts == 3 * 2 + 1 + 3 * 32 + 1);
  CHECK(i.totals.conflicts() == 3 * 1 + 3 * 31);
  REQUIRE(i.worst.present);
  CHECK(i.worst.cost.degree == 32);
  CHECK(i.worst.addr[1] == 128);
}

TEST_CASE("a results document's sites, without lanes; another schema is refused") {
  const auto doc = nlohmann::json::parse(R"({"schema_version": 3, "command": "layout", "sites": [
    {"site": "r0", "totals": {"instructions": 2, "lane_accesses": 64, "wavefronts": 6, "ideal": 2, "conflicts": 4,
     "worst_degree": 4, "modelled": true, "unmodelled": {}}}]})");
  const auto rows = html::instructions_of_results(doc, "l.json");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].kernel == "l.json");
  CHECK(rows[0].totals.conflicts() == 4);
  CHECK_FALSE(rows[0].worst.present);
  // Conflicts that are not the wavefronts - ideal (or below zero) are not bankcheck's: refused, naming the site.
  for (const auto& [wavefronts, conflicts] : {std::pair{6, 3}, std::pair{1, 0}}) {
    auto wrong = doc;
    wrong["sites"][0]["totals"]["wavefronts"] = wavefronts;
    wrong["sites"][0]["totals"]["conflicts"] = conflicts;
    CHECK_THROWS_WITH_AS(html::instructions_of_results(wrong, "w.json"), doctest::Contains("w.json: site r0: conflicts"),
                         std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(html::instructions_of_results(nlohmann::json::parse(R"({"schema_version": 9, "sites": []})"), "x.json"),
                       doctest::Contains("x.json: results schema version 9"), std::invalid_argument);
  CHECK_THROWS_AS(html::instructions_of_results(nlohmann::json::parse("[1]"), "x.json"), std::invalid_argument);
}

}  // namespace report_document_test
