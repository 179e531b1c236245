// bankcheck draw, end to end through the built binary.
#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {
using Result = bankcheck::test::CliResult;
Result run(const std::string& args) { return bankcheck::test::run_cli(args); }
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("draw: SPAA Figure 1 strides on 12 banks, svg and png") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto svg = (dir / "bankcheck_draw_test.svg").string(), png = (dir / "bankcheck_draw_test.png").string();
  auto r = run("draw strided w=12 stride=6 u=12 --round 0 -o " + svg);
  CHECK(r.code == 0);
  CHECK(r.out.find("6 wavefronts, 5 conflicts") != std::string::npos);
  const std::string text = slurp(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("#f07b72") != std::string::npos);  // red conflict cells
  r = run("draw strided w=12 stride=5 u=12 --label thread -o " + png);
  CHECK(r.code == 0);
  CHECK(r.out.find("1 wavefronts, 0 conflicts") != std::string::npos);
  CHECK(slurp(png).substr(1, 3) == "PNG");
  std::filesystem::remove(svg);
  std::filesystem::remove(png);
}

TEST_CASE("draw: rounds are listed; bad input exits 2 with a message") {
  auto r = run("draw transpose w=4 tile=4 --list-rounds");
  CHECK(r.code == 0);
  CHECK(r.out.find("round 1 (--phase 1 --round 0): transpose.read_column k=0") != std::string::npos);
  struct Bad {
    const char* args;
    const char* message;
  };
  for (const Bad& b : {Bad{"draw nosuch -o x.svg", "unknown algorithm"},
                       Bad{"draw strided w=12 stride=x -o x.svg", "NAME=INTEGER"},
                       Bad{"draw strided w=12 colour=3 -o x.svg", "no parameter 'colour'"},
                       Bad{"draw strided w=12 --round 3 -o x.svg", "[0, 1)"}, Bad{"draw strided w=12 --round 0-x -o x.svg", "range A-B"},
                       Bad{"draw strided w=12 -o x.jpg", ".svg, .png or .dot"},
                       Bad{"draw strided w=12", "needs -o"},
                       Bad{"draw strided w=12 --label colour -o x.svg", "label"}}) {
    CAPTURE(b.args);
    r = run(b.args);
    CHECK(r.code == 2);
    CHECK(r.out.find(b.message) != std::string::npos);
  }
}

TEST_CASE("draw: the paper figures' rounds cost what the papers say") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto svg = (dir / "bankcheck_draw_paper.svg").string();
  // SPAA 2025 Fig. 2 / Sec. 3.1: every gather round of CF-Merge (w = 12, E = 5) reads one
  // cell per bank. Fig. 3 / Sec. 3.2: the same for w = 9, E = 6 after the circular shift.
  for (int j = 0; j < 5; ++j) {
    auto r = run("draw cf-merge w=12 E=5 u=12 a_size=31 --phase 2 --round " + std::to_string(j) + " -o " + svg);
    CHECK(r.code == 0);
    CHECK(r.out.find(": 1 wavefronts, 0 conflicts") != std::string::npos);
  }
  for (int j = 0; j < 6; ++j) {
    auto r = run("draw cf-merge w=9 E=6 u=9 a_size=25 --phase 2 --round " + std::to_string(j) + " -o " + svg);
    CHECK(r.out.find(": 1 wavefronts, 0 conflicts") != std::string::npos);
  }
  // HiPC 2015 Fig. 4 / Corollary 4.1: K = w^2, worst-case queries: the first log w + 1
  // probes stay in bank 0 with 1, 2, 4 distinct cells, then every probe is w-way.
  const int expect[] = {1, 2, 4, 8, 8, 8};
  for (int j = 0; j < 6; ++j) {
    CAPTURE(j);
    auto r = run("draw pbs w=8 K=64 u=8 queries=8 --input worst --phase 1 --round " + std::to_string(j) + " -o " + svg);
    CHECK(r.out.find(": " + std::to_string(expect[j]) + " wavefronts") != std::string::npos);
  }
  // HiPC Sec. IV-B: PBS-CF stage 1 is conflict-free.
  auto r = run("draw pbs-cf w=8 K=64 u=8 queries=8 --input worst --phase 1 --round 0-1 -o " + svg);
  CHECK(r.out.find(": 2 wavefronts, 0 conflicts") != std::string::npos);
  std::filesystem::remove(svg);
}
