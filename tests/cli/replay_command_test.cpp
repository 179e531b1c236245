// End-to-end tests of `bankcheck replay` and `bankcheck convert`
// (cli/replay_command.cpp, cli/convert_command.cpp): the built binary is run
// through the shell; exit codes, stderr locations and output rows are checked.
// Expected counts for the bundled example come from the DMM's definition
// (32 banks, cell = addr/4): see the comments in tests/data/traces/example.trace.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Run {
  int code;
  std::string out, err;
};

/// A scratch directory for this process, removed at exit.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("bankcheck_replay_cli_" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

fs::path scratch() {
  static const Scratch s;
  return s.dir;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// Runs `bankcheck ARGS` (ARGS is shell text), capturing both streams.
Run bankcheck(const std::string& args, const std::string& stdin_file = "") {
  const fs::path out = scratch() / "out.txt", err = scratch() / "err.txt";
  std::string cmd = std::string("'") + BANKCHECK_CLI + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  if (!stdin_file.empty()) cmd += " <'" + stdin_file + "'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

const std::string kExample = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/traces/example.trace";

}  // namespace

TEST_CASE("replay: a malformed trace exits 2 with file:line") {
  const fs::path bad = scratch() / "bad.trace";
  write_file(bad, "warp 4\nld 4 0 4 8 12\n# comment\nld 4 0 4 8\n");
  const Run r = bankcheck("replay --model dmm '" + bad.string() + "'");
  CHECK(r.code == 2);
  CHECK(r.err.find(bad.string() + ":4: wrong lane count: expected 4 addresses (warp 4), got 3") != std::string::npos);
}

TEST_CASE("replay: bad parameters exit 2 and name the allowed range") {
  struct Case {
    std::string args, expect;
  };
  for (const auto& c : {Case{"--banks 0", "--banks must be >= 1 (got 0)"},
                        Case{"--model dmm --banks 0", "--banks must be >= 1 (got 0)"},
                        Case{"--banks 32 --bank-bytes 3", "--bank-bytes must be one of 1, 2, 4, 8, 16"},
                        Case{"--model dmm --warp 0", "--warp must be >= 1 (got 0)"},
                        Case{"--model nope", "allowed: dmm, sm90"},
                        Case{"--model dmm --warp 16", "--warp 16 disagrees with the trace"}}) {
    CAPTURE(c.args);
    const Run r = bankcheck("replay " + c.args + " '" + kExample + "'");
    CHECK(r.code == 2);
    CHECK(r.err.find(c.expect) != std::string::npos);
  }
}

TEST_CASE("replay: a warp-4 trace on the 32-lane sm90 preset exits 2") {
  const fs::path t = scratch() / "w4.trace";
  write_file(t, "warp 4\nld 4 0 4 8 12\n");
  const Run r = bankcheck("replay '" + t.string() + "'");
  CHECK(r.code == 2);
  CHECK(r.err.find("got warp 4") != std::string::npos);
}

TEST_CASE("replay: per-instruction CSV has the header and hand-computed rows") {
  const Run r = bankcheck("replay --model dmm --per-instruction --csv '" + kExample + "'");
  REQUIRE(r.code == 0);
  std::istringstream lines(r.out);
  std::string header, row;
  std::getline(lines, header);
  CHECK(header == "index,site,op,width,active,wavefronts,ideal,conflicts,degree,modelled,location,sass");
  // instruction 2 reads column 0 of a 32x32 float tile: 32 distinct cells in bank 0.
  CHECK(r.out.find("\n2,tile.column,ld,4,32,32,1,31,32,yes,,\n") != std::string::npos);
  // instruction 4: stride 2 words, lanes l and l+16 share a bank -> 2-way.
  CHECK(r.out.find("\n4,stride2,ld,4,32,2,1,1,2,yes,,\n") != std::string::npos);
  // instruction 6: 16 active lanes, stride 1.
  CHECK(r.out.find("\n6,partial,st,4,16,1,1,0,1,yes,,\n") != std::string::npos);
}

TEST_CASE("replay: JSON totals of the example, read from stdin") {
  const Run r = bankcheck("replay --model dmm --json -", kExample);
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  // wavefronts 1+1+32+1+2+1+1 = 39; ideal 7; lanes 6*32+16 = 208.
  CHECK(doc["totals"]["instructions"] == 7);
  CHECK(doc["totals"]["wavefronts"] == 39);
  CHECK(doc["totals"]["ideal"] == 7);
  CHECK(doc["totals"]["conflicts"] == 32);
  CHECK(doc["totals"]["lane_accesses"] == 208);
  CHECK(doc["totals"]["worst_degree"] == 32);
  CHECK(doc["sites"].size() == 6);
  CHECK(doc["sites"][1]["site"] == "tile.column");
}

TEST_CASE("convert: text -> bin -> text round trip, and bad input exits 2") {
  const fs::path bin = scratch() / "ex.bktrace", back = scratch() / "ex.trace", cut = scratch() / "cut.bktrace";
  REQUIRE(bankcheck("convert '" + kExample + "' '" + bin.string() + "'").code == 0);
  REQUIRE(bankcheck("convert '" + bin.string() + "' '" + back.string() + "'").code == 0);
  // the same counts either way
  const Run a = bankcheck("replay --model dmm --csv '" + kExample + "'");
  const Run b = bankcheck("replay --model dmm --csv '" + bin.string() + "'");
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out == bankcheck("replay --model dmm --csv '" + back.string() + "'").out);
  // truncated binary: file and byte offset
  const std::string bytes = read_file(bin);
  write_file(cut, bytes.substr(0, bytes.size() - 12));
  const Run t = bankcheck("replay --model dmm '" + cut.string() + "'");
  CHECK(t.code == 2);
  CHECK(t.err.find(cut.string() + ": byte ") != std::string::npos);
  // unknown output extension without --to
  const Run u = bankcheck("convert '" + kExample + "' '" + (scratch() / "x.out").string() + "'");
  CHECK(u.code == 2);
  CHECK(u.err.find("--to text|bin") != std::string::npos);
  // --to to stdout
  const Run s = bankcheck("convert '" + bin.string() + "' - --to text");
  CHECK(s.code == 0);
  CHECK(s.out.rfind("warp 32\n@tile.row ld 4 0 4 8 ", 0) == 0);
}

