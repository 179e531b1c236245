// compare_with_ncu on programs nobody here wrote: CUB's DeviceMergeSort
// (4- and 8-byte keys), DeviceHistogram, DeviceSelect, DeviceScan and
// BlockScan, captured on an H100 and profiled there with Nsight Compute
// (validate/results/h100-2026-11-23/capture/real-programs.tar.xz, unpacked
// by the ctest fixture capture.real_programs.unpack). The expected numbers
// are the hardware's per-instruction wavefronts in each ncu table: the
// model must equal them on every instruction.
#include "capture/host/compare.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "capture/host/ncu_table.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {

const fs::path kUnpacked = fs::path(BANKCHECK_BINARY_DIR) / "real-programs";

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("captured CUB programs equal the H100's per-instruction wavefronts on every instruction") {
  REQUIRE_MESSAGE(fs::is_directory(kUnpacked), kUnpacked << " is missing: run the ctest fixture capture.real_programs.unpack");
  const BankModel sm90 = make_preset("sm90");
  struct Program {
    const char* name;
    std::size_t instructions;  // shared-memory instructions ncu saw executed, counted in its table
  };
  std::size_t total = 0;
  for (const char* name : {"cub.merge_sort_u32", "cub.merge_sort_u64", "cub.histogram", "cub.select", "cub.scan",
                           "block.scan_warp_scans"}) {
    CAPTURE(name);
    const fs::path dir = kUnpacked / name;
    const auto ncu = parse_ncu_source(read_all(dir / "ncu.sass.csv"), (dir / "ncu.sass.csv").string());
    std::vector<std::string> traces;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".bktrace") traces.push_back(e.path().string());
    REQUIRE(!traces.empty());
    const CompareResult r = compare_with_ncu(ncu, traces, sm90);
    CHECK(!r.rows.empty());
    std::uint64_t model = 0, measured = 0;
    for (const auto& row : r.rows) {
      if (!row.equal())
        FAIL_CHECK("launch " << row.launch << " +0x" << std::hex << row.offset << std::dec << " " << row.sass
                             << ": model " << row.model_wavefronts << ", H100 " << row.measured_wavefronts);
      model += row.model_wavefronts;
      measured += row.measured_wavefronts;
    }
    CHECK(model == measured);
    CHECK(r.all_equal());
    total += r.rows.size();
  }
  CHECK(total >= 900);
}

TEST_CASE("a row whose instruction ran a different number of times in the two runs says so") {
  // Measured on the H100 (2026-11-23, CUB radix sort onesweep, capture --global): a
  // look-back spin load (LDG.E.STRONG.SYS) ran 188 times under ncu and 202 times in the capture.
  CompareRow spin;
  spin.global = true;
  spin.measured_executed = 188;
  spin.model_executed = 202;
  spin.measured_sectors = 752;
  spin.model_sectors = 808;
  CHECK_FALSE(spin.equal());
  CHECK(spin.runs_differ());
  CompareRow same = spin;
  same.model_executed = 188;
  same.model_sectors = 752;
  CHECK(same.equal());
  CHECK_FALSE(same.runs_differ());
}
