// End-to-end tests of `bankcheck replay` (cli/replay_command.cpp): the built
// binary is run through the shell; exit codes, messages and output rows are
// checked. Expected counts for the bundled example come from the DMM's
// definition (32 banks, cell = addr/4): see the comments in
// tests/data/traces/example.trace, whose instruction i is on the line given
// in kLine (counted in the file).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace replay_command_test {

namespace {

namespace fs = std::filesystem;
using bankcheck::test::CliResult;
using bankcheck::test::scratch;
using bankcheck::test::write_text;

CliResult cli(const std::string& args, const std::string& stdin_file = "") {
  return bankcheck::test::run_cli(args, stdin_file);
}

const std::string kExample = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/traces/example.trace";
// Line of instruction i in example.trace (comments and the warp line in between).
const unsigned kLine[] = {6, 7, 9, 11, 13, 15, 17};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("replay: a malformed trace exits 2 with file:line") {
  const std::string bad = scratch("bad.trace");
  write_text(bad, "warp 4\nld 4 0 4 8 12\n# comment\nld 4 0 4 8\n");
  const CliResult r = cli("replay --model dmm '" + bad + "'");
  CHECK(r.code == 2);
  CHECK(r.std_err.find(bad + ":4: wrong lane count: expected 4 addresses (warp 4), got 3") != std::string::npos);
}

TEST_CASE("replay: bad options exit 2 and name the allowed range") {
  struct Case {
    std::string args, expect;
  };
  for (const auto& c : {Case{"--banks 0", "--banks: must be an integer in 1..65536 (got 0)"},
                        Case{"--model dmm --banks 0", "--banks: must be an integer in 1..65536 (got 0)"},
                        Case{"--model dmm --banks -3", "--banks: must be an integer in 1..65536 (got -3)"},
                        Case{"--model dmm --banks 99999999999999999999", "--banks: must be an integer in 1..65536"},
                        Case{"--banks 32 --bank-bytes 3", "--bank-bytes: must be one of 1, 2, 4, 8, 16 (got 3)"},
                        Case{"--banks 32 --bank-bytes 0x4", "--bank-bytes: must be an integer in 1..16 (got 0x4)"},
                        Case{"--model dmm --warp 0", "--warp: must be an integer in 1..65536 (got 0)"},
                        Case{"--model dmm --warp -1", "--warp: must be an integer in 1..65536 (got -1)"},
                        Case{"--model dmm --warp 4294967328", "--warp: must be an integer in 1..65536"},
                        Case{"--model nope", "allowed: dmm, sm90"},
                        Case{"--model dmm --warp 16", "--warp 16 disagrees with the trace"},
                        Case{"--fail-on-conflicts=-1", "--fail-on-conflicts: must be an integer in 0..18446744073709551615 (got -1)"},
                        Case{"--fail-on-conflicts=x", "--fail-on-conflicts: must be an integer"}}) {
    CAPTURE(c.args);
    const CliResult r = cli("replay " + c.args + " '" + kExample + "'");
    CHECK(r.code == 2);
    CHECK(r.std_err.find(c.expect) != std::string::npos);
    CHECK(r.std_out.empty());
  }
}

TEST_CASE("replay: a warp-4 trace on the default sm90 preset exits 2 and says how to choose another model") {
  const std::string t = scratch("w4.trace");
  write_text(t, "warp 4\nld 4 0 4 8 12\n");
  const CliResult r = cli("replay '" + t + "'");
  CHECK(r.code == 2);
  CHECK(r.std_err.find("got warp 4 (use --model dmm") != std::string::npos);
}

TEST_CASE("replay: an empty trace, or a site with no instruction, is 'no accesses' and exit 2, never conflict-free") {
  const std::string empty = scratch("empty.trace"), idle = scratch("idle.trace");
  write_text(empty, "warp 32\n# nothing\n");
  write_text(idle, "warp 4\n@a ld 4 - - - -\n");  // one instruction, no active lane
  for (const std::string& args : {"replay '" + empty + "'", "replay --model dmm '" + idle + "'",
                                  "replay --site nosuch '" + kExample + "'"}) {
    CAPTURE(args);
    const CliResult r = cli(args);
    CHECK(r.code == 2);
    CHECK(r.std_out.find("verdict: no accesses") != std::string::npos);
    CHECK(r.std_out.find("verdict: conflict-free") == std::string::npos);
    CHECK(r.std_err.find("nothing was checked") != std::string::npos);
    const CliResult j = cli(args + " --json");
    CHECK(j.code == 2);
    CHECK(nlohmann::json::parse(j.std_out)["verdict"] == "no-accesses");
  }
}

TEST_CASE("replay: per-instruction rows name the trace line, in text, CSV and JSON") {
  const CliResult c = cli("replay --model dmm --per-instruction --csv '" + kExample + "'");
  REQUIRE(c.code == 0);
  const auto rows = lines_of(c.std_out);
  REQUIRE(rows.size() >= 8);
  CHECK(rows[0] ==
        "scope,site,index,location,op,width,phase,k,instructions,lane_accesses,wavefronts,ideal,conflicts,"
        "worst_degree,bank_words,sass,source,modelled,unmodelled_instructions");
  // instruction 2 reads column 0 of a 32x32 float tile: 32 distinct cells in bank 0.
  CHECK(rows[3] == "instruction,tile.column,2," + kExample + ":9,ld,4,,,1,32,32,1,31,32,,,,true,0");
  // instruction 4: stride 2 words, lanes l and l+16 share a bank -> 2-way.
  CHECK(rows[5] == "instruction,stride2,4," + kExample + ":13,ld,4,,,1,32,2,1,1,2,,,,true,0");
  // instruction 6: 16 active lanes, stride 1.
  CHECK(rows[7] == "instruction,partial,6," + kExample + ":17,st,4,,,1,16,1,1,0,1,,,,true,0");
  CHECK(rows[8] == "total,,,,,,,,7,208,39,7,32,32,,,,true,0");
  const CliResult j = cli("replay --model dmm --per-instruction --json '" + kExample + "'");
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.std_out);
  REQUIRE(doc["instructions"].size() == 7);
  for (unsigned i = 0; i < 7; ++i) {
    CAPTURE(i);
    CHECK(doc["instructions"][i]["index"] == i);
    CHECK(doc["instructions"][i]["location"] == kExample + ":" + std::to_string(kLine[i]));
  }
  const CliResult t = cli("replay --model dmm --per-instruction '" + kExample + "'");
  CHECK(t.std_out.find("  " + kExample + ":9\n") != std::string::npos);
  // A binary trace names the byte offset of the record instead.
  const std::string bin = scratch("located.bktrace");
  REQUIRE(cli("convert '" + kExample + "' '" + bin + "'").code == 0);
  const auto b = nlohmann::json::parse(cli("replay --model dmm --per-instruction --json '" + bin + "'").std_out);
  CHECK(b["instructions"][0]["location"].get<std::string>().rfind(bin + ":byte ", 0) == 0);
}

