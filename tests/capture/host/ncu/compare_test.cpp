// compare_with_ncu on programs nobody here wrote: CUB's DeviceMergeSort
// (4- and 8-byte keys), DeviceHistogram, DeviceSelect, DeviceScan and
// BlockScan, captured on an H100 and profiled there with Nsight Compute
// (validate/results/h100-2026-11-23/capture/real-programs.tar.xz, unpacked
// by the ctest fixture capture.real_programs.unpack). Every program in the
// archive is replayed. The expected numbers are the hardware's: per program,
// the shared-memory instructions ncu saw executed and their wavefronts, read
// here from each ncu table with a CSV reader of its own (not the parser
// under test) and stated in that results README; the model must give one row
// per such instruction and equal ncu's wavefronts on every one.
#include "capture/host/ncu/compare.hpp"

#include <doctest/doctest.h>

#include <array>
#include <boost/tokenizer.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capture/host/ncu/ncu_table.hpp"
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

/// ncu's own count of one program: its executed shared-memory instructions
/// ("Address Space" Shared, "Instructions Executed" > 0) and their "L1
/// Wavefronts Shared", over the launches of the table. ncu 2025.3 prints every
/// launch's block twice; then every second block is a copy and is dropped.
struct NcuCount {
  std::size_t instructions = 0;
  std::uint64_t wavefronts = 0;
};

NcuCount count_shared(const fs::path& csv) {
  using Row = std::map<std::string, std::string>;
  std::vector<std::vector<Row>> blocks;
  std::vector<std::string> header;
  std::ifstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    boost::tokenizer<boost::escaped_list_separator<char>> cells(line);
    const std::vector<std::string> row(cells.begin(), cells.end());
    if (row.empty()) continue;
    if (row[0] == "Kernel Name") {
      blocks.emplace_back();
      header.clear();
    } else if (row[0] == "Address") {
      header = row;
    } else if (!header.empty() && !blocks.empty()) {
      Row r;
      for (std::size_t i = 0; i < header.size() && i < row.size(); ++i) r[header[i]] = row[i];
      blocks.back().push_back(r);
    }
  }
  bool doubled = !blocks.empty() && blocks.size() % 2 == 0;
  for (std::size_t i = 0; doubled && i < blocks.size(); i += 2) doubled = blocks[i] == blocks[i + 1];
  auto number = [](std::string s) {
    std::erase(s, ',');
    return s.empty() ? std::uint64_t{0} : std::stoull(s);
  };
  NcuCount c;
  for (std::size_t i = 0; i < blocks.size(); i += doubled ? 2 : 1)
    for (const Row& r : blocks[i]) {
      const auto space = r.find("Address Space"), executed = r.find("Instructions Executed");
      REQUIRE_MESSAGE((space != r.end() && executed != r.end()), csv << ": a row without the columns counted here");
      if (space->second != "Shared" || number(executed->second) == 0) continue;
      ++c.instructions;
      const auto wf = r.find("L1 Wavefronts Shared");
      if (wf != r.end()) c.wavefronts += number(wf->second);
    }
  return c;
}

}  // namespace

TEST_CASE("the ncu tables hold what the capture README measured, for every program in the archive") {
  // validate/results/h100-2026-11-23/capture/README.md, the programs whose traces are in the archive: shared-memory
  // instructions and wavefronts (model = H100) as the GPU run reported them.
  const std::map<std::string, NcuCount> measured = {
      {"cub.merge_sort_u32", {410, 168731}}, {"cub.merge_sort_u64", {196, 497616}}, {"cub.histogram", {34, 7326}},
      {"cub.select", {160, 11821}},          {"cub.scan", {141, 13197}},           {"block.scan_warp_scans", {2, 768}},
  };
  REQUIRE_MESSAGE(fs::is_directory(kUnpacked), kUnpacked << " is missing: run the ctest fixture capture.real_programs.unpack");
  std::set<std::string> archived;
  for (const auto& e : fs::directory_iterator(kUnpacked))
    if (e.is_directory()) archived.insert(e.path().filename().string());
  std::set<std::string> listed;
  for (const auto& [name, count] : measured) listed.insert(name);
  CHECK(archived == listed);  // a program added to the archive is listed here, one dropped is noticed
  for (const auto& [name, count] : measured) {
    CAPTURE(name);
    const NcuCount c = count_shared(kUnpacked / name / "ncu.sass.csv");
    CHECK(c.instructions == count.instructions);
    CHECK(c.wavefronts == count.wavefronts);
  }
}

