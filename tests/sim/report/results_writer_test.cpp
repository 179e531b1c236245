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
  r.sites = {{"a,b", totals(2, 2, 2, 1), {}, {}, 0, {}, {}}, {"col", totals(1, 32, 1, 32), {}, {}, 0, {}, {}}};
  r.rounds = {{1, 0, "col", totals(1, 32, 1, 32)}};
  r.unmodelled["atom"] = UnmodelledCount{4, 128};
  WorstRow w;
  w.index = 2;
  w.location = "t.trace:7";
  w.site = "col";
  w.op = "ld";
  w.width = 4;
  w.degree = 32;  // a column: lane l reads word 32 l, all in bank 0, 32 distinct words
  for (unsigned l = 0; l < 32; ++l) w.lanes.push_back(l), w.cells.push_back(l);
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
  i.cost = RequestCost{32, 1, 32};
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
  CHECK(columns == 19);
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
  CHECK(csv.find("\nsite,\"a,b\",,,,,,,2,64,2,2,0,1,,,,true,0\n") != std::string::npos);  // quoted site name
  CHECK(csv.find("\nround,col,,,,,1,0,1,32,32,1,31,32,,,,true,0\n") != std::string::npos);
  CHECK(csv.find("\nunmodelled,atom,,,,,,,4,128,,,,,,,,false,4\n") != std::string::npos);
  CHECK(csv.find("\nworst,col,2,t.trace:7,ld,4,,,1,,,,,32,,,,true,0\n") != std::string::npos);
  CHECK(csv.find("\ntotal,,,,,,,,3,96,34,3,31,32,,,,false,4\n") != std::string::npos);  // 4 atoms not costed
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
  CHECK(text.find("worst conflict: instruction 2 (col, ld 4) at t.trace:7: bank 0 serves 32 distinct words to lanes 0-31\n") !=
        std::string::npos);
  CHECK(text.find("gate: --fail-on-conflicts=0: FAILED (31 conflicts exceed the threshold 0)\n") != std::string::npos);
  Results none;
  std::ostringstream e;
  ResultsWriter(e, Format::text, false).finish(none);
  CHECK(e.str().find("verdict: no accesses: the input had no shared-memory access") != std::string::npos);
}

TEST_CASE("sites that are single instructions (capture --summary) carry their kind and SASS in every format") {
  Results r = sample();
  r.sites = {{"k+0x10", totals(2, 64, 2, 32), {}, "ld", 4, "LDS R0, [R1]", std::nullopt},
             {"k+0x20", totals(1, 32, 1, 1), {}, "st", 8, "", std::nullopt}};
  std::ostringstream text, csv, json;
  ResultsWriter(text, Format::text, false).finish(r);
  CHECK(text.str().find("by instruction\n  instruction  instructions") != std::string::npos);
  CHECK(text.str().find("  kind  sass\n") != std::string::npos);
  CHECK(text.str().find("32  ld 4  LDS R0, [R1]\n") != std::string::npos);
  CHECK(text.str().find("  st 8\n") != std::string::npos);
  ResultsWriter(csv, Format::csv, false).finish(r);
  CHECK(csv.str().find("site,k+0x10,,,ld,4,,,2,64,64,2,62,32,,LDS R0, [R1]") == std::string::npos);  // quoted: it has a comma
  CHECK(csv.str().find("site,k+0x10,,,ld,4,,,2,64,64,2,62,32,,\"LDS R0, [R1]\",,true,0\n") != std::string::npos);
  ResultsWriter(json, Format::json, false).finish(r);
  const auto doc = nlohmann::json::parse(json.str());
  CHECK(doc["sites"][0]["op"] == "ld");
  CHECK(doc["sites"][0]["width"] == 4);
  CHECK(doc["sites"][0]["sass"] == "LDS R0, [R1]");
  CHECK_FALSE(doc["sites"][1].contains("sass"));
  CHECK_FALSE(sample().sites[0].op.size());  // plain sites keep the site table
}