TEST_CASE("convert: --address-bytes 4 halves the binary and replays the same; other sizes exit 2") {
  const fs::path wide = scratch() / "ex8.bktrace", narrow = scratch() / "ex4.bktrace", bad = scratch() / "ex3.bktrace";
  REQUIRE(bankcheck("convert '" + kExample + "' '" + wide.string() + "'").code == 0);
  REQUIRE(bankcheck("convert '" + kExample + "' '" + narrow.string() + "' --address-bytes 4").code == 0);
  CHECK(fs::file_size(narrow) < fs::file_size(wide) * 6 / 10);
  const Run a = bankcheck("replay --model sm90 --per-instruction --csv '" + wide.string() + "'");
  CHECK(a.code == 0);
  CHECK(a.out == bankcheck("replay --model sm90 --per-instruction --csv '" + narrow.string() + "'").out);
  const Run r = bankcheck("convert '" + kExample + "' '" + bad.string() + "' --address-bytes 3");
  CHECK(r.code == 2);
  CHECK(r.err.find("--address-bytes") != std::string::npos);
  CHECK_FALSE(fs::exists(bad));
}

TEST_CASE("replay: a one-line verdict and where the worst conflict is") {
  // example.trace's instruction 2 (@tile.column) loads 32 words 128 bytes
  // apart: 32 distinct words, all in bank 0 of 32 four-byte banks; the trace
  // has 39 wavefronts of which 32 are conflicts (7 instructions, 7 ideal).
  const Run r = bankcheck("replay --model sm90 '" + kExample + "'");
  CHECK(r.code == 0);
  CHECK(r.out.find("verdict: 32 of 39 wavefronts are bank conflicts (82.1%); worst 32-way\n") != std::string::npos);
  CHECK(r.out.find("worst conflict: instruction 2 (tile.column, ld 4): bank 0 serves 32 distinct words to lanes 0-31\n") !=
        std::string::npos);
  const Run j = bankcheck("replay --model sm90 --json '" + kExample + "'");
  CHECK(j.out.find("\"worst\": {") != std::string::npos);
  // Lanes 1 and 3 read words 8 apart on 8 banks: bank 1, a 2-way conflict of lanes 1 and 3.
  const fs::path two = scratch() / "two_way.trace", none = scratch() / "none.trace";
  write_file(two, "warp 4\n@ok ld 4 0 4 8 12\n@two ld 4 - 4 - 36\n");
  const Run t = bankcheck("replay --banks 8 --bank-bytes 4 --warp 4 '" + two.string() + "'");
  CHECK(t.out.find("verdict: 1 of 3 wavefronts are bank conflicts (33.3%); worst 2-way\n") != std::string::npos);
  CHECK(t.out.find("worst conflict: instruction 1 (two, ld 4): bank 1 serves 2 distinct words to lanes 1,3\n") !=
        std::string::npos);
  write_file(none, "warp 4\nld 4 0 4 8 12\n");
  const Run n = bankcheck("replay --banks 8 --bank-bytes 4 --warp 4 '" + none.string() + "'");
  CHECK(n.out.find("verdict: conflict-free (1 wavefronts, the ideal)\n") != std::string::npos);
  CHECK(n.out.find("worst conflict") == std::string::npos);
}

