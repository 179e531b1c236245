// Tests of capture/host/launch/driver_queries.hpp: queries.csv written and read
// back, which calls' answers describe a kernel as patched, and the reason
// compare gives for a launch whose grid differs from Nsight Compute's. The
// tables are made here by hand; the CUTLASS case is the one the H200 showed
// (an fp8 warp-specialized GEMM at grid 1x64x1 under capture, 32x2x1 plainly).
#include "capture/host/launch/driver_queries.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/scratch.hpp"

using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {
DriverQuery query(std::uint64_t id, const char* api, const char* call, const char* function, const char* arguments,
                  const char* answer) {
  return {id, api, call, function, arguments, answer, answer_depends_on_kernel(call)};
}
}  // namespace

TEST_CASE("occupancy and function attributes describe the patched kernel; device attributes do not") {
  for (const char* call : {"cuOccupancyMaxActiveClusters", "cudaOccupancyMaxActiveClusters",
                           "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "cudaOccupancyAvailableDynamicSMemPerBlock",
                           "cuFuncGetAttribute", "cudaFuncGetAttributes"})
    CHECK_MESSAGE(answer_depends_on_kernel(call), call);
  for (const char* call : {"cuDeviceGetAttribute", "cudaDeviceGetAttribute", "cudaGetDeviceProperties", "cuLaunchKernel"})
    CHECK_MESSAGE(!answer_depends_on_kernel(call), call);
}

TEST_CASE("queries.csv round trip, with a comma in a field; a bad table names its file and line") {
  const fs::path dir = bankcheck::test::scratch("driver-queries");
  fs::create_directories(dir);
  const std::string path = (dir / "queries.csv").string();
  const std::vector<DriverQuery> rows = {
      query(0, "runtime", "cudaDeviceGetAttribute", "", "attribute 16 device 0", "132"),
      query(1, "runtime", "cudaFuncGetAttributes", "_Z5heavyPfPKfi", "", "numRegs=168, maxThreadsPerBlock=384")};
  {
    std::ofstream out(path);
    out << driver_query_header();
    for (const auto& r : rows) out << driver_query_line(r);
  }
  const auto back = read_driver_queries(path);
  REQUIRE(back.size() == 2);
  CHECK(back[1].answer == "numRegs=168, maxThreadsPerBlock=384");
  CHECK(back[1].function == "_Z5heavyPfPKfi");
  CHECK_FALSE(back[0].may_differ);
  CHECK(back[1].may_differ);
  CHECK(read_driver_queries((dir / "none.csv").string()).empty());  // a capture made before the table existed
  std::ofstream(path) << driver_query_header() << "x,driver,cuFuncGetAttribute,,,1,yes\n";
  CHECK_THROWS_WITH_AS(read_driver_queries(path), doctest::Contains("queries.csv:2:"), std::invalid_argument);
  std::ofstream(path) << "id,call\n";
  CHECK_THROWS_WITH_AS(read_driver_queries(path), doctest::Contains("queries.csv:1:"), std::invalid_argument);
}

TEST_CASE("a grid that differs from ncu's is explained by the kernel's own queries, or by none") {
  const std::string gemm = "_ZN7cutlass13device_kernelI4GemmEEvNT_6ParamsE";
  const std::vector<DriverQuery> rows = {
      query(0, "runtime", "cudaDeviceGetAttribute", "", "attribute 16 device 0", "132"),
      query(1, "runtime", "cudaOccupancyMaxActiveClusters", gemm.c_str(), "grid 132x1x1 block 384x1x1 smem 232448 cluster 2x1x1", "1"),
      query(2, "driver", "cuFuncGetAttribute", "_Z5otherv", "attribute 4", "40"),
      query(3, "runtime", "cudaFuncGetAttributes", "", "", "numRegs=168 maxThreadsPerBlock=384")};
  const std::string why = grid_difference_reason(rows, gemm);
  CHECK(why.find("cudaOccupancyMaxActiveClusters (grid 132x1x1 block 384x1x1 smem 232448 cluster 2x1x1) answered 1") !=
        std::string::npos);
  CHECK(why.find("cudaFuncGetAttributes (of a kernel not named)") != std::string::npos);  // cannot be ruled out
  CHECK(why.find("attribute 4") == std::string::npos);                                   // another kernel's query
  CHECK(why.find("cuFuncGetAttribute (") == std::string::npos);
  CHECK(why.find("cudaDeviceGetAttribute") == std::string::npos);                        // device: not patched
  CHECK(grid_difference_reason(rows, "_Z5otherv").find("attribute 4) answered 40") != std::string::npos);
  CHECK(grid_difference_reason({rows[0]}, gemm).empty());
  CHECK(differing_query_counts(rows) == "cuFuncGetAttribute 1, cudaFuncGetAttributes 1, cudaOccupancyMaxActiveClusters 1");
  CHECK(differing_query_counts({rows[0]}).empty());
}
