// `bankcheck suggest`'s library on traces written here as a capture writes
// them (text, with `at` locations). The expected counts are enumerated by
// this test itself: a 4-byte warp request on 32 banks of 4 bytes is one
// phase, and costs the most distinct words any one bank must serve
// (docs/bank-model.md, rule 1).
#include "proofs/capture_suggestion.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

namespace capture_suggestion_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

namespace {
using Lanes = std::function<std::uint64_t(std::uint32_t lane, std::uint32_t warp, std::uint32_t iteration)>;

struct Site {
  std::string name, op;
  unsigned width;
  Lanes address;
  std::uint32_t iterations = 1;
};

/// A one-block trace of `warps` warps running `sites` in order, `iterations` times each.
std::string write_trace(const std::string& name, std::uint32_t warps, const std::vector<Site>& sites) {
  const std::string path = test::scratch(name);
  std::ofstream out(path);
  out << "warp 32\n";
  for (std::uint32_t w = 0; w < warps; ++w) {
    out << "at launch=0 block=0,0,0 warp=" << w << "\n";
    for (const Site& s : sites)
      for (std::uint32_t it = 0; it < s.iterations; ++it) {
        out << "@" << s.name << " " << s.op << " " << s.width;
        for (std::uint32_t l = 0; l < 32; ++l) out << " " << s.address(l, w, it);
        out << "\n";
      }
  }
  return path;
}

/// Wavefronts of one 4-byte request, enumerated: the most distinct words of one bank.
std::uint64_t enumerate_4byte(const std::vector<std::uint64_t>& addr) {
  std::map<std::uint64_t, std::set<std::uint64_t>> words;
  for (const std::uint64_t a : addr) words[(a / 4) % 32].insert(a / 4);
  std::uint64_t worst = 0;
  for (const auto& [bank, w] : words) worst = std::max<std::uint64_t>(worst, w.size());
  return worst;
}

const Lanes kRowWrite = [](std::uint32_t l, std::uint32_t w, std::uint32_t) { return 1024u + w * 128u + l * 4u; };
const Lanes kColumnRead = [](std::uint32_t l, std::uint32_t w, std::uint32_t) { return 1024u + l * 128u + w * 4u; };
}  // namespace

TEST_CASE("suggest from a trace: the 32x32 fp32 transpose's 32-way column reads become conflict-free") {
  const std::string path = write_trace("transpose.trace", 32,
                                       {{"k+0x10", "st", 4, kRowWrite}, {"k+0x20", "ld", 4, kColumnRead}});
  const BankModel model = make_preset("sm90", 32);
  auto trace = open_trace(path);
  const LaunchSuggestion s = suggest_from_trace(*trace, model);
  CHECK(s.records == 64);
  REQUIRE(s.buffers.size() == 1);
  const BufferSuggestion& b = s.buffers[0];
  CHECK(b.base == 1024);
  CHECK(b.bytes == 4096);
  REQUIRE(b.suggested);
  REQUIRE(b.instructions.size() == 2);
  // Before, enumerated: the rows are one word per bank; the columns' 32 words share one bank.
  std::uint64_t before_rows = 0, before_cols = 0, after_rows = 0, after_cols = 0;
  for (std::uint32_t w = 0; w < 32; ++w) {
    std::vector<std::uint64_t> row, col, row_m, col_m;
    for (std::uint32_t l = 0; l < 32; ++l) {
      row.push_back(kRowWrite(l, w, 0)), col.push_back(kColumnRead(l, w, 0));
      row_m.push_back(1024 + b.map.apply(kRowWrite(l, w, 0) - 1024));
      col_m.push_back(1024 + b.map.apply(kColumnRead(l, w, 0) - 1024));
    }
    before_rows += enumerate_4byte(row), before_cols += enumerate_4byte(col);
    after_rows += enumerate_4byte(row_m), after_cols += enumerate_4byte(col_m);
  }
  CHECK(before_cols == 1024);
  CHECK(b.instructions[0].site == "k+0x10");
  CHECK(b.instructions[0].before == before_rows);
  CHECK(b.instructions[1].before == before_cols);
  CHECK(b.instructions[0].after == after_rows);
  CHECK(b.instructions[1].after == after_cols);
  CHECK(after_cols == 32);  // conflict-free: one wavefront a warp
  CHECK(after_rows == 32);
  CHECK(b.before == before_rows + before_cols);
  CHECK(b.after == 64);
  CHECK(b.ideal == 64);
  CHECK(b.verdict.rfind("conflict-free", 0) == 0);
  // The map permutes the buffer and keeps each 4-byte word whole.
  std::set<std::uint64_t> image;
  for (std::uint64_t o = 0; o < 4096; ++o) image.insert(b.map.apply(o));
  CHECK(image.size() == 4096);
  CHECK(*image.rbegin() == 4095);
  CHECK(b.map.lowest_target() >= 2);
  for (const auto& i : b.instructions) CHECK(i.fits);
}

