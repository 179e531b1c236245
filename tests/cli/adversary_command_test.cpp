// bankcheck adversary, end to end through the built binary: files, formats,
// the round trip into `bankcheck run`, exit codes and messages.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.hpp"
#include "tests/pipe_output.hpp"
#include "tests/scratch.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace adversary_command_test {

namespace {
using Result = bankcheck::test::CliResult;

/// Runs the CLI and keeps every byte it prints (stdout and stderr), NULs included.
Result run(const std::string& args) {
  int status = 0;
  const std::string out = bankcheck::test::pipe_output(std::string(BANKCHECK_CLI) + " " + args + " 2>&1", &status);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, {}, {}};  // 2>&1: no separate streams
}
std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::path(bankcheck::test::scratch("adversary_test_" + name));
}
std::vector<std::int32_t> int32s(const std::string& bytes) {
  std::vector<std::int32_t> keys(bytes.size() / 4);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t(static_cast<unsigned char>(bytes[i * 4 + b])) << (8 * b);
    keys[i] = static_cast<std::int32_t>(v);
  }
  return keys;
}
std::vector<std::int64_t> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::int64_t> v;
  for (std::int64_t x; in >> x;) v.push_back(x);
  return v;
}
bool printable(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f); });
}
}  // namespace

TEST_CASE("the default output is text that `run --input` reads, for every construction") {
  struct Case {
    std::string adversary, run;
  };
  for (const Case& c : {Case{"pbs w=32 K=4096 queries=64", "run pbs w=32 K=4096 queries=64"},
                        Case{"merge w=8 E=3 n=48", "run merge --model dmm w=8 E=3 u=16 a_size=24"},
                        Case{"merge-sort u=64 E=3 n=768", "run merge-sort u=64 E=3"}}) {
    CAPTURE(c.adversary);
    const auto path = scratch("in.txt");
    const auto made = run("adversary " + c.adversary + " -o " + path.string());
    REQUIRE(made.code == 0);
    CHECK(made.out.find("(text)") != std::string::npos);
    CHECK(printable(slurp(path)));
    const auto replayed = run(c.run + " --input " + path.string());
    CHECK(replayed.code == 0);
    CHECK(replayed.out.find("output check: ok") != std::string::npos);
    std::filesystem::remove(path);
  }
}

TEST_CASE("pbs text: Corollary 4.1's queries as values 2j+1 of the keys") {
  const auto path = scratch("q.txt");
  REQUIRE(run("adversary pbs K=4096 queries=64 -o " + path.string()).code == 0);
  const auto v = numbers(slurp(path));
  REQUIRE(v.size() == 64);
  CHECK(v[0] == 1);    // K[0] = 1 (keys 1, 3, 5, ...), lane 0 of Corollary 4.1 with C = 0
  CHECK(v[1] == 257);  // K[128] = 257: lane 1 queries K[K/w]
  std::filesystem::remove(path);
}

TEST_CASE("binary on request (.bin or --format bin); run refuses it with a clean message") {
  const auto bin = scratch("cub.bin"), other = scratch("cub.keys");
  const std::uint64_t n = 4352 * 4;
  const auto r = run("adversary cub-merge-sort n=" + std::to_string(n) + " -o " + bin.string());
  REQUIRE(r.code == 0);
  CHECK(r.out.find("global runs=2 tile(s)") != std::string::npos);
  const std::string bytes = slurp(bin);
  REQUIRE(bytes.size() == n * 4);
  std::vector<std::int32_t> sorted = int32s(bytes), iota(n);
  std::sort(sorted.begin(), sorted.end());
  std::iota(iota.begin(), iota.end(), 0);
  CHECK(sorted == iota);
  REQUIRE(run("adversary cub-merge-sort n=" + std::to_string(n) + " --format bin -o " + other.string()).code == 0);
  CHECK(slurp(other) == bytes);
  const auto refused = run("run merge-sort u=256 E=17 --input " + bin.string());
  CHECK(refused.code == 2);
  CHECK(refused.out.find(bin.string() + ":1: binary data") != std::string::npos);
  CHECK(printable(refused.out));  // no raw bytes, and not cut at a NUL
  std::filesystem::remove(bin);
  std::filesystem::remove(other);
}

TEST_CASE("merge-sort: text and binary are the same permutation, the one `run --input worst` replays") {
  const auto text = scratch("ms.txt"), bin = scratch("ms.bin");
  const std::string args = "adversary merge-sort u=64 E=3 n=768 ";
  REQUIRE(run(args + "-o " + text.string()).code == 0);
  REQUIRE(run(args + "-o " + bin.string()).code == 0);
  const auto from_text = numbers(slurp(text));
  const auto from_bin = int32s(slurp(bin));
  CHECK(std::equal(from_text.begin(), from_text.end(), from_bin.begin(), from_bin.end()));
  const auto file = run("run merge-sort u=64 E=3 n=768 --input " + text.string());
  const auto worst = run("run merge-sort u=64 E=3 n=768 --input worst");
  REQUIRE(file.code == 0);
  // The "by site" table, which names no input.
  const auto sites = [](const std::string& s) {
    const auto at = s.find("by site");
    return s.substr(at, s.find("\n\n", at) - at);
  };
  CHECK(sites(file.out) == sites(worst.out));
  std::filesystem::remove(text);
  std::filesystem::remove(bin);
}

