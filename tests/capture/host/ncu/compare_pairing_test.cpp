// compare_with_ncu on capture folders written here by hand, for what the
// pairing tells the user (compare_test.cpp holds the measured programs):
// a capture whose program ended early (capture.json: exit 1) with ncu's
// run holding one launch more says that ncu's launch was not captured and
// why, and asks for no option that was given; a launch whose grid differs
// from ncu's in its place is not compared, and the reason names the query
// the program made about that kernel under capture (queries.csv).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "capture/host/ncu/compare.hpp"
#include "capture/host/ncu/ncu_launches.hpp"
#include "capture/host/ncu/ncu_table.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {

/// A capture of `grids.size()` launches of k() (block 128), each trace one conflict-free load at k+0x0,
/// and capture.json saying the program exited with `exit_code`.
std::vector<std::string> capture_of_k(const char* name, const std::vector<int>& grids, int exit_code) {
  const fs::path dir = fs::path(bankcheck::test::scratch(name));
  fs::create_directories(dir);
  std::ofstream table(dir / "launches.csv");
  table << "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,trace\n";
  std::vector<std::string> traces;
  for (std::size_t i = 0; i < grids.size(); ++i) {
    const std::string file = "launch-" + std::to_string(i) + ".trace";
    table << i << ",_Z1kv,k()," << grids[i] << "x1x1,128x1x1,,1,1,captured,," << file << "\n";
    std::ofstream t(dir / file);
    t << "warp 32\n@_Z1kv+0x0 ld 4";
    for (int l = 0; l < 32; ++l) t << " " << 4 * l;
    t << "\n";
    traces.push_back((dir / file).string());
  }
  std::ofstream(dir / "capture.json") << "{\n  \"exit_code\": " << exit_code << ",\n  \"signal\": 0,\n}\n";
  return traces;
}

/// ncu's source page and launch list for launches of k() at `grids` (block 128), each one LDS executed once.
std::pair<NcuSourceTable, std::vector<NcuLaunchShape>> ncu_of_k(const std::vector<int>& grids) {
  std::string page, list = "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\"\n";
  for (std::size_t i = 0; i < grids.size(); ++i) {
    page += "\"Kernel Name\",\"_Z1kv\"\n\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\","
            "\"L1 Wavefronts Shared Ideal\"\n\"0x1000\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n";
    list += "\"" + std::to_string(i) + "\",\"_Z1kv\",\"(" + std::to_string(grids[i]) + ", 1, 1)\",\"(128, 1, 1)\"\n";
  }
  return {parse_ncu_source(page, "ncu.csv"), parse_ncu_launches(list, "launches.ncu.csv")};
}

}  // namespace

TEST_CASE("a program that ended early under capture: ncu's later launch is named as not captured, and why") {
  const auto traces = capture_of_k("compare-ended-early", {1, 1}, 1);
  const auto [page, shapes] = ncu_of_k({1, 1, 1});
  const CompareResult r = compare_with_ncu(page, traces, make_preset("sm90"), shapes);
  CHECK(r.compared_launches == 2);
  CHECK(r.uncompared.empty());
  bool named = false;
  for (const std::string& note : r.notes) {
    CAPTURE(note);
    CHECK(note.find("give --ncu-launches") == std::string::npos);
    named = named || note == "ncu's launch 2 (_Z1kv) was not captured (the program ended early: exit 1)";
  }
  CHECK(named);
}

TEST_CASE("a launch whose grid differs from ncu's names the program's queries about its kernel under capture") {
  const auto traces = capture_of_k("compare-grid-differs", {64}, 0);
  const fs::path dir = fs::path(traces[0]).parent_path();
  std::ofstream(dir / "queries.csv")
      << "id,api,call,function,arguments,answer,may_differ\n"
         "0,runtime,cudaDeviceGetAttribute,,attribute 16 device 0,132,no\n"
         "1,runtime,cudaOccupancyMaxActiveClusters,_Z1kv,grid 132x1x1 block 128x1x1 smem 0 cluster 2x1x1,1,yes\n";
  const auto [page, shapes] = ncu_of_k({32});
  const CompareResult r = compare_with_ncu(page, traces, make_preset("sm90"), shapes);
  REQUIRE(r.uncompared.size() == 1);
  const std::string& why = r.uncompared[0].reason;
  CHECK(why.find("ran grid 32x1x1 block 128x1x1, the captured one grid 64x1x1") != std::string::npos);
  CHECK(why.find("cudaOccupancyMaxActiveClusters (grid 132x1x1 block 128x1x1 smem 0 cluster 2x1x1) answered 1") !=
        std::string::npos);
  CHECK(why.find("cudaDeviceGetAttribute") == std::string::npos);
  fs::remove(dir / "queries.csv");  // a capture without the table: the shape alone
  const CompareResult plain = compare_with_ncu(page, traces, make_preset("sm90"), shapes);
  REQUIRE(plain.uncompared.size() == 1);
  CHECK(plain.uncompared[0].reason.find("queries.csv") == std::string::npos);
}
