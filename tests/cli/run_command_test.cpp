// `bankcheck run` / `bankcheck trace` end to end: exit codes and the printed comparison.
#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {
using Result = bankcheck::test::CliResult;
Result sh(const std::string& args) { return bankcheck::test::run_cli(args); }
}  // namespace

TEST_CASE("run prints the replayed count beside A_PBS and exits 0 when it holds") {
  auto r = sh("run pbs w=32 K=1024 queries=64 u=32 --input worst");
  CHECK(r.code == 0);
  // 2 warps * (32*(10-5+1)-1) = 382, computed by hand.
  CHECK(r.out.find("wavefronts = 382 (model dmm), replayed 382: holds") != std::string::npos);
}

TEST_CASE("wrong answers exit 1; bad parameters exit 2 naming the constraint") {
  CHECK(sh("run pbs-cf w=32 K=1000 queries=320").code == 1);
  auto bad = sh("run pbs-cf w=32 K=16");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("K >= w") != std::string::npos);
  CHECK(sh("run pbs w=x").code == 2);
  CHECK(sh("run nosuch").code == 2);
  CHECK(sh("run merge E=3 --input worst").code == 2);
}

TEST_CASE("json and csv outputs; trace writes a text trace") {
  auto j = sh("run cf-merge w=8 E=6 u=16 --json");
  CHECK(j.code == 0);
  CHECK(j.out.find("\"holds\": true") != std::string::npos);
  auto c = sh("run merge w=8 E=3 u=8 --csv --per-round");
  CHECK(c.out.rfind("scope,phase,k,site,", 0) == 0);
  CHECK(c.out.find("round,1,0,merge.merge_read") != std::string::npos);
  const std::string path = "/tmp/bankcheck_run_command_test.trace";
  CHECK(sh("trace pbs w=4 K=16 queries=4 u=4 -o " + path).code == 0);
  std::ifstream f(path);
  std::string first;
  std::getline(f, first);
  CHECK(first == "warp 4");
}
