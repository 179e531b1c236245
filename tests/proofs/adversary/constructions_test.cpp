#include "proofs/adversary/constructions.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <vector>
#include "tests/scratch.hpp"

using namespace bankcheck::proofs;

namespace {
std::vector<long> numbers(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::vector<long> v;
  for (long x; f >> x;) v.push_back(x);
  return v;
}
}  // namespace

TEST_CASE("merge: lists A then B of 0..n-1, Theorem 8 per warp in the report") {
  const auto path = std::filesystem::path(bankcheck::test::scratch("constructions_test_merge.txt"));
  ConstructionRequest r;
  r.name = "merge";
  r.params = {{"w", 4}, {"E", 3}};
  r.output = path.string();
  const ConstructionReport report = write_construction(r);
  CHECK(report.keys == 24);  // n = 0: one pair of warps, 2wE
  auto keys = numbers(path);
  REQUIRE(keys.size() == 24);
  // A and B are each sorted and together hold 0..23; |A| = |B| (the two warps alternate).
  CHECK(std::is_sorted(keys.begin(), keys.begin() + 12));
  CHECK(std::is_sorted(keys.begin() + 12, keys.end()));
  std::sort(keys.begin(), keys.end());
  for (long i = 0; i < 24; ++i) CHECK(keys[i] == i);
  // w = 4, E = 3: d = 1, r = 1, Theorem 8 = (9 + 6 + 3 - 1 - 1)/2 = 8 per warp.
  CHECK(report.text.find("(Theorem 8: 16, 8 per warp)") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("errors come before the file: no output file, nothing written") {
  const auto path = std::filesystem::path(bankcheck::test::scratch("constructions_test_bad.txt"));
  std::filesystem::remove(path);
  ConstructionRequest r;
  r.name = "merge";
  r.params = {{"E", 17}, {"n", 1000}};
  r.output = path.string();
  CHECK_THROWS_AS(write_construction(r), std::invalid_argument);
  CHECK_FALSE(std::filesystem::exists(path));
  r.output.clear();
  r.params.clear();
  CHECK_THROWS_AS(write_construction(r), std::invalid_argument);  // -o is required
  r.name = "merge-warp";  // a search space, not a construction
  r.output = path.string();
  CHECK_THROWS_AS(write_construction(r), std::invalid_argument);
}

TEST_CASE("merge sorts are deterministic without a time limit, and report progress") {
  const auto a = std::filesystem::path(bankcheck::test::scratch("constructions_test_a.txt"));
  const auto b = std::filesystem::path(bankcheck::test::scratch("constructions_test_b.txt"));
  ConstructionRequest r;
  r.name = "merge-sort";
  r.params = {{"u", 64}, {"E", 5}, {"n", 640}};
  r.pass_iterations = 200;
  std::uint64_t last = 0, total = 0;
  r.progress = [&](std::uint64_t done, std::uint64_t all) { last = done, total = all; };
  r.output = a.string();
  write_construction(r);
  CHECK(last == 640);
  CHECK(total == 640);
  r.output = b.string();
  write_construction(r);
  CHECK(numbers(a) == numbers(b));
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}