TEST_CASE("a cost that is not known is never a zero: instruction and site rows say not modelled") {
  InstructionRow cg = row(3);  // a cp.async.cg outside rule 6b
  cg.op = "cpasync.cg";
  cg.width = 16;
  cg.active = 2;
  cg.cost = RequestCost{0, 0, 0, false};
  cg.bank_words.clear();
  Results r = sample();
  r.timing = shared_timing("sm90");
  r.sites.push_back({"copy", CostTotals{}, {{"cpasync.cg 16", UnmodelledCount{1, 2}}}, {}, 0, {}, {}});  // nothing costed
  r.sites[1].unmodelled["atom 4"] = UnmodelledCount{4, 128};                                          // partly costed
  std::ostringstream csv, json, text;
  {
    ResultsWriter w(csv, Format::csv, true);
    w.instruction(row(0));
    w.instruction(cg);
    w.finish(r);
  }
  CHECK(csv.str().find("\ninstruction,col,0,t.trace:5,ld,4,,,1,32,32,1,31,32,32 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0,,,true,0\n") !=
        std::string::npos);
  CHECK(csv.str().find("\ninstruction,col,3,t.trace:8,cpasync.cg,16,,,1,2,,,,,,,,false,1\n") != std::string::npos);
  CHECK(csv.str().find("\nsite,copy,,,,,,,0,0,,,,,,,,false,1\n") != std::string::npos);
  CHECK(csv.str().find("\nsite,col,,,,,,,1,32,32,1,31,32,,,,false,4\n") != std::string::npos);
  {
    ResultsWriter w(json, Format::json, true);
    w.instruction(row(0));
    w.instruction(cg);
    w.finish(r);
  }
  const auto doc = nlohmann::json::parse(json.str());
  CHECK(doc["schema_version"] == 3);
  CHECK(doc["instructions"][0]["modelled"] == true);
  CHECK(doc["instructions"][0]["wavefronts"] == 32);
  CHECK(doc["instructions"][1]["modelled"] == false);
  for (const char* key : {"wavefronts", "ideal", "conflicts", "worst_degree"}) {
    CAPTURE(key);
    CHECK(doc["instructions"][1][key].is_null());
    CHECK(doc["sites"][2]["totals"][key].is_null());
    CHECK(doc["sites"][1]["totals"][key].is_number());  // partly costed: the costed part's counts
  }
  CHECK(doc["sites"][0]["totals"]["modelled"] == true);
  CHECK(doc["sites"][1]["totals"]["modelled"] == false);
  CHECK(doc["sites"][2]["totals"]["modelled"] == false);
  CHECK(doc["totals"]["modelled"] == false);
  CHECK(doc["time"]["sites"][2]["pipe_cycles"].is_null());
  {
    ResultsWriter w(text, Format::text, true);
    w.instruction(cg);
    w.finish(r);
  }
  // the four cost columns (36 characters) of an instruction, the four of a site (54), then its count
  CHECK(text.str().find("  cpasync.cg     16       2  " + std::string(24, ' ') + "not modelled  t.trace:8\n") !=
        std::string::npos);
  CHECK(text.str().find("worst_degree  not_modelled\n") != std::string::npos);
  CHECK(text.str().find("  copy             0              0  " + std::string(42, ' ') + "not modelled             1\n") !=
        std::string::npos);
  CHECK(text.str().find("  not modelled   4 instructions (in no count above)\n") != std::string::npos);
}

TEST_CASE("the writers refuse a worst conflict that cannot happen") {
  const auto refused = [](const WorstRow& w) {
    Results r = sample();
    r.worst = w;
    std::ostringstream out;
    for (Format f : {Format::text, Format::csv, Format::json}) {
      try {
        ResultsWriter(out, f, false).finish(r);
        return false;
      } catch (const std::logic_error&) {
      }
    }
    return true;
  };
  const WorstRow good = *sample().worst;
  CHECK_FALSE(refused(good));
  WorstRow w = good;
  w.cells.clear();  // 32-way, but bank 0 serves no word to lanes 0-2
  w.lanes = {0, 1, 2};
  CHECK(refused(w));
  w = good, w.degree = 1;  // no conflict
  CHECK(refused(w));
  w = good, w.degree = 16;  // 32 distinct words in one bank of a 16-way conflict
  CHECK(refused(w));
  w = good, w.cells = {0}, w.lanes = {0, 1};  // one word conflicts with nothing
  CHECK(refused(w));
  w = good, w.lanes.back() = 32;  // outside a 32-lane warp
  CHECK(refused(w));
  w = good, w.lanes.clear(), w.cells.clear();  // a load with no bank where it piles up
  CHECK(refused(w));
  w.op = "cpasync";  // a copy with its sources: its stages make the cost (rule 6)
  CHECK_FALSE(refused(w));
  w = good, w.op = "atom", w.unit = ConflictCulprit::Unit::lanes, w.cells = {0};  // 32 lanes on one word
  CHECK_FALSE(refused(w));
  w.lanes.push_back(40), w.degree = 64;  // more lanes than a warp
  CHECK(refused(w));
}