TEST_CASE("captured CUB programs equal the H100's per-instruction wavefronts on every instruction") {
  REQUIRE_MESSAGE(fs::is_directory(kUnpacked), kUnpacked << " is missing: run the ctest fixture capture.real_programs.unpack");
  const BankModel sm90 = make_preset("sm90");
  std::size_t programs = 0;
  for (const auto& program : fs::directory_iterator(kUnpacked)) {
    if (!program.is_directory()) continue;
    ++programs;
    const fs::path dir = program.path();
    const std::string name = dir.filename().string();
    CAPTURE(name);
    const NcuCount expected = count_shared(dir / "ncu.sass.csv");
    REQUIRE(expected.instructions > 0);
    const auto ncu = parse_ncu_source(read_all(dir / "ncu.sass.csv"), (dir / "ncu.sass.csv").string());
    std::vector<std::string> traces;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".bktrace") traces.push_back(e.path().string());
    REQUIRE(!traces.empty());
    const CompareResult r = compare_with_ncu(ncu, traces, sm90);
    std::uint64_t model = 0, measured = 0;
    for (const auto& row : r.rows) {
      if (!row.equal())
        FAIL_CHECK("launch " << row.launch << " +0x" << std::hex << row.offset << std::dec << " " << row.sass
                             << ": model " << row.model_wavefronts << ", H100 " << row.measured_wavefronts);
      model += row.model_wavefronts;
      measured += row.measured_wavefronts;
    }
    // One row per instruction ncu executed, none lost and none invented, and its wavefronts, summed.
    CHECK(r.rows.size() == expected.instructions);
    CHECK(measured == expected.wavefronts);
    CHECK(model == expected.wavefronts);
    CHECK(r.all_equal());
  }
  CHECK(programs == 6);
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

/// A capture folder written by hand: launches.csv with one row per (mangled, demangled, block) launch,
/// each launch's trace holding one conflict-free 4-byte load at FUNCTION+`offset`, and tensor_maps.csv
/// with `map_rows` (its data rows).
fs::path hand_capture(const char* name, const std::vector<std::array<const char*, 3>>& launches, const char* offset,
                      const char* map_rows) {
  const fs::path dir = fs::path(bankcheck::test::scratch(name));
  fs::create_directories(dir);
  std::ofstream table(dir / "launches.csv");
  table << "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,trace\n";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& [kernel, demangled, block] = launches[i];
    table << i << "," << kernel << "," << demangled << ",1x1x1," << block << ",,1,1,captured,,launch-" << i << ".trace\n";
    std::ofstream t(dir / ("launch-" + std::to_string(i) + ".trace"));
    t << "warp 32\n@" << kernel << "+" << offset << " ld 4";
    for (int l = 0; l < 32; ++l) t << " " << 4 * l;
    t << "\n";
  }
  std::ofstream(dir / "tensor_maps.csv")
      << "id,kind,object,data_type,rank,global_address,global_dims,global_strides,box_dims,element_strides,interleave,"
         "swizzle,l2_promotion,oob_fill,lower_corner,upper_corner,channels_per_pixel,pixels_per_column,wide_mode\n"
      << map_rows;
  return dir;
}

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
    CHECK_FALSE(row.source);  // no sass.csv in the capture: nothing to say
  }
  CHECK(r.rows[0].launch == 0);
  CHECK(r.rows[0].offset == 0x10);
  REQUIRE(r.uncompared.size() == 1);
  CHECK(r.uncompared[0].launch == 2);
  CHECK(r.uncompared[0].reason.find("no launch of this function") != std::string::npos);
  CHECK_FALSE(r.all_equal());  // a launch was not compared
}

