// End-to-end tests of `bankcheck report` (cli/report_command.cpp): the page
// of the committed capture tests/data/captures/transpose (made from
// tests/data/lineinfo, see its README), of a trace and of a results
// document; compare's verdicts joined on; bad input exits 2. What the page
// draws is checked in a browser (python/tests/test_report_browser.py).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "capture/host/summary/instruction_summary.hpp"
#include "tests/cli/cli_runner.hpp"

namespace report_command_test {

namespace {

namespace fs = std::filesystem;
using bankcheck::test::scratch;
using bankcheck::test::slurp;
using bankcheck::test::write_text;

const std::string kCapture = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/captures/transpose";

/// The page's data block, parsed.
nlohmann::json page_data(const std::string& path) {
  const std::string page = slurp(path);
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const auto from = page.find(open);
  REQUIRE(from != std::string::npos);
  const auto to = page.find("</script>", from);
  return nlohmann::json::parse(page.substr(from + open.size(), to - from - open.size()));
}

}  // namespace

TEST_CASE("report: a capture folder, its kernels ranked, lines and grids; compare's verdicts beside ncu's counts") {
  const std::string out = scratch("report_capture.html");
  const auto r = bankcheck::test::run_cli("report " + kCapture + " -o " + out);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.std_err.find("4 instructions (4 with a bank grid)") != std::string::npos);
  const auto d = page_data(out);
  REQUIRE(d["kernels"].size() == 2);
  CHECK(d["kernels"][0]["name"] == "transpose_naive(float *, const float *)");
  CHECK(d["kernels"][0]["conflicts"] == 992);  // 31 a warp, 32 warps (the capture's README)
  CHECK(d["kernels"][1]["conflicts"] == 0);
  CHECK(d["kernels"][0]["launches"] == 1);
  bool load = false;
  for (const auto& i : d["instructions"])
    if (i["site"] == "_Z15transpose_naivePfPKf+0x130") {
      load = true;
      CHECK(i["source"] == "tests/data/lineinfo/transpose.cu:7 (inlined at tests/data/lineinfo/transpose.cu:15)");
      CHECK(i["grid"]["culprit"] == "bank 0 serves 32 distinct words to lanes 0-31");
    }
  CHECK(load);
  CHECK(fs::file_size(out) < 100'000);

  // compare --json rows joined by kernel and offset.
  const std::string compare = scratch("report_compare.json");
  write_text(compare, R"J({"rows": [
    {"kernel": "transpose_naive(float *, const float *)", "offset": 304, "verdict_text": "yes", "measured_wavefronts": 1024},
    {"kernel": "transpose_naive(float *, const float *)", "offset": 272, "verdict_text": "no", "measured_wavefronts": 40},
    {"kernel": "elsewhere()", "offset": 16, "verdict_text": "yes", "measured_wavefronts": 1}]})J");
  REQUIRE(bankcheck::test::run_cli("report " + kCapture + " --compare " + compare + " -o " + out).code == 0);
  const auto c = page_data(out);
  CHECK(c["kernels"][0]["verdicts"] == "no 1, yes 1");
  CHECK(c["notes"].dump().find("1 rows of " + compare + " name no captured instruction") != std::string::npos);
  for (const auto& i : c["instructions"])
    if (i["site"] == "_Z15transpose_naivePfPKf+0x130") CHECK(i["measured"] == 1024);
}

TEST_CASE("report: an H100 capture of CUB's merge sort with compare's verdicts: ncu's count beside each instruction") {
  // validate/results/h100-2026-11-23/capture/real-programs.tar.xz, unpacked by the ctest fixture.
  const fs::path dir = fs::path(BANKCHECK_BINARY_DIR) / "real-programs" / "cub.merge_sort_u64";
  REQUIRE_MESSAGE(fs::is_directory(dir), dir << " is missing: run the ctest fixture capture.real_programs.unpack");
  std::string traces;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".bktrace") traces += " " + e.path().string();
  const std::string compare = scratch("report_real_compare.json"), out = scratch("report_real.html");
  REQUIRE(bankcheck::test::run_cli("compare --json --ncu " + (dir / "ncu.sass.csv").string() + traces + " -o " + compare).code == 0);
  const auto r = bankcheck::test::run_cli("report " + dir.string() + " --compare " + compare + " -o " + out);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto d = page_data(out);
  const auto c = nlohmann::json::parse(slurp(compare));
  std::size_t with_verdict = 0;
  for (const auto& i : d["instructions"]) {
    if (i["verdict"] == "") continue;
    ++with_verdict;
    CAPTURE(i["site"]);
    CHECK(i["verdict"] == "yes");  // every row of this capture equals the H100's count (docs/capture.md)
    CHECK(i["measured"] == i["wavefronts"]);  // joined on the right instruction
    CHECK(i["source"] == "");  // a capture made before sass.csv had lines, here without sass.csv
  }
  CHECK(with_verdict == c["rows"].size());
}

