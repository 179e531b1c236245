// `bankcheck run` / `bankcheck trace` end to end: exit codes and the printed comparison.
#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "tests/support/theorem8.hpp"

namespace {
using Result = bankcheck::test::CliResult;
Result sh(const std::string& args) { return bankcheck::test::run_cli(args); }
}  // namespace

TEST_CASE("run prints the replayed count beside A_PBS and exits 0 when it holds") {
  auto r = sh("run pbs w=32 K=1024 queries=64 u=32 --input worst --model dmm");
  CHECK(r.code == 0);
  // 2 warps * (32*(10-5+1)-1) = 382, computed by hand.
  CHECK(r.out.find("wavefronts = 382 (model dmm), replayed 382: holds") != std::string::npos);
}

TEST_CASE("wrong answers exit 1; bad parameters exit 2 naming the constraint") {
  // HiPC's PBS-CF/CL as printed miss predecessors (formula-findings.md item 7); the default is corrected.
  CHECK(sh("run pbs-cf w=32 K=1000 queries=320 printed=1").code == 1);
  CHECK(sh("run pbs-cl w=32 K=1000 queries=320 printed=1").code == 1);
  CHECK(sh("run pbs-cf w=32 K=1000 queries=320").code == 0);
  CHECK(sh("run pbs-cl w=32 K=1000 queries=320").code == 0);
  CHECK(sh("run pbs-cf").code == 0);
  CHECK(sh("run pbs-cl").code == 0);
  auto bad = sh("run pbs-cf w=32 K=16 printed=1");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("K >= w") != std::string::npos);
  CHECK(sh("run pbs-cl printed=3").code == 2);
  CHECK(sh("run pbs w=x").code == 2);
  CHECK(sh("run nosuch").code == 2);
}

namespace {
// SPAA 2025 Theorem 8 summed over the d = gcd(w, E) subproblems, from the paper.
using bankcheck::test::theorem8_per_warp;
std::uint64_t number_after(const std::string& text, const std::string& marker) {
  const auto at = text.find(marker);
  REQUIRE(at != std::string::npos);
  return std::stoull(text.substr(at + marker.size()));
}
// The totals row of a run's CSV.
std::string total_line(const std::string& csv) {
  const auto at = csv.find("\ntotal,");
  REQUIRE(at != std::string::npos);
  return csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
}
}  // namespace

TEST_CASE("run merge / cf-merge --input worst: SPAA Section 4 tiles, Theorem 8 beside the replayed count") {
  CHECK(theorem8_per_warp(32, 17) == 288);  // the paper's w = 32, E = 17 example (docs/adversaries.md)
  struct Shape { std::uint64_t w, E, u; };
  for (const Shape s : {Shape{32, 17, 64}, Shape{32, 15, 256}, Shape{32, 8, 64}, Shape{12, 5, 24}, Shape{9, 6, 18},
                        Shape{8, 7, 32}, Shape{16, 16, 32}, Shape{4, 2, 8}})
    for (int kb : {4, 8}) {
      CAPTURE(s.w); CAPTURE(s.E); CAPTURE(s.u); CAPTURE(kb);
      const std::string params = "w=" + std::to_string(s.w) + " E=" + std::to_string(s.E) + " u=" + std::to_string(s.u) +
                                 " key_bytes=" + std::to_string(kb) + " blocks=2";
      auto r = sh("run merge " + params + " --input worst --model dmm");
      CHECK(r.code == 0);
      CHECK(r.out.find("output check: ok") != std::string::npos);
      const std::uint64_t expect = theorem8_per_warp(s.w, s.E) * (s.u / s.w) * 2;  // 2 blocks
      CHECK(number_after(r.out, "wavefronts >= ") == expect);
      // Theorem 8 is reached: CUB's reads of the merged items cost at least the paper's steps.
      CHECK(number_after(r.out, "replayed ") >= expect);
      CHECK(r.out.find(": holds") != std::string::npos);
      // The worst case is worse than random inputs of the same shape.
      auto random = sh("run merge " + params + " --input random --model dmm");
      const auto replayed = number_after(r.out, "replayed ");
      std::uint64_t random_reads = 0;
      for (const char* site : {"merge.init_a", "merge.init_b", "merge.merge_read"}) {
        const auto at = random.out.find(std::string("  ") + site);
        REQUIRE(at != std::string::npos);
        std::istringstream row(random.out.substr(at));
        std::string name;
        std::uint64_t instructions = 0, lanes = 0, wavefronts = 0;
        row >> name >> instructions >> lanes >> wavefronts;
        random_reads += wavefronts;
      }
      CHECK(replayed > random_reads);
      // CF-Merge on the same worst-case tile: conflict free (Section 3).
      auto cf = sh("run cf-merge " + params + " --input worst --model dmm");
      CHECK(cf.code == 0);
      CHECK(cf.out.find("conflicts = 0 (model dmm), replayed 0: holds") != std::string::npos);
    }
  // Outside Section 4's domain: exit 2 naming the constraint.
  auto e1 = sh("run merge w=32 E=1 --input worst");
  CHECK(e1.code == 2);
  CHECK(e1.out.find("1 < E <= w") != std::string::npos);
  auto e33 = sh("run cf-merge w=32 E=33 --input worst");
  CHECK(e33.code == 2);
  CHECK(e33.out.find("1 < E <= w") != std::string::npos);
  auto u48 = sh("run merge w=32 E=15 u=48 --input worst");
  CHECK(u48.code == 2);
  CHECK(u48.out.find("u a multiple of w") != std::string::npos);
  CHECK(sh("run merge a_size=100 --input worst").code == 2);
}