TEST_CASE("replay: --per-bank gives the words each bank served, per instruction") {
  const CliResult j = cli("replay --model dmm --per-bank --json '" + kExample + "'");
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.std_out);
  // instruction 2 (column): bank 0 serves 32 words, the others none.
  std::vector<unsigned> column(32, 0);
  column[0] = 32;
  CHECK(doc["instructions"][2]["bank_words"] == column);
  // instruction 4 (stride 2): lanes l and l+16 in bank 2l mod 32: even banks serve 2 words, odd none.
  std::vector<unsigned> stride2(32, 0);
  for (unsigned b = 0; b < 32; b += 2) stride2[b] = 2;
  CHECK(doc["instructions"][4]["bank_words"] == stride2);
  // instruction 5 (broadcast of word 64): bank 0 serves one word.
  std::vector<unsigned> broadcast(32, 0);
  broadcast[0] = 1;
  CHECK(doc["instructions"][5]["bank_words"] == broadcast);
  const CliResult t = cli("replay --model dmm --per-bank '" + kExample + "'");
  CHECK(t.std_out.find("banks 0:32\n") != std::string::npos);
}

TEST_CASE("replay: JSON totals of the example, read from stdin, in the versioned schema") {
  const CliResult r = cli("replay --model dmm --json -", kExample);
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.std_out);
  CHECK(doc["schema_version"] == 3);
  CHECK(doc["command"] == "replay");
  CHECK(doc["model"] == "dmm");
  CHECK(doc["warp"] == 32);
  CHECK(doc["inputs"][0]["path"] == "<stdin>");
  // wavefronts 1+1+32+1+2+1+1 = 39; ideal 7; lanes 6*32+16 = 208.
  CHECK(doc["totals"]["instructions"] == 7);
  CHECK(doc["totals"]["wavefronts"] == 39);
  CHECK(doc["totals"]["ideal"] == 7);
  CHECK(doc["totals"]["conflicts"] == 32);
  CHECK(doc["totals"]["lane_accesses"] == 208);
  CHECK(doc["totals"]["worst_degree"] == 32);
  CHECK(doc["totals"]["unmodelled"].empty());
  CHECK(doc["verdict"] == "conflicts");
  CHECK(doc["sites"].size() == 6);
  CHECK(doc["sites"][1]["site"] == "tile.column");
  CHECK(doc["sites"][1]["totals"]["wavefronts"] == 32);
}