TEST_CASE("text: the worst conflict says what piles up") {
  Results r = sample();
  r.worst->op = "atom";
  r.worst->unit = ConflictCulprit::Unit::lanes;
  r.worst->cells = {0};
  std::ostringstream atom;
  ResultsWriter(atom, Format::text, false).finish(r);
  CHECK(atom.str().find("at t.trace:7: bank 0 serves lanes 0-31 one pass each (1 distinct words)\n") != std::string::npos);
  r.worst->op = "cpasync";
  r.worst->lanes.clear(), r.worst->cells.clear();
  std::ostringstream copy, json;
  ResultsWriter(copy, Format::text, false).finish(r);
  CHECK(copy.str().find("at t.trace:7: 32-way in no single bank: the copy's read and write stages") != std::string::npos);
  ResultsWriter(json, Format::json, false).finish(r);
  CHECK(nlohmann::json::parse(json.str())["worst"]["bank"].is_null());
}

namespace results_writer_test {

TEST_CASE("a captured instruction's source line in every format; none said as such; other traces have none") {
  using namespace bankcheck::report;
  const SourceLine inlined{FileLine{"k.cu", 7}, {{"k.cu", 15}}};
  Results r = sample();
  r.sites[1].source = inlined;
  r.sites[0].source = SourceLine{};  // a captured site the cubin has no line info for
  r.worst->source = inlined;
  InstructionRow with = row(0), plain = row(1);
  with.source = inlined;
  std::ostringstream text, csv, json;
  for (auto [out, format] : {std::pair{&text, Format::text}, {&csv, Format::csv}, {&json, Format::json}}) {
    ResultsWriter w(*out, format, true);
    w.instruction(with);
    w.instruction(plain);
    w.finish(r);
  }
  CHECK(text.str().find("t.trace:5  banks 0:32  [k.cu:7 (inlined at k.cu:15)]\n") != std::string::npos);
  CHECK(text.str().find("t.trace:6  banks 0:32\n") != std::string::npos);
  CHECK(text.str().find("  [no line info]\n") != std::string::npos);
  CHECK(text.str().find("worst conflict: instruction 2 (col, ld 4) at t.trace:7 [k.cu:7 (inlined at k.cu:15)]: bank 0")
        != std::string::npos);
  CHECK(csv.str().find(",k.cu:7 (inlined at k.cu:15),true,0\n") != std::string::npos);
  CHECK(csv.str().find("\nsite,\"a,b\",,,,,,,2,64,2,2,0,1,,,no line info,true,0\n") != std::string::npos);
  CHECK(csv.str().find("\nworst,col,2,t.trace:7,ld,4,,,1,,,,,32,,,k.cu:7 (inlined at k.cu:15),true,0\n") != std::string::npos);
  const auto doc = nlohmann::json::parse(json.str());
  CHECK(doc["instructions"][0]["source"]["line"] == 7);
  CHECK(doc["instructions"][0]["source"]["inlined_at"][0]["line"] == 15);
  CHECK_FALSE(doc["instructions"][1].contains("source"));
  CHECK(doc["sites"][0]["source"]["text"] == "no line info");
  CHECK(doc["sites"][0]["source"]["file"].is_null());
  CHECK(doc["worst"]["source"]["file"] == "k.cu");
}

}  // namespace results_writer_test