TEST_CASE("every registered algorithm accepts --input worst (or says why not)") {
  // How each algorithm's worst case is defined (not read from the registry): a
  // published construction ("paper"), a construction plus search
  // ("searched"), or none needed because its addresses do not depend on the
  // data ("oblivious"). An algorithm missing here fails the test.
  const std::map<std::string, std::string> kind = {
      {"pbs", "paper"},           {"pbs-cf", "paper"},         {"pbs-cl", "paper"},
      {"merge", "paper"},         {"cf-merge", "paper"},       {"strided", "oblivious"},
      {"transpose", "oblivious"}, {"transpose-padded", "oblivious"}, {"transpose-swizzled", "oblivious"},
      {"scan", "oblivious"},      {"scan-padded", "oblivious"}, {"bitonic", "oblivious"},
      {"split", "paper"},         {"split-thread-major", "paper"}, {"css", "paper"},
      {"css-padded", "paper"},    {"aho-sm1", "oblivious"},    {"aho-sm2", "oblivious"},
      {"aho-skewed", "oblivious"},  {"merge-sort", "searched"}, {"gms", "paper"}, {"btree", "paper"}};
  // Small instances where the defaults are large.
  const std::map<std::string, std::string> small = {
      {"pbs", " K=256 queries=64 u=32"}, {"pbs-cf", " K=256 queries=64 u=32"}, {"pbs-cl", " K=256 queries=64 u=32"},
      {"merge-sort", " w=8 E=3 u=16"}};
  for (const auto& spec : bankcheck::algorithms()) {
    CAPTURE(spec.name);
    REQUIRE(kind.contains(spec.name));
    const std::string params = small.contains(spec.name) ? small.at(spec.name) : "";
    auto worst = sh("run " + spec.name + params + " --input worst --model dmm");
    CHECK(worst.code == 0);
    CHECK(worst.out.find("worst case: ") != std::string::npos);
    if (kind.at(spec.name) == "oblivious") {
      // Any input is a worst case: random inputs with other seeds replay the same counts.
      const std::string worst_total = total_line(sh("run " + spec.name + " --input worst --model dmm --csv").out);
      CHECK(total_line(sh("run " + spec.name + " --input random --seed 2 --model dmm --csv").out) == worst_total);
      CHECK(total_line(sh("run " + spec.name + " --input random --seed 3 --model dmm --csv").out) == worst_total);
    }
  }
  // An algorithm without a worst case would be refused with a message saying so.
  bankcheck::AlgorithmSpec none;
  none.name = "toy";
  CHECK_THROWS_WITH_AS(bankcheck::require_worst_case(none, bankcheck::InputChoice::parse("worst", 1)),
                       doctest::Contains("no published or searched worst-case input"), std::invalid_argument);
  CHECK_NOTHROW(bankcheck::require_worst_case(none, bankcheck::InputChoice::parse("random", 1)));
  CHECK(sh("run pbs K=100 --input worst").code == 2);
}

