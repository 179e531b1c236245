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
#include "tests/scratch.hpp"

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

namespace {

/// A capture folder written by hand: launches.csv and one text trace per
/// captured launch, each executing one conflict-free 4-byte load at a site.
struct HandCapture {
  fs::path dir;
  explicit HandCapture(const std::string& name) : dir(fs::path(bankcheck::test::scratch(name))) {
    fs::create_directories(dir);
    std::ofstream(dir / "launches.csv")
        << "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,trace\n"
           "0,_Z6reduceILi512EEvv,void reduce<512>(),1x1x1,128x1x1,,1,1,captured,,launch-0.trace\n"
           "1,_Z6reduceILi128EEvv,void reduce<128>(),1x1x1,128x1x1,,1,1,captured,,launch-1.trace\n"
           "2,_Z5otherv,other(),1x1x1,32x1x1,,1,1,captured,,launch-2.trace\n";
    load("launch-0.trace", "_Z6reduceILi512EEvv+0x10");
    load("launch-1.trace", "_Z6reduceILi128EEvv+0x0");
    load("launch-2.trace", "_Z5otherv+0x0");
  }
  void load(const char* file, const char* site) const {
    std::ofstream t(dir / file);
    t << "warp 32\n@" << site << " ld 4";
    for (int l = 0; l < 32; ++l) t << " " << 4 * l;
    t << "\n";
  }
  std::vector<std::string> traces() const {
    return {(dir / "launch-0.trace").string(), (dir / "launch-1.trace").string(), (dir / "launch-2.trace").string()};
  }
};

const char* kHeader = "\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n";

}  // namespace

TEST_CASE("two instantiations of one base name meet their own launches; a launch ncu lacks is listed, not fatal") {
  // ncu profiled reduce<128> first, then reduce<512>, and not other(): pairing
  // by base name in launch order would put reduce<512>'s load on reduce<128>'s
  // code. Names as ncu 2025.3 demangles them.
  const HandCapture cap("two-instantiations");
  const std::string csv = std::string("\"Kernel Name\",\"void reduce<(int)128>()\"\n") + kHeader +
                          "\"0x1000\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n"
                          "\"0x1010\",\"IMAD R1, R2, R3, R4\",\"1\",\"0\",\"0\"\n"
                          "\"Kernel Name\",\"void reduce<(int)512>()\"\n" + kHeader +
                          "\"0x2000\",\"IMAD R1, R2, R3, R4\",\"1\",\"0\",\"0\"\n"
                          "\"0x2010\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n";
  const auto ncu = parse_ncu_source(csv, "ncu.csv");
  const CompareResult r = compare_with_ncu(ncu, cap.traces(), make_preset("sm90"));
  REQUIRE(r.rows.size() == 2);
  CHECK(r.compared_launches == 2);
  for (const CompareRow& row : r.rows) {
    CAPTURE(row.launch);
    CHECK(row.verdict() == Verdict::yes);
    CHECK(row.sass.rfind("LDS", 0) == 0);
  }
  CHECK(r.rows[0].launch == 0);
  CHECK(r.rows[0].offset == 0x10);
  REQUIRE(r.uncompared.size() == 1);
  CHECK(r.uncompared[0].launch == 2);
  CHECK(r.uncompared[0].reason.find("no launch of this function") != std::string::npos);
  CHECK_FALSE(r.all_equal());  // a launch was not compared
}

TEST_CASE("a pairing that puts a captured record on a non-memory instruction is refused") {
  const HandCapture cap("mispaired");
  // Both launches of reduce<512>'s identity are absent; ncu has reduce<512> whose offset 0x10 is an IMAD
  // (a listing of another build): the record cannot belong there.
  const std::string csv = std::string("\"Kernel Name\",\"void reduce<(int)512>()\"\n") + kHeader +
                          "\"0x2000\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n"
                          "\"0x2010\",\"IMAD R1, R2, R3, R4\",\"1\",\"0\",\"0\"\n";
  const CompareResult r = compare_with_ncu(parse_ncu_source(csv, "ncu.csv"), {cap.traces()[0]}, make_preset("sm90"));
  CHECK(r.rows.empty());
  REQUIRE(r.uncompared.size() == 1);
  CHECK(r.uncompared[0].reason.find("IMAD") != std::string::npos);
  CHECK(r.compared_launches == 0);
}

TEST_CASE("verdicts say what they are") {
  CompareRow r;
  r.sass = "HGMMA.64x128x16.F32 R24, gdesc[UR12], RZ, !UPT";
  r.measured_executed = 4;
  r.measured_wavefronts = 48;
  CHECK(r.verdict() == Verdict::not_traced);
  CHECK(r.verdict_text() == "not traced (wgmma)");
  r.sass = "UTMALDG.2D [UR8], [UR4]";
  CHECK(r.verdict_text() == "not traced (TMA)");
  r.sass = "LDS R1, [R2]";
  CHECK(r.verdict_text() == "not traced (no record in the capture)");
  r.sass = "@P1 LDGSTS.E.LTC128B [R3], desc[UR6][R4.64], P0";
  r.model_executed = 4;
  r.modelled = false;
  CHECK(r.verdict_text() == "not modelled (LDGSTS.E.LTC128B, predicate operand)");
  r.modelled = true;
  r.model_wavefronts = 48;
  CHECK(r.verdict() == Verdict::yes);
  r.model_wavefronts = 40;
  CHECK(r.verdict() == Verdict::no);
  r.model_executed = 5;
  CHECK(r.verdict() == Verdict::executions_differ);
}
