// Tests of sim/report/results_writer.hpp: every CSV row has the header's
// columns; JSON carries schema_version and the documented keys, also when
// instruction rows are streamed; the text verdict lines.
#include "sim/report/results_writer.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace bankcheck;
using namespace bankcheck::report;

namespace {

/// Splits one CSV line into fields (quotes as RFC 4180).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') quoted = true;
    else if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

CostTotals totals(std::uint64_t instructions, std::uint64_t wavefronts, std::uint64_t ideal, std::uint32_t degree) {
  CostTotals t;
  t.instructions = instructions;
  t.lane_accesses = 32 * instructions;
  t.wavefronts = wavefronts;
  t.ideal = ideal;
  t.conflicts = wavefronts - ideal;
  t.worst_degree = degree;
  return t;
}

Results sample() {
  Results r;
  r.command = "replay";
  r.model = "sm90";
  r.model_description = "sm90: test";
  r.warp = 32;
  r.inputs.push_back({{"kind", "trace"}, {"path", "t.trace"}});
  r.totals = totals(3, 34, 3, 32);
  r.sites = {{"a,b", totals(2, 2, 2, 1), {}, {}, 0, {}}, {"col", totals(1, 32, 1, 32), {}, {}, 0, {}}};
  r.rounds = {{1, 0, "col", totals(1, 32, 1, 32)}};
  r.unmodelled["atom"] = UnmodelledCount{4, 128};
  WorstRow w;
  w.index = 2;
  w.location = "t.trace:7";
  w.site = "col";
  w.op = "ld";
  w.width = 4;
  w.degree = 32;
  w.lanes = {0, 1, 2};
  r.worst = w;
  r.fail_on_conflicts = 0;
  return r;
}

InstructionRow row(std::uint64_t index) {
  InstructionRow i;
  i.index = index;
  i.location = "t.trace:" + std::to_string(index + 5);
  i.site = "col";
  i.op = "ld";
  i.width = 4;
  i.active = 32;
  i.cost = RequestCost{32, 1, 31, 32};
  i.bank_words = std::vector<std::uint32_t>(32, 0);
  i.bank_words[0] = 32;
  return i;
}

}  // namespace

TEST_CASE("CSV: one header, every row with its columns, scopes as documented") {
  std::ostringstream out;
  ResultsWriter w(out, Format::csv, true);
  w.instruction(row(0));
  w.instruction(row(1));
  w.finish(sample());
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  CHECK(line == kCsvHeader);
  const std::size_t columns = fields(line).size();
  CHECK(columns == 16);
  std::vector<std::string> scopes;
  while (std::getline(in, line)) {
    CAPTURE(line);
    const auto f = fields(line);
    CHECK(f.size() == columns);
    scopes.push_back(f[0]);
  }
  CHECK(scopes == std::vector<std::string>{"instruction", "instruction", "total", "site", "site", "round",
                                           "unmodelled", "worst"});
  const std::string csv = out.str();
  CHECK(csv.find("\nsite,\"a,b\",,,,,,,2,64,2,2,0,1,,\n") != std::string::npos);  // quoted site name
  CHECK(csv.find("\nround,col,,,,,1,0,1,32,32,1,31,32,,\n") != std::string::npos);
  CHECK(csv.find("\nunmodelled,atom,,,,,,,4,128,,,,,,\n") != std::string::npos);
  CHECK(csv.find("\nworst,col,2,t.trace:7,ld,4,,,1,,,,,32,,\n") != std::string::npos);
}