TEST_CASE("json and csv outputs in the shared schema; trace writes a text trace") {
  auto j = sh("run cf-merge w=8 E=6 u=16 --json --model dmm");
  CHECK(j.code == 0);
  const auto doc = nlohmann::json::parse(j.std_out);
  CHECK(doc["schema_version"] == 3);
  CHECK(doc["command"] == "run");
  CHECK(doc["inputs"][0]["algorithm"] == "cf-merge");
  CHECK(doc["inputs"][0]["params"]["E"] == 6);
  CHECK(doc["prediction"]["holds"] == true);
  CHECK(doc["prediction"]["replayed"] == 0);  // the gather and scatter: conflict-free (SPAA Section 3)
  CHECK(doc["verdict"] == (doc["totals"]["conflicts"] == 0 ? "conflict-free" : "conflicts"));
  CHECK(doc["totals"].contains("unmodelled"));
  auto c = sh("run merge w=8 E=3 u=8 --csv --per-round --model dmm");
  CHECK(c.out.rfind("scope,site,index,location,op,width,phase,k,instructions,", 0) == 0);
  CHECK(c.out.find("\nround,merge.merge_read,,,,,1,0,") != std::string::npos);
  const std::string path = bankcheck::test::scratch("run_command_test.trace");
  CHECK(sh("trace pbs w=4 K=16 queries=4 u=4 -o " + path).code == 0);
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  CHECK(first == "warp 4");
}

TEST_CASE("run: the default model is sm90; another warp size needs --model dmm, and the message says so") {
  const auto doc = nlohmann::json::parse(sh("run strided --json").std_out);
  CHECK(doc["model"] == "sm90");
  auto r = sh("run strided w=12");
  CHECK(r.code == 2);
  CHECK(r.std_err.find("use --model dmm") != std::string::npos);
  // --warp is the same as w=.
  const auto a = nlohmann::json::parse(sh("run strided --warp 12 --model dmm --json").std_out);
  const auto b = nlohmann::json::parse(sh("run strided w=12 --model dmm --json").std_out);
  CHECK(a["totals"] == b["totals"]);
  CHECK(a["warp"] == 12);
  CHECK(sh("run strided w=12 --warp 16 --model dmm").code == 2);
}

TEST_CASE("run: the worst conflict names its block, warp, phase and round, with bank and lanes") {
  // SPAA 2025 Figure 1 (right): w = 12 lanes read elements 6t; cells 6t mod 12 are
  // 0 (t even) and 6 (t odd): 6-way in bank 0 (lanes 0,2,...,10) and in bank 6.
  const auto doc = nlohmann::json::parse(sh("run strided w=12 stride=6 u=12 --model dmm --json").std_out);
  REQUIRE(doc["worst"].is_object());
  CHECK(doc["worst"]["degree"] == 6);
  CHECK(doc["worst"]["bank"] == 0);
  CHECK(doc["worst"]["lanes"] == std::vector<unsigned>{0, 2, 4, 6, 8, 10});
  CHECK(doc["worst"]["location"] == "block 0 warp 0 phase 0 round 0");
  const auto text = sh("run strided w=12 stride=6 u=12 --model dmm").std_out;
  CHECK(text.find("worst conflict: instruction 0 (strided.read, ld 4) at block 0 warp 0 phase 0 round 0: bank 0 "
                  "serves 6 distinct words to lanes 0,2,4,6,8,10") != std::string::npos);
}

TEST_CASE("run: numeric options and parameters are range-checked, the range in the message") {
  struct Case {
    std::string args, message;
  };
  for (const Case& c :
       {Case{"run pbs --seed -1", "--seed: must be an integer in 0..18446744073709551615 (got -1)"},
        Case{"run pbs --seed 0x10", "--seed: must be an integer in 0..18446744073709551615 (got 0x10)"},
        Case{"run pbs --seed 18446744073709551616", "--seed: must be an integer in 0..18446744073709551615"},
        Case{"run pbs --warp 0", "--warp: must be an integer in 1..65536 (got 0)"},
        Case{"run pbs w=99999999999999999999", "parameter w: must be an integer in -9223372036854775808.."},
        Case{"run pbs w=-1", "w must be in 1..1024 (got -1)"},
        Case{"run pbs w=0", "w must be in 1..1024 (got 0)"},
        Case{"run pbs K=-5", "K must be in 1..2^30 (got -5)"},
        Case{"run pbs w=32 w=16", "parameter w is given twice"},
        Case{"run pbs w", "must be name=value"},
        Case{"run pbs --fail-on-conflicts=-2", "--fail-on-conflicts: must be an integer in 0.."}}) {
    CAPTURE(c.args);
    auto r = sh(c.args);
    CHECK(r.code == 2);
    CHECK(r.std_err.find(c.message) != std::string::npos);
  }
}

