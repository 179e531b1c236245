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
#include "tests/support/dedup_slots.hpp"

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

namespace {
LaunchSuggestion suggest_file(const std::string& path) {
  auto trace = open_trace(path);
  return suggest_from_trace(*trace, make_preset("sm90", 32));
}

/// The deduplicated trace's suggestion equals the full trace's: buffers, maps, wavefronts before, after and
/// ideal, per instruction too; only the fit's evidence differs.
void check_same(const LaunchSuggestion& full, const LaunchSuggestion& dedup) {
  CHECK_FALSE(full.deduplicated);
  CHECK(dedup.records == full.records);
  CHECK(dedup.distinct <= full.distinct);
  REQUIRE(dedup.buffers.size() == full.buffers.size());
  for (std::size_t k = 0; k < full.buffers.size(); ++k) {
    const BufferSuggestion &f = full.buffers[k], &d = dedup.buffers[k];
    CAPTURE(f.base);
    CHECK(d.base == f.base);
    CHECK(d.bytes == f.bytes);
    CHECK(d.suggested == f.suggested);
    CHECK(d.why_not == f.why_not);
    CHECK(d.before == f.before);
    CHECK(d.after == f.after);
    CHECK(d.ideal == f.ideal);
    CHECK(d.verdict == f.verdict);
    CHECK(d.map.text() == f.map.text());
    REQUIRE(d.instructions.size() == f.instructions.size());
    for (const SuggestedInstruction& fi : f.instructions) {
      const auto di = std::find_if(d.instructions.begin(), d.instructions.end(),
                                   [&](const SuggestedInstruction& i) { return i.site == fi.site; });
      REQUIRE(di != d.instructions.end());
      CHECK(di->executions == fi.executions);
      CHECK(di->fits == fi.fits);
      CHECK(di->before == fi.before);
      CHECK(di->after == fi.after);
      CHECK(di->ideal == fi.ideal);
      CHECK(di->evidence == (dedup.deduplicated ? FitEvidence::lanes_per_record : FitEvidence::every_execution));
    }
  }
}

/// The full trace at `path` run as `blocks` blocks, written as capture writes it with and without the
/// dedup table (and with a table of 5 records, written out as it fills): the same suggestions.
/// Returns the suggestion of the trace the full-size table wrote.
LaunchSuggestion dedup_matches_full(const std::string& path, std::uint32_t blocks) {
  CAPTURE(path);
  CAPTURE(blocks);
  const test::CapturedSlots slots = test::slots_of_trace(path, blocks);
  const std::string full_path = test::scratch("full.bktrace"), dedup_path = test::scratch("dedup.bktrace");
  const test::WrittenSlots full_written = test::write_slots(full_path, slots, false);
  REQUIRE(full_written.rejected == 0);
  const LaunchSuggestion full = suggest_file(full_path);
  LaunchSuggestion last;
  for (const std::uint32_t capacity : {5u, capture::kDedupRecords}) {  // the last: the table as capture sizes it
    CAPTURE(capacity);
    const test::WrittenSlots w = test::write_slots(dedup_path, slots, true, capacity);
    REQUIRE(w.rejected == 0);
    CHECK(w.written == full_written.written);
    last = suggest_file(dedup_path);
    CHECK(last.deduplicated == (w.merged > 0));
    check_same(full, last);
  }
  return last;
}
}  // namespace

TEST_CASE("suggest on a deduplicated capture: the maps and wavefronts of the full capture, on the fixtures") {
  // tests/data/captures/transpose: one block of the naive and the padded transpose. As 4 blocks, every
  // block's records repeat, so the table merges each into one record of count 4.
  const std::string dir = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/captures/transpose/";
  for (const std::uint32_t blocks : {1u, 4u}) {
    const LaunchSuggestion naive = dedup_matches_full(dir + "launch-0.trace", blocks);
    CHECK(naive.deduplicated == (blocks > 1));
    REQUIRE(naive.buffers.size() == 1);
    // The fixture's README, independent of bankcheck: per block the column load costs 1024 wavefronts, the
    // row store 32; conflict-free is one wavefront a warp instruction, 64.
    CHECK(naive.buffers[0].before == 1056u * blocks);
    CHECK(naive.buffers[0].after == 64u * blocks);
    CHECK(naive.buffers[0].ideal == 64u * blocks);
    const LaunchSuggestion padded = dedup_matches_full(dir + "launch-1.trace", blocks);
    REQUIRE(padded.buffers.size() == 1);
    CHECK(padded.buffers[0].why_not.rfind("no affine fit: no suggestion", 0) == 0);
  }
  // This file's traces: the transpose, the histogram's data-dependent bins (no fit in either), the loop
  // whose iterations repeat requests, as 3 blocks.
  const Lanes bins = [](std::uint32_t l, std::uint32_t w, std::uint32_t it) {
    return 8192u + 4u * ((l * 7u + w * 13u + it * 5u) % 64u);
  };
  const Lanes looped = [](std::uint32_t l, std::uint32_t w, std::uint32_t it) { return l * 128u + (w ^ (it & 1)) * 4u; };
  const LaunchSuggestion hist = dedup_matches_full(
      write_trace("d_hist.trace", 4, {{"k+0x10", "st", 4, kRowWrite}, {"k+0x20", "ld", 4, kColumnRead},
                                      {"h+0x40", "atom", 4, bins, 3}}), 3);
  REQUIRE(hist.buffers.size() == 2);
  CHECK(hist.buffers[1].why_not == "no affine fit: no suggestion (h+0x40)");
  CHECK(hist.buffers[1].instructions[0].fit.rfind("no affine fit: lane ", 0) == 0);
  const LaunchSuggestion loop = dedup_matches_full(write_trace("d_loop.trace", 32, {{"k+0x30", "ld", 4, looped, 4}}), 3);
  REQUIRE(loop.buffers.size() == 1);
  CHECK(loop.buffers[0].before == 3u * 128u * 32u);  // enumerated above: every request's 32 words in one bank
  CHECK(loop.buffers[0].after == 3u * 128u);
  CHECK(loop.distinct == 32);  // warp w reads columns w and w ^ 1: 32 distinct columns over the warps
  CHECK(loop.buffers[0].instructions[0].fit.find("lane[0:0x80 1:0x100 2:0x200 3:0x400 4:0x800] in each of 32") == 0);
}

TEST_CASE("suggest on a deduplicated capture: a record whose lanes are not GF(2)-affine gets no fit, never a guess") {
  // lane x 12 carries (12 = 8 + 4): lanes 1, 2, 3 at 12, 24, 36, where an affine map gives 12 ^ 24 = 20 for lane 3.
  const Lanes stride12 = [](std::uint32_t l, std::uint32_t, std::uint32_t) { return 4096u + l * 12u; };
  const std::string path = write_trace("d_stride.trace", 2, {{"k+0x60", "ld", 4, stride12}});
  const test::CapturedSlots slots = test::slots_of_trace(path, 2);
  const std::string dedup_path = test::scratch("d_stride.bktrace");
  REQUIRE(test::write_slots(dedup_path, slots, true).merged == 3);
  const LaunchSuggestion s = suggest_file(dedup_path);
  CHECK(s.deduplicated);
  REQUIRE(s.buffers.size() == 1);
  CHECK_FALSE(s.buffers[0].suggested);
  CHECK(s.buffers[0].instructions[0].fit ==
        "no affine fit: lane 3 of distinct record 1 (4 executions) touches offset 36, which no GF(2)-affine map of "
        "the record's other lanes gives");
}

}  // namespace capture_suggestion_test
