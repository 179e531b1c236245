// bankcheck draw, end to end through the built binary.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_runner.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace draw_command_test {

namespace {
using Result = bankcheck::test::CliResult;
using bankcheck::test::scratch;
using bankcheck::test::slurp;
Result run(const std::string& args) { return bankcheck::test::run_cli(args); }
}  // namespace

TEST_CASE("draw: SPAA Figure 1 strides on 12 banks, svg and png") {
  const auto svg = scratch("draw_test.svg"), png = scratch("draw_test.png");
  auto r = run("draw strided w=12 stride=6 u=12 --model dmm --round 0 -o " + svg);
  CHECK(r.code == 0);
  CHECK(r.out.find("6 wavefronts, 5 conflicts; wrote " + svg) != std::string::npos);
  const std::string text = slurp(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("#f07b72") != std::string::npos);  // red conflict cells
  r = run("draw strided w=12 stride=5 u=12 --model dmm --label thread -o " + png);
  CHECK(r.code == 0);
  CHECK(r.out.find("1 wavefronts, 0 conflicts") != std::string::npos);
  CHECK(slurp(png).substr(1, 3) == "PNG");
}

TEST_CASE("draw: rounds are listed; bad input exits 2 with a message") {
  auto r = run("draw transpose w=4 tile=4 --model dmm --list-rounds");
  CHECK(r.code == 0);
  CHECK(r.out.find("round 1 (--phase 1 --round 0): transpose.read_column k=0") != std::string::npos);
  struct Bad {
    std::string args;
    const char* message;
  };
  const std::string svg = scratch("bad.svg");
  for (const Bad& b : {Bad{"draw nosuch -o " + svg, "unknown algorithm"},
                       Bad{"draw strided w=12 stride=x --model dmm -o " + svg, "parameter stride: must be an integer"},
                       Bad{"draw strided w=12 colour=3 --model dmm -o " + svg, "no parameter 'colour'"},
                       Bad{"draw strided w=12 --model dmm --round 3 -o " + svg, "--round: must be in 0..0 (got 3)"},
                       Bad{"draw strided w=12 --model dmm --round 0-x -o " + svg, "range A-B"},
                       Bad{"draw strided w=12 --model dmm --phase 4 -o " + svg, "--phase: must be in 0..0 (got 4"},
                       Bad{"draw strided w=12 --model dmm --phase -1 -o " + svg, "--phase: must be an integer in 0.."},
                       Bad{"draw strided w=12 --model dmm --warp-index -1 -o " + svg, "--warp-index: must be an integer"},
                       Bad{"draw strided w=12 --model dmm -o " + scratch("x.jpg"), ".svg, .png or .dot"},
                       Bad{"draw strided w=12 --model dmm", "needs -o"},
                       Bad{"draw strided w=12 -o " + svg, "use --model dmm"},
                       Bad{"draw strided w=12 --model dmm --label colour -o " + svg, "label"}}) {
    CAPTURE(b.args);
    r = run(b.args);
    CHECK(r.code == 2);
    CHECK(r.out.find(b.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(svg));
  }
}

TEST_CASE("draw: an output that cannot be written is an error (exit 2), never 'wrote'") {
  for (const std::string out : {"/nonexistent/dir/a.svg", "/nonexistent/dir/a.png", "/nonexistent/dir/a.dot"}) {
    CAPTURE(out);
    const auto r = run("draw strided w=12 stride=6 u=12 --model dmm -o " + out);
    CHECK(r.code == 2);
    CHECK(r.std_out.find("wrote") == std::string::npos);
    CHECK(r.std_err.find(out) != std::string::npos);
  }
  // A directory is not a picture file either.
  const auto r = run("draw strided w=12 --model dmm -o " + bankcheck::test::scratch_dir().string());
  CHECK(r.code == 2);
}

TEST_CASE("draw: the paper figures' rounds cost what the papers say") {
  const auto svg = scratch("draw_paper.svg");
  // SPAA 2025 Fig. 2 / Sec. 3.1: every gather round of CF-Merge (w = 12, E = 5) reads one
  // cell per bank. Fig. 3 / Sec. 3.2: the same for w = 9, E = 6 after the circular shift.
  for (int j = 0; j < 5; ++j) {
    auto r = run("draw cf-merge w=12 E=5 u=12 a_size=31 --model dmm --phase 2 --round " + std::to_string(j) + " -o " + svg);
    CHECK(r.code == 0);
    CHECK(r.out.find(": 1 wavefronts, 0 conflicts") != std::string::npos);
  }
  for (int j = 0; j < 6; ++j) {
    auto r = run("draw cf-merge w=9 E=6 u=9 a_size=25 --model dmm --phase 2 --round " + std::to_string(j) + " -o " + svg);
    CHECK(r.out.find(": 1 wavefronts, 0 conflicts") != std::string::npos);
  }
  // HiPC 2015 Fig. 4 / Corollary 4.1: K = w^2, worst-case queries: the first log w + 1
  // probes stay in bank 0 with 1, 2, 4 distinct cells, then every probe is w-way.
  const int expect[] = {1, 2, 4, 8, 8, 8};
  for (int j = 0; j < 6; ++j) {
    CAPTURE(j);
    auto r = run("draw pbs w=8 K=64 u=8 queries=8 --model dmm --input worst --phase 1 --round " + std::to_string(j) +
                 " -o " + svg);
    CHECK(r.out.find(": " + std::to_string(expect[j]) + " wavefronts") != std::string::npos);
  }
  // HiPC Sec. IV-B: PBS-CF stage 1 is conflict-free.
  auto r = run("draw pbs-cf w=8 K=64 u=8 queries=8 --model dmm --input worst --phase 1 --round 0-1 -o " + svg);
  CHECK(r.out.find(": 2 wavefronts, 0 conflicts") != std::string::npos);
}

}  // namespace draw_command_test