TEST_CASE("replay: unmodelled kinds are reported in text, JSON and CSV, and never make a trace conflict-free") {
  const std::string trace =
      "warp 2\n"
      "at launch=0 block=0,0,0 warp=0\n"
      "@k+0x10 atom 4 0 4\n"
      "@k+0x20 ldsm 16 0 -\n";
  const fs::path small = scratch() / "unmodelled2.trace";
  write_file(small, trace);
  const Run t = bankcheck("replay '" + small.string() + "'");
  CHECK(t.code == 2);  // sm90 needs warp 32
  std::string full = "at launch=0 block=0,0,0 warp=0\n@k+0x10 atom 4";
  for (int l = 0; l < 32; ++l) full += " " + std::to_string(4 * l);
  full += "\n@k+0x20 ld 4";
  for (int l = 0; l < 32; ++l) full += " " + std::to_string(4 * l);
  full += "\n";
  const fs::path both = scratch() / "unmodelled.trace", atom = scratch() / "atom.trace";
  write_file(both, full);
  write_file(atom, full.substr(0, full.find("@k+0x20")));
  const std::string f = " '" + both.string() + "'";
  const Run r = bankcheck("replay" + f);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("1 instructions of kind 'atom 4' not modelled (32 lane accesses)") != std::string::npos);
  CHECK(r.out.find("verdict: no conflict in the 1 modelled instructions, but 1 instructions are not modelled: not "
                   "shown conflict-free") != std::string::npos);
  const Run only = bankcheck("replay '" + atom.string() + "'");
  CHECK(only.out.find("verdict: unknown: none of the 1 instructions is modelled") != std::string::npos);
  const Run j = bankcheck("replay --json" + f);
  CHECK(j.out.find("\"conflict_free\": false") != std::string::npos);
  CHECK(j.out.find("1 instructions of kind 'atom 4' not modelled") != std::string::npos);
  const Run c = bankcheck("replay --csv" + f);
  CHECK(c.out.find("unmodelled,1 instructions of kind 'atom 4' not modelled (32 lane accesses),1,32") != std::string::npos);
  const Run p = bankcheck("replay --per-instruction --csv" + f);
  CHECK(p.out.find("0,k+0x10,atom,4,32,0,0,0,0,no,0:0.0.0:0,") != std::string::npos);
}