TEST_CASE("JSON: schema_version, documented keys; streamed rows make one valid document") {
  for (bool per_instruction : {false, true}) {
    CAPTURE(per_instruction);
    std::ostringstream out;
    ResultsWriter w(out, Format::json, per_instruction);
    if (per_instruction) {
      w.instruction(row(0));
      w.instruction(row(1));
    }
    w.finish(sample());
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["schema_version"] == kSchemaVersion);
    for (const char* key : {"command", "model", "model_description", "warp", "inputs", "totals", "verdict", "sites",
                            "rounds", "worst", "gate"})
      CHECK_MESSAGE(doc.contains(key), key);
    CHECK(doc["totals"]["unmodelled"]["atom"]["instructions"] == 4);
    CHECK(doc["sites"][0]["site"] == "a,b");
    CHECK(doc["sites"][0]["totals"]["wavefronts"] == 2);
    CHECK(doc["gate"]["passed"] == false);
    CHECK(doc["worst"]["location"] == "t.trace:7");
    CHECK(doc.contains("instructions") == per_instruction);
    if (per_instruction) {
      REQUIRE(doc["instructions"].size() == 2);
      CHECK(doc["instructions"][1]["location"] == "t.trace:6");
      CHECK(doc["instructions"][1]["worst_degree"] == 32);
      CHECK(doc["instructions"][1]["bank_words"][0] == 32);
    }
  }
  // An empty per-instruction report is still a document with an empty array.
  std::ostringstream out;
  ResultsWriter w(out, Format::json, true);
  Results empty;
  w.finish(empty);
  const auto doc = nlohmann::json::parse(out.str());
  CHECK(doc["instructions"].empty());
  CHECK(doc["verdict"] == "no-accesses");
}

TEST_CASE("text: verdict, unmodelled kinds, worst conflict and gate lines") {
  std::ostringstream out;
  ResultsWriter w(out, Format::text, false);
  w.finish(sample());
  const std::string text = out.str();
  CHECK(text.find("verdict: 31 of 34 wavefronts are bank conflicts (91.2%); worst 32-way\n") != std::string::npos);
  CHECK(text.find("4 instructions of kind atom not modelled (128 lane accesses; their conflicts are unknown)\n") !=
        std::string::npos);
  CHECK(text.find("worst conflict: instruction 2 (col, ld 4) at t.trace:7: bank 0 serves 0 distinct words to lanes 0-2\n") !=
        std::string::npos);
  CHECK(text.find("gate: --fail-on-conflicts=0: FAILED (31 conflicts exceed the threshold 0)\n") != std::string::npos);
  Results none;
  std::ostringstream e;
  ResultsWriter(e, Format::text, false).finish(none);
  CHECK(e.str().find("verdict: no accesses: the input had no shared-memory access") != std::string::npos);
}

TEST_CASE("csv_field quotes only what needs it") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"x\"") == "\"say \"\"x\"\"\"");
}

TEST_CASE("sites that are single instructions (capture --summary) carry their kind and SASS in every format") {
  Results r = sample();
  r.sites = {{"k+0x10", totals(2, 64, 2, 32), {}, "ld", 4, "LDS R0, [R1]"},
             {"k+0x20", totals(1, 32, 1, 1), {}, "st", 8, ""}};
  std::ostringstream text, csv, json;
  ResultsWriter(text, Format::text, false).finish(r);
  CHECK(text.str().find("by instruction\n  instruction  instructions") != std::string::npos);
  CHECK(text.str().find("  kind  sass\n") != std::string::npos);
  CHECK(text.str().find("32  ld 4  LDS R0, [R1]\n") != std::string::npos);
  CHECK(text.str().find("  st 8\n") != std::string::npos);
  ResultsWriter(csv, Format::csv, false).finish(r);
  CHECK(csv.str().find("site,k+0x10,,,ld,4,,,2,64,64,2,62,32,,LDS R0, [R1]") == std::string::npos);  // quoted: it has a comma
  CHECK(csv.str().find("site,k+0x10,,,ld,4,,,2,64,64,2,62,32,,\"LDS R0, [R1]\"\n") != std::string::npos);
  ResultsWriter(json, Format::json, false).finish(r);
  const auto doc = nlohmann::json::parse(json.str());
  CHECK(doc["sites"][0]["op"] == "ld");
  CHECK(doc["sites"][0]["width"] == 4);
  CHECK(doc["sites"][0]["sass"] == "LDS R0, [R1]");
  CHECK_FALSE(doc["sites"][1].contains("sass"));
  CHECK_FALSE(sample().sites[0].op.size());  // plain sites keep the site table
}
