// Tests of capture/host/ncu/ncu_launches.hpp on the layout of ncu's raw page
// (`ncu -i R --page raw --csv --metrics launch__grid_size`): a header, a
// row of units, one row per launch.
#include "capture/host/ncu/ncu_launches.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace bankcheck::capture;

TEST_CASE("launch shapes by column name, the units row skipped") {
  const std::string csv =
      "==PROF== Disconnected\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"launch__grid_size\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
      "\"0\",\"7\",\"python3\",\"h\",\"_Z1kv\",\"1\",\"7\",\"(128, 1, 1)\",\"(66, 2, 1)\",\"0\",\"9.0\",\"132\"\n"
      "\"1\",\"7\",\"python3\",\"h\",\"matmul_kernel\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"8\"\n";
  const auto l = parse_ncu_launches(csv, "l.csv");
  REQUIRE(l.size() == 2);
  CHECK(l[0].kernel == "_Z1kv");
  CHECK(l[0].grid == std::array<std::uint32_t, 3>{66, 2, 1});
  CHECK(l[0].block == std::array<std::uint32_t, 3>{128, 1, 1});
  CHECK(l[1].kernel == "matmul_kernel");
}

TEST_CASE("malformed launch lists name the file and line") {
  CHECK_THROWS_WITH_AS(parse_ncu_launches("\"ID\",\"Kernel Name\"\n", "l.csv"),
                       doctest::Contains("l.csv:1: the first row names no"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_ncu_launches("\"Kernel Name\",\"Grid Size\",\"Block Size\"\n\"k\",\"(1, 2)\",\"(1, 1, 1)\"\n",
                                          "l.csv"),
                       doctest::Contains("l.csv:2: bad Grid Size '(1, 2)'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_ncu_launches("", "l.csv"), doctest::Contains("no header row"), std::invalid_argument);
}

TEST_CASE("the launch list tells ncu's copies of a block from launches") {
  // ncu 2025.3 printed 132 of 136 launches of a PyTorch script twice and
  // cuDNN's sm90 attention launches once (H100, 2026-11-26).
  auto block = [](const char* name, std::uint64_t wavefronts) {
    NcuLaunch l;
    l.kernel = name;
    l.instructions.push_back({0x10, "LDS R1, [R2]", 1, wavefronts, 1, 0, 0});
    return l;
  };
  NcuSourceTable page;
  page.launches = {block("a", 1), block("a", 1), block("s", 2), block("a", 1), block("a", 1), block("a", 1)};
  std::vector<NcuLaunchShape> list = {{"a", {1, 1, 1}, {32, 1, 1}}, {"s", {1, 1, 1}, {32, 1, 1}},
                                      {"a", {1, 1, 1}, {32, 1, 1}}, {"a", {1, 1, 1}, {32, 1, 1}}};
  NcuSourceTable t = page;
  CHECK(drop_copies_by_launch_list(t, list) == 2);
  REQUIRE(t.launches.size() == 4);
  CHECK(t.launches[1].kernel == "s");
  // two identical launches printed once each stay two
  NcuSourceTable once;
  once.launches = {block("a", 1), block("a", 1)};
  CHECK(drop_copies_by_launch_list(once, {list[0], list[2]}) == 0);
  CHECK(once.launches.size() == 2);
  // a page that is not the list's
  NcuSourceTable other;
  other.launches = {block("b", 1)};
  CHECK_THROWS_AS(drop_copies_by_launch_list(other, {list[0]}), std::invalid_argument);
  NcuSourceTable extra;
  extra.launches = {block("a", 1), block("a", 2)};
  CHECK_THROWS_WITH_AS(drop_copies_by_launch_list(extra, {list[0]}), doctest::Contains("blocks more than"),
                       std::invalid_argument);
}