TEST_CASE("every numeric parameter is range-checked: exit 2, the range in the message, no file") {
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : {Case{"pbs queries=-5", "queries: must be an integer in 1.."},
                        Case{"merge n=-5", "n: must be an integer in 0.."},
                        Case{"merge E=0", "E: must be an integer in 2..1024 (got 0"},
                        Case{"merge w=1", "w: must be an integer in 2..1024"},
                        Case{"merge --seed -1", "--seed: must be an integer in 0..18446744073709551615 (got -1)"},
                        Case{"pbs --search --iterations 0", "--iterations: must be an integer in 1.."},
                        Case{"merge-sort --pass-iterations -3", "--pass-iterations: must be an integer in 1.."},
                        Case{"pbs --search --time-limit -1", "--time-limit: must be a number in"},
                        Case{"merge bogus=3", "merge has no parameter 'bogus'"},
                        Case{"merge E=x", "E: must be an integer in"},
                        Case{"pbs K=4000 queries=32", "nearest valid value: 4096"},
                        Case{"pbs K=100 queries=32 --construction lemma", "K >= 2w^2"},
                        Case{"merge E=17 n=1000", "nearest valid value: 1088"},
                        Case{"cub-merge-sort n=5000", "nearest valid value: 4352"},
                        Case{"spaa-merge-sort n=7681", "nearest valid value: 7680"}}) {
    CAPTURE(c.args);
    const auto path = scratch("bad.txt");
    std::filesystem::remove(path);
    const auto r = run("adversary " + c.args + " -o " + path.string());
    CHECK(r.code == 2);
    CHECK(r.out.find(c.expect) != std::string::npos);
    CHECK(!std::filesystem::exists(path));
  }
}

TEST_CASE("--search -o writes the best input, which `run` replays") {
  const auto path = scratch("best.txt");
  const auto r = run("adversary pbs --search w=4 K=16 u=4 --iterations 400 -o " + path.string());
  REQUIRE(r.code == 0);
  REQUIRE(std::filesystem::exists(path));
  CHECK(numbers(slurp(path)).size() == 4);
  const auto replay_at = r.out.find("`bankcheck run ");
  REQUIRE(replay_at != std::string::npos);
  const std::string replay = r.out.substr(replay_at + 11, r.out.find('`', replay_at + 1) - replay_at - 11);
  const auto replayed = run(replay);
  CHECK(replayed.code == 0);
  std::filesystem::remove(path);
}

TEST_CASE("--search is deterministic for a seed; a time limit is reported") {
  const std::string args = "adversary pbs --search w=8 K=64 --iterations 300 ";
  const auto a = run(args + "--seed 7"), b = run(args + "--seed 7");
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("annealing, seed 7") != std::string::npos);
  CHECK(a.out.find("time-limit") == std::string::npos);
  const auto cut = run("adversary pbs --search w=32 K=1024 --iterations 100000000 --time-limit 0.2");
  REQUIRE(cut.code == 0);
  CHECK(cut.out.find("stopped by --time-limit") != std::string::npos);
}

TEST_CASE("--search names: merge-warp is the one-warp labeling search, registry names search the registry") {
  // merge-warp, w = 4, E = 3: exhaustive over all 2^12 labelings; the maximum 8 is Theorem 8
  // ((E^2 + 2Er + Ed - r^2 - rd)/2 with d = 1, r = 1: (9 + 6 + 3 - 1 - 1)/2 = 8), below E^2 = 9.
  const auto warp = run("adversary merge-warp --search w=4 E=3");
  REQUIRE(warp.code == 0);
  CHECK(warp.out.find("best found    8 (exhaustive: the maximum)") != std::string::npos);
  CHECK(warp.out.find("construction  8") != std::string::npos);
  const auto merge = run("adversary merge --search u=32 E=3 w=8 --iterations 200");
  REQUIRE(merge.code == 0);
  CHECK(merge.out.find("search merge (dmm, w = 8)") != std::string::npos);
  const auto sort = run("adversary cub-merge-sort --search");
  CHECK(sort.code == 2);
  CHECK(sort.out.find("merge-sort E=17 u=256 --search") != std::string::npos);
}

TEST_CASE("no progress bar when stderr is not a terminal") {
  const auto r = run("adversary pbs --search w=8 K=64 --iterations 2000");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("[#") == std::string::npos);
}

}  // namespace adversary_command_test
