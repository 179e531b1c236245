// Tests of capture/host/ncu_launches.hpp on the layout of ncu's raw page
// (`ncu -i R --page raw --csv --metrics launch__grid_size`): a header, a
// row of units, one row per launch.
#include "capture/host/ncu_launches.hpp"

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