TEST_CASE("replay: a one-line verdict and where the worst conflict is") {
  // example.trace's instruction 2 (@tile.column, line 9) loads 32 words 128
  // bytes apart: 32 distinct words, all in bank 0 of 32 four-byte banks; the
  // trace has 39 wavefronts of which 32 are conflicts (7 instructions, 7 ideal).
  const CliResult r = cli("replay --model sm90 '" + kExample + "'");
  CHECK(r.code == 0);
  CHECK(r.std_out.find("verdict: 32 of 39 wavefronts are bank conflicts (82.1%); worst 32-way\n") != std::string::npos);
  CHECK(r.std_out.find("worst conflict: instruction 2 (tile.column, ld 4) at " + kExample +
                       ":9: bank 0 serves 32 distinct words to lanes 0-31\n") != std::string::npos);
  const auto j = nlohmann::json::parse(cli("replay --json '" + kExample + "'").std_out);
  CHECK(j["model"] == "sm90");  // the default
  CHECK(j["worst"]["index"] == 2);
  CHECK(j["worst"]["location"] == kExample + ":9");
  CHECK(j["worst"]["bank"] == 0);
  CHECK(j["worst"]["lanes"].size() == 32);
  // Lanes 1 and 3 read words 8 apart on 8 banks: bank 1, a 2-way conflict of lanes 1 and 3.
  const std::string two = scratch("two_way.trace"), none = scratch("none.trace");
  write_text(two, "warp 4\n@ok ld 4 0 4 8 12\n@two ld 4 - 4 - 36\n");
  const CliResult t = cli("replay --banks 8 --bank-bytes 4 --warp 4 '" + two + "'");
  CHECK(t.std_out.find("verdict: 1 of 3 wavefronts are bank conflicts (33.3%); worst 2-way\n") != std::string::npos);
  CHECK(t.std_out.find("worst conflict: instruction 1 (two, ld 4) at " + two +
                       ":3: bank 1 serves 2 distinct words to lanes 1,3\n") != std::string::npos);
  write_text(none, "warp 4\nld 4 0 4 8 12\n");
  const CliResult n = cli("replay --banks 8 --bank-bytes 4 --warp 4 '" + none + "'");
  CHECK(n.code == 0);
  CHECK(n.std_out.find("verdict: conflict-free (1 wavefronts, the ideal)\n") != std::string::npos);
  CHECK(n.std_out.find("worst conflict") == std::string::npos);
}