TEST_CASE("suggest from a trace: a histogram's data-dependent atomics get no affine fit and no suggestion") {
  const Lanes bins = [](std::uint32_t l, std::uint32_t w, std::uint32_t it) {
    return 8192u + 4u * ((l * 7u + w * 13u + it * 5u) % 64u);
  };
  const std::string path = write_trace("histogram.trace", 4,
                                       {{"k+0x10", "st", 4, kRowWrite}, {"k+0x20", "ld", 4, kColumnRead},
                                        {"h+0x40", "atom", 4, bins, 3}});
  const BankModel model = make_preset("sm90", 32);
  auto trace = open_trace(path);
  const LaunchSuggestion s = suggest_from_trace(*trace, model);
  REQUIRE(s.buffers.size() == 2);  // the transpose's tile and the bins do not overlap
  const BufferSuggestion& tile = s.buffers[0];
  const BufferSuggestion& hist = s.buffers[1];
  CHECK(tile.suggested);
  CHECK(hist.base == 8192);
  CHECK_FALSE(hist.suggested);
  CHECK(hist.why_not == "no affine fit: no suggestion (h+0x40)");
  REQUIRE(hist.instructions.size() == 1);
  CHECK_FALSE(hist.instructions[0].fits);
  CHECK(hist.instructions[0].fit.rfind("no affine fit:", 0) == 0);
  CHECK(hist.instructions[0].executions == 12);
  CHECK(hist.instructions[0].after == hist.instructions[0].before);  // nothing suggested, nothing claimed
  CHECK(hist.map.is_identity());
}

TEST_CASE("suggest from a trace: a loop's iterations are fitted, and repeated requests weigh by their count") {
  // Each warp reads column `it` of a 32x32 tile 4 times over (same addresses per iteration pair).
  const Lanes looped = [](std::uint32_t l, std::uint32_t w, std::uint32_t it) { return l * 128u + (w ^ (it & 1)) * 4u; };
  const std::string path = write_trace("loop.trace", 32, {{"k+0x30", "ld", 4, looped, 4}});
  const BankModel model = make_preset("sm90", 32);
  auto trace = open_trace(path);
  const LaunchSuggestion s = suggest_from_trace(*trace, model);
  REQUIRE(s.buffers.size() == 1);
  const BufferSuggestion& b = s.buffers[0];
  REQUIRE(b.instructions.size() == 1);
  CHECK(b.instructions[0].fits);
  CHECK(b.instructions[0].fit.find("iteration[0:0x4]") != std::string::npos);
  CHECK(b.instructions[0].executions == 128);
  CHECK(b.instructions[0].before == 128 * 32);  // enumerated: every request's 32 words in one bank
  CHECK(b.after == 128);
}

TEST_CASE("suggest from a trace: a buffer with an instruction the model has no rule for gets no suggestion") {
  // 12-byte loads not all 16-byte aligned are not modelled (docs/bank-model.md): never costed, never suggested.
  const Lanes triple = [](std::uint32_t l, std::uint32_t w, std::uint32_t) { return 4u + l * 16u + w * 512u; };
  const std::string path = write_trace("triple.trace", 2, {{"k+0x50", "ld", 12, triple}});
  const BankModel model = make_preset("sm90", 32);
  auto trace = open_trace(path);
  const LaunchSuggestion s = suggest_from_trace(*trace, model);
  REQUIRE(s.buffers.size() == 1);
  CHECK_FALSE(s.buffers[0].suggested);
  CHECK(s.buffers[0].why_not == "not modelled: ld 12 (k+0x50)");
  REQUIRE(s.buffers[0].instructions.size() == 1);
  CHECK(s.buffers[0].instructions[0].fits);
  CHECK_FALSE(s.buffers[0].instructions[0].modelled);
}

}  // namespace capture_suggestion_test