TEST_CASE("report: a --summary capture, its worst records drawn, over two launches of one kernel") {
  // The transpose capture's launches.csv and sass.csv, with summary.csv in place of its traces: the
  // naive kernel's column load in launches 0 and 2 (2 and 3 executions), its worst record lane l at
  // word 32 l (32 distinct words in bank 0: 32 wavefronts, 31 excess).
  const fs::path dir = scratch("report_summary");
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kCapture + "/sass.csv", dir / "sass.csv");
  write_text((dir / "launches.csv").string(),
             "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,trace\n"
             "0,_Z15transpose_naivePfPKf,naive,1x1x1,32x32x1,,2,2,captured,,\n"
             "1,_Z16transpose_paddedPfPKf,padded,1x1x1,32x32x1,,0,0,skipped,,\n"
             "2,_Z15transpose_naivePfPKf,naive,1x1x1,32x32x1,,3,3,captured,wgmma=1,\n");
  std::string table = bankcheck::capture::summary_table_header();
  for (const auto& [launch, executions] : {std::pair{0u, 2u}, {2u, 3u}}) {
    bankcheck::capture::InstructionSummary r;
    r.launch = launch;
    r.site = "_Z15transpose_naivePfPKf+0x130";
    r.executions = executions;
    r.lanes = 32 * executions;
    r.costs = bankcheck::capture::CostColumn{0, 0, 32 * executions, executions, 32};
    bankcheck::capture::WorstRecord w;
    w.mask = ~0u;
    for (unsigned l = 0; l < 32; ++l) w.addr[l] = 1024 + 128 * l;
    w.wavefronts = 32;
    w.excess = 31;
    r.worst = w;
    table += bankcheck::capture::summary_row_line(r);
  }
  write_text((dir / "summary.csv").string(), table);
  const std::string out = scratch("report_summary.html");
  const auto r = bankcheck::test::run_cli("report " + dir.string() + " -o " + out);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto d = page_data(out);
  REQUIRE(d["kernels"].size() == 1);
  CHECK(d["kernels"][0]["launches"] == 2);
  CHECK(d["kernels"][0]["notes"] == "launch 2 not traced: wgmma=1");
  REQUIRE(d["instructions"].size() == 1);
  const auto& i = d["instructions"][0];
  CHECK(i["executions"] == 5);
  CHECK(i["conflicts"] == 5 * 31);
  CHECK(i["source"] == "tests/data/lineinfo/transpose.cu:7 (inlined at tests/data/lineinfo/transpose.cu:15)");
  CHECK(i["grid"]["culprit"] == "bank 0 serves 32 distinct words to lanes 0-31");
}

TEST_CASE("report: a trace, and a results document (no lanes: no grids)") {
  const std::string example = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/traces/example.trace";
  const std::string out = scratch("report_trace.html");
  REQUIRE(bankcheck::test::run_cli("report " + example + " -o " + out).code == 0);
  const auto d = page_data(out);
  REQUIRE(d["kernels"].size() == 1);
  CHECK(d["kernels"][0]["conflicts"] == 32);  // the example's comments: 31 + 1
  const std::string json = scratch("report_results.json");
  REQUIRE(bankcheck::test::run_cli("replay --json " + example + " -o " + json).code == 0);
  REQUIRE(bankcheck::test::run_cli("report " + json + " -o " + out).code == 0);
  const auto j = page_data(out);
  CHECK(j["kernels"][0]["conflicts"] == 32);
  CHECK(j["instructions"][0]["grid"].contains("none"));
  // A layout check's results: Sw<3,4,3> read by ldmatrix.x4 has 8 of 16 wavefronts as conflicts (README).
  REQUIRE(bankcheck::test::run_cli("layout \"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\" --type fp16 --access ldmatrix.x4 --json -o " +
                                   json).code == 0);
  REQUIRE(bankcheck::test::run_cli("report " + json + " -o " + out).code == 0);
  CHECK(page_data(out)["kernels"][0]["conflicts"] == 8);
}

TEST_CASE("report: a trace is costed at its own warp (the papers' dmm at w = 8)") {
  const std::string trace = scratch("report_w8.trace"), out = scratch("report_w8.html");
  write_text(trace, "warp 8\n@stride2 ld 4 0 8 16 24 32 40 48 56\n");  // dmm, 8 banks: words 0,2,..,14 -> 2-way
  const auto r = bankcheck::test::run_cli("report --model dmm " + trace + " -o " + out);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(page_data(out)["kernels"][0]["conflicts"] == 1);
  CHECK(page_data(out)["instructions"][0]["grid"]["banks"] == 8);
}

TEST_CASE("report: bad input exits 2 and says why; the page never overwrites its input") {
  const std::string dir = scratch("report_not_capture");
  fs::create_directories(dir);
  auto r = bankcheck::test::run_cli("report " + dir + " -o " + scratch("x.html"));
  CHECK(r.code == 2);
  CHECK(r.out.find("without launches.csv is not a capture") != std::string::npos);
  const std::string trace = scratch("report_in.trace");
  write_text(trace, "warp 32\n@s ld 4 " + std::string(31 * 2, ' ') + "\n");
  r = bankcheck::test::run_cli("report " + trace + " -o " + scratch("x.html"));
  CHECK(r.code == 2);
  CHECK(r.out.find("report_in.trace:2") != std::string::npos);
  const std::string example = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/traces/example.trace";
  const std::string copy = scratch("report_self.trace");
  fs::copy_file(example, copy, fs::copy_options::overwrite_existing);
  r = bankcheck::test::run_cli("report " + copy + " -o " + copy);
  CHECK(r.code == 2);
  CHECK(slurp(copy) == slurp(example));
  r = bankcheck::test::run_cli("report " + example + " --compare " + example + " -o " + scratch("x.html"));
  CHECK(r.code == 2);
  CHECK(r.out.find("is not a folder") != std::string::npos);
}

}  // namespace report_command_test
