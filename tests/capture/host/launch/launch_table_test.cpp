// Tests of capture/host/launch/launch_table.hpp.
#include "capture/host/launch/launch_table.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "tests/scratch.hpp"

using namespace bankcheck::capture;

TEST_CASE("launch table rows round trip; a malformed row names its line") {
  LaunchRow r;
  r.id = 3;
  r.kernel = "_Z1kIiEvPT_";
  r.demangled = "void k<int>(int*)";
  r.grid = {8, 1, 1};
  r.block = {256, 1, 1};
  r.dynamic_shared = 4096;
  r.records_written = 10;
  r.device_records = 10;
  r.status = kStatusCaptured;
  r.untraced = "st.async=2";
  r.trace = "launch-3.bktrace";
  r.graph_exec = 0;
  r.graph_launch = 2;
  r.graph_node = 5;
  LaunchRow skipped;
  skipped.id = 4;
  skipped.kernel = "_Z1sv";
  skipped.status = kStatusSkipped;
  const auto path = bankcheck::test::scratch("launches_test.csv");
  std::ofstream(path) << launch_table_header() << launch_row_line(r) << launch_row_line(skipped);
  const auto rows = read_launch_table(path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].demangled == "void k<int>(int*)");
  CHECK(rows[0].grid == std::array<std::uint32_t, 3>{8, 1, 1});
  CHECK(rows[0].dynamic_shared == std::optional<std::uint64_t>{4096});
  CHECK(rows[0].device_records == std::optional<std::uint64_t>{10});
  CHECK(rows[0].complete());
  CHECK_FALSE(rows[1].dynamic_shared);
  CHECK_FALSE(rows[1].device_records);
  CHECK(rows[0].graph_exec == std::optional<std::uint64_t>{0});
  CHECK(rows[0].graph_launch == std::optional<std::uint64_t>{2});
  CHECK(rows[0].graph_node == std::optional<std::uint64_t>{5});
  CHECK_FALSE(rows[1].graph_exec);
  CHECK_FALSE(rows[1].graph_node);
  std::ofstream(path) << launch_table_header() << "1,k,k,8x1,1x1x1,,0,,captured,,,,,\n";
  CHECK_THROWS_WITH_AS(read_launch_table(path), doctest::Contains(":2: bad dimensions '8x1'"), std::invalid_argument);
  std::filesystem::remove(path);
}

TEST_CASE("a launch table from before the graph columns is read, its rows from no graph") {
  const auto path = bankcheck::test::scratch("launches_v1_test.csv");
  // The header and a row as captures wrote them before graph launches were traced (11 columns).
  std::ofstream(path) << "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,"
                         "untraced,trace\n0,_Z1kv,k(),2x1x1,32x1x1,,4,4,captured,,launch-0.bktrace\n";
  const auto rows = read_launch_table(path);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].trace == "launch-0.bktrace");
  CHECK_FALSE(rows[0].graph_exec);
  // A row of the old width under the new header is malformed.
  std::ofstream(path) << launch_table_header() << "0,_Z1kv,k(),2x1x1,32x1x1,,4,4,captured,,launch-0.bktrace\n";
  CHECK_THROWS_WITH_AS(read_launch_table(path), doctest::Contains(":2: expected 14 fields, got 11"), std::invalid_argument);
  std::filesystem::remove(path);
}