TEST_CASE("replay: --site selects sites; the worst conflict is the selected sites' worst") {
  const CliResult r = cli("replay --json --site stride2 --site tile.row '" + kExample + "'");
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.std_out);
  CHECK(doc["selected_sites"].size() == 2);
  CHECK(doc["sites"].size() == 2);
  CHECK(doc["totals"]["instructions"] == 3);  // two rows and the stride-2 load
  CHECK(doc["totals"]["wavefronts"] == 4);    // 1 + 1 + 2
  CHECK(doc["worst"]["site"] == "stride2");
  CHECK(doc["worst"]["index"] == 4);
}

TEST_CASE("replay: --fail-on-conflicts gates on the (selected) conflicts, for CI") {
  struct Case {
    std::string args;
    int code;
  };
  // example.trace: 32 conflicts in total; tile.column 31, stride2 1, tile.row 0.
  for (const Case& c : {Case{"--fail-on-conflicts", 1}, Case{"--fail-on-conflicts=31", 1},
                        Case{"--fail-on-conflicts=32", 0}, Case{"--fail-on-conflicts --site tile.row", 0},
                        Case{"--fail-on-conflicts --site stride2", 1}, Case{"--fail-on-conflicts=1 --site stride2", 0},
                        Case{"", 0}}) {
    CAPTURE(c.args);
    const CliResult r = cli("replay " + c.args + " '" + kExample + "'");
    CHECK(r.code == c.code);
    if (c.code == 1) CHECK(r.std_err.find("exceed the threshold") != std::string::npos);
    if (!c.args.empty()) CHECK(r.std_out.find(c.code ? "gate: --fail-on-conflicts=" : "passed") != std::string::npos);
  }
  const auto j = nlohmann::json::parse(cli("replay --json --fail-on-conflicts=40 '" + kExample + "'").std_out);
  CHECK(j["gate"]["fail_on_conflicts"] == 40);
  CHECK(j["gate"]["passed"] == true);
}

