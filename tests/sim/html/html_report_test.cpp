// Tests of sim/html/html_report.hpp: the page's data (kernels ranked by
// conflict cycles, source lines read around the instructions, every kernel's
// instructions) and the page itself (one file, its data unable to close its
// script element). The browser tests (python/tests/test_report_browser.py)
// check what the page draws.
#include "sim/html/html_report.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "tests/scratch.hpp"

namespace html_report_test {

using namespace bankcheck;

namespace {
html::ReportInstruction instruction(const std::string& kernel, std::uint64_t conflicts, std::uint32_t line) {
  html::ReportInstruction i;
  i.kernel = kernel;
  i.site = kernel + "+0x10";
  i.op = "ld";
  i.width = 4;
  i.totals = CostTotals{1, 32, 1 + conflicts, 1, static_cast<std::uint32_t>(conflicts + 1)};
  i.source = report::SourceLine{report::FileLine{test::scratch("html_report_test.cu"), line}, {}};
  return i;
}
}  // namespace

TEST_CASE("kernels ranked by conflict cycles; the source lines around each instruction; no lanes, no grid") {
  {
    std::ofstream cu(test::scratch("html_report_test.cu"));
    for (int n = 1; n <= 20; ++n) cu << "line " << n << "\n";
  }
  html::ReportInput input;
  input.title = "t";
  input.instructions = {instruction("quiet", 0, 3), instruction("loud", 7, 10), instruction("loud", 1, 18)};
  input.launches["loud"] = 4;
  input.kernel_notes["quiet"] = {"launch 0 not traced: wgmma=2"};
  const auto d = html::report_data(input, make_preset("sm90"));
  REQUIRE(d["kernels"].size() == 2);
  CHECK(d["kernels"][0]["name"] == "loud");
  CHECK(d["kernels"][0]["rank"] == 1);
  CHECK(d["kernels"][0]["conflicts"] == 8);
  CHECK(d["kernels"][0]["conflict_cycles"] == 8.0);  // the H100's 1 cycle per wavefront
  CHECK(d["kernels"][0]["launches"] == 4);
  CHECK(d["kernels"][1]["notes"] == "launch 0 not traced: wgmma=2");
  CHECK(d["kernels"][0]["instructions"] == nlohmann::ordered_json::array({0, 1}));
  CHECK(d["instructions"][0]["line"] == 10);
  CHECK(d["instructions"][0]["grid"]["none"] == "the input holds no lane addresses for it");
  const auto& file = d["files"][test::scratch("html_report_test.cu")];
  CHECK(file["found"] == true);
  CHECK(file["lines"]["10"] == "line 10");
  CHECK(file["lines"].contains("8"));  // two lines of context
  CHECK_FALSE(file["lines"].contains("7"));
  CHECK_FALSE(file["lines"].contains("14"));
  CHECK(file["lines"].contains("20"));
}

TEST_CASE("one self-contained page: no external resource, and data that cannot end its script early") {
  html::ReportInput input;
  input.title = "a </script> <b>title</b>";
  input.instructions = {instruction("k", 1, 1)};
  input.instructions[0].sass = "</script><script>alert(1)</script>";
  const std::string page = html::report_html(input, make_preset("sm90"));
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("<title>bankcheck report: a &lt;/script&gt; &lt;b&gt;title&lt;/b&gt;</title>") != std::string::npos);
  CHECK(page.find("<\\/script><script>alert(1)<\\/script>") != std::string::npos);
  std::size_t scripts = 0;
  for (std::size_t at = 0; (at = page.find("</script>", at)) != std::string::npos; ++at) ++scripts;
  CHECK(scripts == 2);  // the data block's and the code's
  for (const char* external : {"src=", "href=", "http:", "https:", "@import"}) CHECK(page.find(external) == std::string::npos);
}

TEST_CASE("a source file that is not UTF-8 is shown, its stray bytes replaced, not a failure") {
  std::ofstream(test::scratch("html_report_test.cu")) << "caf\xe9 // Latin-1\n";
  html::ReportInput input;
  input.instructions = {instruction("k", 1, 1)};
  const std::string page = html::report_html(input, make_preset("sm90"));
  CHECK(page.find("caf\xef\xbf\xbd // Latin-1") != std::string::npos);  // U+FFFD
}

}  // namespace html_report_test
