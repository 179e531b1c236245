// Tests of capture/host/ncu/ncu_page.hpp: the rows, tables and blocks of
// Nsight Compute's CSV pages and the rules for the blocks ncu prints twice,
// on hand-made pages in ncu's layout (its own lines mixed in, a row of
// units, a source page's blocks) and on a committed genuine page.
#include "capture/host/ncu/ncu_page.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "tests/pipe_output.hpp"

namespace ncu_page_test {

using namespace bankcheck::capture;

namespace {

std::vector<std::size_t> kept_by_list(const std::vector<std::string>& blocks,
                                      const std::vector<std::optional<std::string>>& launches,
                                      const std::vector<int>& content) {
  return blocks_of_launches(blocks, launches, [&](std::size_t a, std::size_t b) { return content[a] == content[b]; });
}

}  // namespace

TEST_CASE("a page's rows are its quoted lines, numbered as in the text") {
  const auto rows = ncu_page_rows("==PROF== Connected\n\"a\",\"b\"\nprogram output\n\"1\",\"x, y\"\r\n", "p.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].line == 2);
  CHECK(rows[1].line == 4);
  CHECK(rows[1].cells == std::vector<std::string>{"1", "x, y"});
  CHECK_THROWS_WITH_AS(ncu_page_rows("\"a\",\"b\"\n\"open\n", "p.csv"), doctest::Contains("p.csv:2:"),
                       std::invalid_argument);
}

TEST_CASE("a table page: the header, the units row left out, every other row kept") {
  const std::string raw = "\"ID\",\"Kernel Name\",\"dram__bytes\"\n\"\",\"\",\"byte\"\n\"0\",\"k\",\"1,024\"\n\"1\",\"k\",\"8\"\n";
  const NcuTable t = ncu_table_rows(ncu_page_rows(raw, "raw.csv"), "raw.csv");
  CHECK(t.header.cells[1] == "Kernel Name");
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].cells[2] == "1,024");
  // a long-form details page has no units row: its second row is a launch's
  const std::string details = "\"ID\",\"Metric Name\",\"Metric Value\"\n\"0\",\"a\",\"1\"\n\"0\",\"b\",\"2\"\n";
  CHECK(ncu_table_rows(ncu_page_rows(details, "d.csv"), "d.csv").rows.size() == 2);
  CHECK_THROWS_AS(ncu_table_rows({}, "empty.csv"), std::invalid_argument);
}

TEST_CASE("a source page's blocks: a kernel row, a header, instruction rows") {
  const std::string page = "\"Kernel Name\",\"k1\"\n\"Address\",\"Source\"\n\"0x10\",\"LDS R1, [R2]\"\n\"0x20\",\"EXIT\"\n"
                           "==PROF== between\n\"Kernel Name\",\"k2\"\n\"Address\",\"Source\"\n\"0x30\",\"EXIT\"\n";
  const auto blocks = ncu_source_blocks(ncu_page_rows(page, "s.csv"), "s.csv");
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].kernel_name() == "k1");
  CHECK(blocks[0].rows.size() == 2);
  CHECK(blocks[1].kernel_name() == "k2");
  CHECK(blocks[1].header->line == 7);
  CHECK_THROWS_WITH_AS(ncu_source_blocks(ncu_page_rows("\"Address\",\"Source\"\n", "s.csv"), "s.csv"),
                       doctest::Contains("s.csv:1: a header line before"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ncu_source_blocks(ncu_page_rows("\"Kernel Name\",\"k\"\n\"0x10\",\"EXIT\"\n", "s.csv"), "s.csv"),
                       doctest::Contains("s.csv:2: an instruction row before"), std::invalid_argument);
}

TEST_CASE("without the launch list, copies go only where every block is doubled") {
  struct Case {
    std::vector<int> content;  // equal numbers: equal blocks
    std::vector<std::size_t> kept;
  };
  for (const Case& c : {Case{{1, 1, 2, 2}, {0, 2}}, Case{{1, 1, 1, 1}, {0, 2}}, Case{{1, 1, 2}, {0, 1, 2}},
                        Case{{1, 1, 2, 3}, {0, 1, 2, 3}}, Case{{1, 2, 1, 2}, {0, 1, 2, 3}}, Case{{}, {}}}) {
    CAPTURE(c.content.size());
    CHECK(blocks_without_copies(c.content.size(), [&](std::size_t a, std::size_t b) {
            return c.content[a] == c.content[b];
          }) == c.kept);
  }
}

TEST_CASE("with the launch list, a block equal to the one before is a copy while blocks outnumber launches") {
  // cuDNN's pattern (H100, 2026-11-26): most blocks doubled, one launch printed once
  CHECK(kept_by_list({"a", "a", "s", "a", "a", "a"}, {"a", "s", "a", "a"}, {1, 1, 2, 3, 3, 4}) ==
        std::vector<std::size_t>{0, 2, 3, 5});
  // two identical launches printed once each stay two
  CHECK(kept_by_list({"a", "a"}, {"a", "a"}, {1, 1}) == std::vector<std::size_t>{0, 1});
  // a list that names no kernels pairs by order and count
  CHECK(kept_by_list({"a", "a", "b", "b"}, {std::nullopt, std::nullopt}, {1, 1, 2, 2}) ==
        std::vector<std::size_t>{0, 2});
  CHECK_THROWS_WITH_AS(kept_by_list({"b"}, {"a"}, {1}), doctest::Contains("block 0 is not launch 0 ('a')"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(kept_by_list({"a", "a"}, {"a"}, {1, 2}), doctest::Contains("1 blocks more than"),
                       std::invalid_argument);
}

TEST_CASE("a genuine source page: every block of ncu 2025.3 printed twice") {
  const std::string text = bankcheck::test::pipe_output(
      "gzip -dc '" + std::string(BANKCHECK_SOURCE_DIR) + "/validate/results/h100-2026-11-22/per-instruction/pbs.sass.csv.gz'");
  const auto blocks = ncu_source_blocks(ncu_page_rows(text, "pbs"), "pbs");
  REQUIRE(blocks.size() % 2 == 0);
  const auto kept = blocks_without_copies(blocks.size(), [&](std::size_t a, std::size_t b) {
    return blocks[a].kernel.cells == blocks[b].kernel.cells && blocks[a].rows.size() == blocks[b].rows.size();
  });
  CHECK(kept.size() * 2 == blocks.size());
}

}  // namespace ncu_page_test