TEST_CASE("run: --fail-on-conflicts and --site gate a run for CI") {
  // strided stride=6 on 12 banks: one instruction, 6 wavefronts, 5 conflicts; stride 5: conflict-free.
  CHECK(sh("run strided w=12 stride=6 u=12 --model dmm --fail-on-conflicts").code == 1);
  CHECK(sh("run strided w=12 stride=6 u=12 --model dmm --fail-on-conflicts=4").code == 1);
  CHECK(sh("run strided w=12 stride=6 u=12 --model dmm --fail-on-conflicts=5").code == 0);
  CHECK(sh("run strided w=12 stride=5 u=12 --model dmm --fail-on-conflicts").code == 0);
  auto none = sh("run strided w=12 stride=6 u=12 --model dmm --site nosuch");
  CHECK(none.code == 2);
  CHECK(none.std_out.find("verdict: no accesses") != std::string::npos);
}

TEST_CASE("run and trace: -o writes atomically; a failing trace leaves no partial file") {
  const std::string json = bankcheck::test::scratch("run.json");
  CHECK(sh("run strided --json -o " + json).code == 0);
  CHECK(nlohmann::json::parse(bankcheck::test::slurp(json))["command"] == "run");
  // A query file with a bad line fails after the trace was begun: no file, an older one kept.
  const std::string queries = bankcheck::test::scratch("bad_queries.txt"), out = bankcheck::test::scratch("part.trace");
  bankcheck::test::write_text(queries, "1\n3\nseven\n");
  auto r = sh("trace pbs w=4 K=16 u=4 --input " + queries + " -o " + out);
  CHECK(r.code == 2);
  CHECK(r.std_err.find(queries + ":3:") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  bankcheck::test::write_text(out, "older");
  CHECK(sh("trace pbs w=4 K=16 u=4 --input " + queries + " -o " + out).code == 2);
  CHECK(bankcheck::test::slurp(out) == "older");
  // An output that cannot be created, and an output that is the input.
  auto d = sh("trace pbs w=4 K=16 u=4 -o /nonexistent/dir/t.trace");
  CHECK(d.code == 2);
  CHECK(d.std_err.find("/nonexistent/dir/t.trace") != std::string::npos);
  bankcheck::test::write_text(queries, "1 3 5 7\n");
  CHECK(sh("trace pbs w=4 K=16 u=4 --input " + queries + " -o " + queries).code == 2);
  CHECK(bankcheck::test::slurp(queries) == "1 3 5 7\n");
}

TEST_CASE("run: every algorithm parameter refuses negative, huge and non-integer values with its range, never hangs") {
  // Each value either runs (it is in the parameter's range) or exits 2 naming the range; a value
  // that would run for hours (2^62 queries) must be out of range, so the time limit catches it.
  for (const auto& spec : bankcheck::algorithms())
    for (const auto& p : spec.params)
      for (const std::string value : {"-1", "4611686018427387904", "9223372036854775808"}) {
        CAPTURE(spec.name);
        CAPTURE(p.name);
        CAPTURE(value);
        const auto r = bankcheck::test::run_cli("run " + spec.name + " " + p.name + "=" + value + " --model dmm", "", 60);
        CHECK(r.code != 124);  // no time-out
        CHECK((r.code == 0 || r.code == 1 || r.code == 2));
        if (r.code == 2) {
          CHECK(r.std_err.find("bankcheck: error: ") == 0);
          CHECK((r.std_err.find("..") != std::string::npos || r.std_err.find(" or ") != std::string::npos ||
                 r.std_err.find(">=") != std::string::npos));
        }
      }
}
