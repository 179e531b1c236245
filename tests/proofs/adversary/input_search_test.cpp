#include "proofs/adversary/input_search.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include "tests/scratch.hpp"

using namespace bankcheck::proofs;

TEST_CASE("merge-warp, w = 4, E = 3: every labeling tried, the maximum is Theorem 8's 8") {
  InputSearchRequest r;
  r.algorithm = "merge-warp";
  r.params = {{"w", 4}, {"E", 3}};
  const InputSearchReport report = search_worst_input(r);
  CHECK(report.exhaustive);
  CHECK(report.best_cost == 8);  // (E^2 + 2Er + Ed - r^2 - rd)/2 = (9 + 6 + 3 - 1 - 1)/2
  CHECK(report.tried == 4096);
  CHECK(report.best.size() == 12);  // the lists A then B
}

TEST_CASE("a registry search runs its candidates in memory and is the same for the same seed") {
  // A fresh, empty TMPDIR: a search that passed inputs through files would leave or need them there.
  const auto tmp = std::filesystem::path(bankcheck::test::scratch("input_search_test"));
  std::filesystem::create_directories(tmp);
  const std::string old_tmpdir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  InputSearchRequest r;
  r.algorithm = "pbs";
  r.params = {{"w", 8}, {"K", 64}};
  r.iterations = 300;
  r.seed = 3;
  std::uint64_t progress_done = 0;
  r.progress = [&](std::uint64_t done, std::uint64_t) { progress_done = done; };
  const InputSearchReport a = search_worst_input(r);
  const InputSearchReport b = search_worst_input(r);
  CHECK(a.text == b.text);
  CHECK(a.best == b.best);
  CHECK(a.tried == 300);
  CHECK_FALSE(a.exhaustive);
  CHECK_FALSE(a.time_limited);
  CHECK(progress_done > 0);
  CHECK(a.best.size() == 8);
  for (auto q : a.best) CHECK((q >= 0 && q < 130));  // range 2K + 2
  CHECK(a.replay.rfind("pbs --model dmm K=64 ", 0) == 0);
  CHECK(std::filesystem::is_empty(tmp));  // no temporary input files
  if (old_tmpdir.empty()) ::unsetenv("TMPDIR"); else ::setenv("TMPDIR", old_tmpdir.c_str(), 1);
  std::filesystem::remove_all(tmp);
}

TEST_CASE("construction-only names are refused with the registry form") {
  InputSearchRequest r;
  r.algorithm = "spaa-merge-sort";
  try {
    search_worst_input(r);
    FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("merge-sort E=15 u=512 --search") != std::string::npos);
  }
}