TEST_CASE("each row has its line from the capture's sass.csv, or says it has none") {
  const HandCapture cap("compare-lines");
  std::ofstream(cap.dir / "sass.csv") << "function,offset,sass,file,line,inlined_at\n"
                                         "_Z6reduceILi512EEvv,0x10,LDS,/src/reduce.cuh,12,/src/main.cu:40\n"
                                         "_Z6reduceILi128EEvv,0x0,LDS,,,\n";
  const std::string csv = std::string("\"Kernel Name\",\"void reduce<(int)128>()\"\n") + kHeader +
                          "\"0x1000\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n"
                          "\"Kernel Name\",\"void reduce<(int)512>()\"\n" + kHeader +
                          "\"0x2000\",\"IMAD R1, R2, R3, R4\",\"1\",\"0\",\"0\"\n"
                          "\"0x2010\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n";
  const CompareResult r = compare_with_ncu(parse_ncu_source(csv, "ncu.csv"), {cap.traces()[0], cap.traces()[1]},
                                           make_preset("sm90"));
  REQUIRE(r.rows.size() == 2);
  for (const CompareRow& row : r.rows) {
    CAPTURE(row.launch);
    REQUIRE(row.source);
    CHECK(bankcheck::report::source_text(*row.source) ==
          (row.launch == 0 ? "/src/reduce.cuh:12 (inlined at /src/main.cu:40)" : "no line info"));
  }
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
  r.measured_wavefronts = 0;
  CHECK(r.verdict_text() == "not modelled (UTMALDG.2D: TMA form not measured)");  // no form rule given
  r.tma_rule = true;  // compare sets it for the forms measured (tma_form_measured)
  CHECK(r.verdict_text() == "yes (TMA: no shared wavefronts)");
  r.measured_wavefronts = 3;
  CHECK(r.verdict() == Verdict::no);
  r.tma_rule = false;
  r.measured_wavefronts = 48;
  r.sass = "LDS R1, [R2]";
  CHECK(r.verdict_text() == "not traced (no record in the capture)");
  r.sass = "@P1 LDGSTS.E.LTC128B [R3], desc[UR6][R4.64], P0";
  r.model_executed = 4;
  r.modelled = false;
  CHECK(r.verdict_text() == "not modelled (LDGSTS.E.LTC128B, predicate operand P0)");
  r.modelled = true;
  r.model_wavefronts = 48;
  CHECK(r.verdict() == Verdict::yes);
  r.model_wavefronts = 40;
  CHECK(r.verdict() == Verdict::no);
  r.model_executed = 5;
  CHECK(r.verdict() == Verdict::executions_differ);
}

TEST_CASE("a TMA row names the tensor maps its launch was given; a measured form is yes at 0, another not modelled") {
  // A capture folder by hand: two TMA kernels, the first given maps 1 and 2 (launch_tensor_maps.csv),
  // the second none the capture found. ncu lists a UTMALDG (0 wavefronts,
  // as the H100 counts it) and the LDS that reads the tile.
  const fs::path dir = hand_capture("tma-capture", {{{"_Z3tmav", "tma()", "32x1x1"}}, {{"_Z4tma2v", "tma2()", "32x1x1"}}},
                                    "0x10",
                                    "0,tiled,0x7ffd0000,uint16,2,0x7f0000000000,16 64,32,16 64,1 1,none,32B,none,none,,,,,\n"
                                    "1,tiled,0x7ffd0080,float16,2,0x7f0000010000,64 64,128,64 64,1 1,none,128B,none,none,,,,,\n"
                                    "2,tiled,0x7ffd0100,float16,2,0x7f0000020000,64 64,128,64 32,1 1,none,none,none,none,,,,,\n");
  std::ofstream(dir / "launch_tensor_maps.csv") << "launch,offset,tensor_map\n0,0,1\n0,128,2\n";
  const std::string csv = std::string("\"Kernel Name\",\"tma()\"\n") + kHeader +
                          "\"0x1000\",\"UTMALDG.2D [UR8], [UR4]\",\"1\",\"0\",\"0\"\n"
                          "\"0x1010\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n"
                          "\"Kernel Name\",\"tma2()\"\n" + kHeader +
                          "\"0x1000\",\"UTMAREDG.2D [UR8], [UR4]\",\"1\",\"0\",\"0\"\n"
                          "\"0x1010\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n";
  const CompareResult r = compare_with_ncu(parse_ncu_source(csv, "ncu.csv"),
                                           {(dir / "launch-0.trace").string(), (dir / "launch-1.trace").string()},
                                           make_preset("sm90"));
  REQUIRE(r.rows.size() == 4);
  std::map<std::pair<std::uint64_t, std::uint64_t>, const CompareRow*> at;
  for (const CompareRow& row : r.rows) at[{row.launch, row.offset}] = &row;
  const CompareRow& tma0 = *at.at({0, 0x0});
  CHECK(tma0.verdict_text() == "yes (TMA: no shared wavefronts)");
  CHECK(tma0.detail ==
        "the launch's tensor map 1: box 64x64 float16 (128-byte rows), swizzle 128B (parameter byte 0); "
        "tensor map 2: box 64x32 float16 (128-byte rows), swizzle none (parameter byte 128)");
  const CompareRow& tma1 = *at.at({1, 0x0});
  CHECK(tma1.verdict_text() == "not modelled (UTMAREDG.2D: TMA form not measured)");
  CHECK(tma1.detail.empty());  // launch 1 was given no map the capture found: nothing is guessed
  CHECK(at.at({0, 0x10})->verdict() == Verdict::yes);
  CHECK(at.at({0, 0x10})->detail.empty());  // the reader of the tile is traced: no tensor maps on its row

  // A launch naming a map the table lacks is a broken capture, said so.
  std::ofstream(dir / "launch_tensor_maps.csv") << "launch,offset,tensor_map\n0,0,9\n";
  CHECK_THROWS_WITH_AS(compare_with_ncu(parse_ncu_source(csv, "ncu.csv"), {(dir / "launch-0.trace").string()},
                                        make_preset("sm90")),
                       doctest::Contains("names tensor map 9"), std::invalid_argument);
}