TEST_CASE("replay: -o FILE writes what stdout would have had, atomically; it never overwrites the trace") {
  const std::string json = scratch("result.json");
  const CliResult r = cli("replay --json -o '" + json + "' '" + kExample + "'");
  CHECK(r.code == 0);
  CHECK(r.std_out.empty());
  CHECK(bankcheck::test::slurp(json) == cli("replay --json '" + kExample + "'").std_out);
  // A directory that does not exist: a clear message, exit 2.
  const CliResult bad = cli("replay -o /nonexistent/dir/r.txt '" + kExample + "'");
  CHECK(bad.code == 2);
  CHECK(bad.std_err.find("/nonexistent/dir/r.txt") != std::string::npos);
  // The output is the input: refused, the trace intact.
  const std::string copy = scratch("copy.trace");
  fs::copy_file(kExample, copy, fs::copy_options::overwrite_existing);
  const CliResult same = cli("replay -o '" + copy + "' '" + copy + "'");
  CHECK(same.code == 2);
  CHECK(same.std_err.find("refusing to write") != std::string::npos);
  CHECK(bankcheck::test::slurp(copy) == bankcheck::test::slurp(kExample));
  // A malformed trace leaves no result file behind.
  const std::string bad_trace = scratch("bad2.trace"), result = scratch("bad2.txt");
  write_text(bad_trace, "warp 4\nld 4 0 4 8 12\nld 4 0\n");
  CHECK(cli("replay --model dmm -o '" + result + "' '" + bad_trace + "'").code == 2);
  CHECK_FALSE(fs::exists(result));
  // Standard output that cannot be written is an error, not a silent success.
  std::string full = "'";
  full.append(BANKCHECK_CLI).append("' replay '").append(kExample).append("' >/dev/full 2>/dev/null");
  const int status = std::system(full.c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
}

namespace {
/// `cpasync.cg 16` with lanes 0 and 8 writing 16 bytes at 0 and `second`, read from one source sector.
std::string cg_pair(const std::string& site, unsigned second) {
  std::string addr = " 0", from = " 4096";
  for (unsigned l = 1; l < 32; ++l) {
    addr += l == 8 ? " " + std::to_string(second) : " -";
    from += l == 8 ? " 4112" : " -";
  }
  return "@" + site + " cpasync.cg 16" + addr + " from" + from + "\n";
}
}  // namespace

TEST_CASE("replay: a cp.async.cg copy, lanes 0 and 8 filling one row, costs 1 wavefront with the ideal 1: no wrap") {
  const std::string trace = scratch("cg_pair.trace");
  write_text(trace, "warp 32\n" + cg_pair("x", 16));
  const CliResult r = cli("replay '" + trace + "'");
  CHECK(r.code == 0);
  CHECK(r.std_out.find("  conflicts      0\n") != std::string::npos);
  CHECK(r.std_out.find("verdict: conflict-free (1 wavefronts, the ideal)\n") != std::string::npos);
  CHECK(r.std_out.find("18446744073709551615") == std::string::npos);
}

TEST_CASE("replay: a copy that is not modelled is no free access in any per-instruction or per-site row") {
  // Lane 8 at 48 takes the source sector's second half to the destination
  // sector's second half from another sector: outside rule 6b, not modelled.
  const std::string trace = scratch("cg_unmodelled.trace");
  write_text(trace, "warp 32\n" + cg_pair("costed", 16) + cg_pair("unknown", 48));
  const CliResult csv = cli("replay --per-instruction --csv '" + trace + "'");
  CHECK(csv.code == 0);
  const auto rows = lines_of(csv.std_out);
  REQUIRE(rows.size() >= 6);
  CHECK(rows[0].substr(rows[0].size() - 33) == ",modelled,unmodelled_instructions");
  CHECK(rows[1] == "instruction,costed,0," + trace + ":2,cpasync.cg,16,,,1,2,1,1,0,1,,,,true,0");
  CHECK(rows[2] == "instruction,unknown,1," + trace + ":3,cpasync.cg,16,,,1,2,,,,,,,,false,1");
  CHECK(rows[3] == "total,,,,,,,,1,2,1,1,0,1,,,,false,1");
  CHECK(rows[5] == "site,unknown,,,,,,,0,0,,,,,,,,false,1");
  const CliResult json = cli("replay --per-instruction --json '" + trace + "'");
  const auto doc = nlohmann::json::parse(json.std_out);
  CHECK(doc["instructions"][1]["modelled"] == false);
  CHECK(doc["instructions"][1]["wavefronts"].is_null());
  CHECK(doc["instructions"][1]["conflicts"].is_null());
  CHECK(doc["sites"][1]["totals"]["modelled"] == false);
  CHECK(doc["sites"][1]["totals"]["wavefronts"].is_null());
  CHECK(doc["verdict"] == "not-all-modelled");
  const CliResult text = cli("replay --per-instruction '" + trace + "'");
  CHECK(text.std_out.find("not modelled  " + trace + ":3\n") != std::string::npos);
}

TEST_CASE("replay: the worst conflict of an atomic names the lanes that pile up, never \"0 distinct words\"") {
  // 32 lanes on one word: 32 passes (rule 4) with one distinct word, which
  // the word count called "bank 0 serves 0 distinct words to lanes ".
  const std::string trace = scratch("atom_same.trace");
  std::string line = "@a atom 4";
  for (unsigned l = 0; l < 32; ++l) line += " 0";
  write_text(trace, "warp 32\n" + line + "\n");
  const CliResult r = cli("replay '" + trace + "'");
  CHECK(r.code == 0);
  CHECK(r.std_out.find("worst conflict: instruction 0 (a, atom 4) at " + trace +
                       ":2: bank 0 serves lanes 0-31 one pass each (1 distinct words)\n") != std::string::npos);
  const auto doc = nlohmann::json::parse(cli("replay --json '" + trace + "'").std_out);
  CHECK(doc["worst"]["piles_up"] == "lanes");
  CHECK(doc["worst"]["lanes"].size() == 32);
  CHECK(doc["worst"]["degree"] == 32);
}

}  // namespace replay_command_test
