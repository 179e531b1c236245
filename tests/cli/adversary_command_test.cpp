// bankcheck adversary, end to end through the built binary: files, formats,
// exit codes and the messages for parameters outside a construction's domain.
#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"
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

namespace {
using Result = bankcheck::test::CliResult;
Result run(const std::string& args) { return bankcheck::test::run_cli(args); }
std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::filesystem::path scratch(const std::string& name) { return bankcheck::test::scratch_dir() / name; }
}  // namespace

TEST_CASE("cub-merge-sort writes a little-endian int32 permutation equal to the library's") {
  const auto path = scratch("cub.bin");
  const std::uint64_t n = 4352 * 4;
  const auto r = run("adversary cub-merge-sort --n " + std::to_string(n) + " -o " + path.string());
  REQUIRE(r.code == 0);
  CHECK(r.out.find("global runs=2 tile(s)") != std::string::npos);
  const std::string bytes = slurp(path);
  REQUIRE(bytes.size() == n * 4);
  std::vector<std::int32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t(static_cast<unsigned char>(bytes[i * 4 + b])) << (8 * b);
    keys[i] = static_cast<std::int32_t>(v);
  }
  std::vector<std::int32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  CHECK(sorted == iota);
  std::filesystem::remove(path);
}

TEST_CASE("text format: one key per line") {
  const auto path = scratch("q.txt");
  const auto r = run("adversary pbs --keys 4096 --n 64 --format text -o " + path.string());
  REQUIRE(r.code == 0);
  std::istringstream in(slurp(path));
  std::vector<long> v;
  for (long x; in >> x;) v.push_back(x);
  REQUIRE(v.size() == 64);
  CHECK(v[0] == 1);    // K[0] = 1 (keys 1, 3, 5, ...), lane 0 of Corollary 4.1 with C = 0
  CHECK(v[1] == 257);  // K[128] = 257: lane 1 queries K[K/w]
  std::filesystem::remove(path);
}

TEST_CASE("outside a construction's domain: exit 2, the constraint, the nearest valid value, no file") {
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : {Case{"pbs --keys 4000 --n 32", "nearest valid value: 4096"},
                        Case{"pbs --keys 100 --n 32 --construction lemma", "K >= 2w^2"},
                        Case{"merge -E 1 --n 1088", "1 < E <= w"},
                        Case{"merge -E 17 --n 1000", "nearest valid value: 1088"},
                        Case{"cub-merge-sort --n 5000", "nearest valid value: 4352"},
                        Case{"spaa-merge-sort --n 7681", "nearest valid value: 7680"}}) {
    CAPTURE(c.args);
    const auto path = scratch("bad.bin");
    std::filesystem::remove(path);
    const auto r = run("adversary " + c.args + " -o " + path.string());
    CHECK(r.code == 2);
    CHECK(r.out.find(c.expect) != std::string::npos);
    CHECK(!std::filesystem::exists(path));
  }
}

TEST_CASE("--search names: merge-warp is the one-warp labeling search, registry names search the registry") {
  // merge-warp, w = 4, E = 3: exhaustive over all 2^12 labelings; the maximum 8 is Theorem 8
  // ((E^2 + 2Er + Ed - r^2 - rd)/2 with d = 1, r = 1: (9 + 6 + 3 - 1 - 1)/2 = 8), below E^2 = 9.
  const auto warp = run("adversary merge-warp --search -w 4 -E 3 --budget 5");
  REQUIRE(warp.code == 0);
  CHECK(warp.out.find("best found    8 (exhaustive: the maximum)") != std::string::npos);
  CHECK(warp.out.find("construction  8") != std::string::npos);
  // `merge` with --search is the registry's merge (its file input: A then B).
  const auto merge = run("adversary merge --search --budget 0.2 --param u=32 --param E=3 --param w=8");
  REQUIRE(merge.code == 0);
  CHECK(merge.out.find("search merge (dmm, w = 8)") != std::string::npos);
  // Construction-only names are not algorithms: exit 2 with the way to search the sort.
  const auto sort = run("adversary cub-merge-sort --search");
  CHECK(sort.code == 2);
  CHECK(sort.out.find("merge-sort --param E=17 --param u=256") != std::string::npos);
}

TEST_CASE("merge-sort text output is streamed tile by tile and is the same permutation as the binary file") {
  const auto text = scratch("ms.txt"), bin = scratch("ms.bin");
  // u = 64, E = 3, w = 32: tile 192, 4 tiles (two global passes). The in-block passes with
  // m < 2w enumerate all w^E = 32^3 target sequences (exact, no time limit), so both runs build
  // the same plan and must write the same permutation.
  const std::string args = "adversary merge-sort --threads 64 -E 3 --n 768 ";
  REQUIRE(run(args + "--format text -o " + text.string()).code == 0);
  REQUIRE(run(args + "-o " + bin.string()).code == 0);
  std::istringstream in(slurp(text));
  std::vector<std::int32_t> from_text;
  for (long x; in >> x;) from_text.push_back(static_cast<std::int32_t>(x));
  const std::string bytes = slurp(bin);
  REQUIRE(bytes.size() == 768 * 4);
  std::vector<std::int32_t> from_bin(768);
  for (std::size_t i = 0; i < 768; ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t(static_cast<unsigned char>(bytes[i * 4 + b])) << (8 * b);
    from_bin[i] = static_cast<std::int32_t>(v);
  }
  CHECK(from_text == from_bin);
  std::vector<std::int32_t> sorted = from_bin, iota(768);
  std::sort(sorted.begin(), sorted.end());
  std::iota(iota.begin(), iota.end(), 0);
  CHECK(sorted == iota);
  std::filesystem::remove(text);
  std::filesystem::remove(bin);
}