TEST_CASE("a wgmma row gives its descriptors, and a swizzle no tensor map of the launch has") {
  // Two launches of one kernel whose SASS builds 64B-swizzled descriptors (UMOV UR13/UR15,
  // 0x80000020: swizzle 2, stride 0x20 << 4 = 512 bytes); the first launch's maps swizzle 128B
  // (the mismatch of validate/sm90/sm90a/tma_wgmma_gemm.cu's desc_64B), the second's 64B (none).
  const fs::path dir = hand_capture("wgmma-capture", {{{"_Z4gemmv", "gemm()", "128x1x1"}}, {{"_Z4gemmv", "gemm()", "128x1x1"}}},
                                    "0x40",
                                    "0,tiled,0x7ffd0000,float16,2,0x7f0000000000,64 64,128,64 64,1 1,none,128B,none,none,,,,,\n"
                                    "1,tiled,0x7ffd0080,float16,2,0x7f0000010000,32 64,64,32 64,1 1,none,64B,none,none,,,,,\n");
  std::ofstream(dir / "launch_tensor_maps.csv") << "launch,offset,tensor_map\n0,0,0\n1,0,1\n";
  auto block = [](const char* hgmma_executed) {  // the launches differ in a count: not ncu's printed copies
    return std::string("\"Kernel Name\",\"gemm()\"\n") + kHeader +
           "\"0x1000\",\"UMOV UR13, 0x80000020\",\"4\",\"0\",\"0\"\n"
           "\"0x1010\",\"UMOV UR15, 0x80000020\",\"4\",\"0\",\"0\"\n"
           "\"0x1020\",\"HGMMA.64x64x16.F32 R24, gdesc[UR12], RZ, !UPT\",\"" + hgmma_executed + "\",\"32\",\"32\"\n"
           "\"0x1030\",\"UTMALDG.2D [UR8], [UR4]\",\"1\",\"0\",\"0\"\n"
           "\"0x1040\",\"LDS R1, [R2]\",\"1\",\"1\",\"1\"\n";
  };
  const CompareResult r = compare_with_ncu(parse_ncu_source(block("4") + block("8"), "ncu.csv"),
                                           {(dir / "launch-0.trace").string(), (dir / "launch-1.trace").string()},
                                           make_preset("sm90"));
  std::map<std::pair<std::uint64_t, std::uint64_t>, const CompareRow*> at;
  for (const CompareRow& row : r.rows) at[{row.launch, row.offset}] = &row;
  REQUIRE(at.count({0, 0x20}) == 1);
  REQUIRE(at.count({1, 0x20}) == 1);
  const std::string descriptors = "descriptors: A swizzle 64B, stride 512 B; B swizzle 64B, stride 512 B";
  CHECK(at.at({0, 0x20})->detail == descriptors +
                                        "; swizzle 64B is no tensor map's of the launch (they swizzle 128B): a tile "
                                        "those maps wrote is read here in another layout, and the products are wrong; "
                                        "the cost is the same (rule 8)");
  CHECK(at.at({1, 0x20})->detail == descriptors);
  CHECK(at.at({0, 0x20})->verdict_text() == "not traced (wgmma)");  // no wgmma record in these traces
  CHECK(at.at({0, 0x30})->verdict_text() == "yes (TMA: no shared wavefronts)");
}
