// Tests of capture/host/ring/slot_dedup.hpp: a launch's identical warp records
// merged into one with a count give a trace whose replay equals, instruction
// by instruction, the replay of the trace with every record written; records
// that differ in anything replay reads stay apart.
#include "capture/host/ring/slot_dedup.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/replay/parallel_replay.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace {

CaptureSlot record(std::uint64_t pc, SlotOp op, unsigned width, std::uint32_t mask, std::uint32_t block, std::uint32_t warp) {
  CaptureSlot s{};
  s.pc = pc;
  s.op = static_cast<std::uint8_t>(op);
  s.width = static_cast<std::uint8_t>(width);
  s.mask = mask;
  s.block[0] = block;
  s.warp = warp;
  return s;
}

/// The slots of a kernel of 6 blocks of 4 warps, 3 iterations each, as the ring hands them over:
/// records that repeat across blocks (a row, a 32-way column with idle lanes whose words differ, wgmma),
/// records that do not (a store at the block's offset, a copy whose sources are the block's).
std::vector<CaptureSlot> kernel_slots() {
  std::vector<CaptureSlot> out;
  for (std::uint32_t b = 0; b < 6; ++b)
    for (std::uint32_t w = 0; w < 4; ++w)
      for (std::uint32_t it = 0; it < 3; ++it) {
        CaptureSlot row = record(0x1010, SlotOp::load, 4, 0xFFFFFFFF, b, w);
        for (unsigned l = 0; l < 32; ++l) row.addr[l] = l * 4 + w * 128;
        out.push_back(row);
        CaptureSlot column = record(0x1020, SlotOp::load, 4, 0x0000FFFF, b, w);
        for (unsigned l = 0; l < 32; ++l) column.addr[l] = l < 16 ? l * 128 + it * 4 : b * 1000 + l;  // idle lanes: noise
        out.push_back(column);
        CaptureSlot own = record(0x1030, SlotOp::store, 8, 0xFFFFFFFF, b, w);
        for (unsigned l = 0; l < 32; ++l) own.addr[l] = b * 256 + l * 8;
        out.push_back(own);
        CaptureSlot copy = record(0x1040, SlotOp::cpasync, 16, 0xFFFFFFFF, b, w);
        CaptureSlot low = record(0x1040, SlotOp::source_low, 0, 0xFFFFFFFF, b, w);
        CaptureSlot high = record(0x1040, SlotOp::source_high, 0, 0xFFFFFFFF, b, w);
        for (unsigned l = 0; l < 32; ++l) {
          copy.addr[l] = 4096 + l * 16;
          low.addr[l] = b * 4096 + l * 16;  // the block's own sources: no two blocks' copies merge
          high.addr[l] = 1;
        }
        out.insert(out.end(), {copy, low, high});
        CaptureSlot mma = record(0x1050, SlotOp::wgmma, 16, 0xF, b, w);  // warp 0 carries the group's operands
        mma.addr[0] = 8192, mma.addr[1] = 4096, mma.addr[2] = 16384, mma.addr[3] = 8192;
        out.push_back(mma);
      }
  return out;
}

struct Written {
  std::uint64_t written = 0, bytes = 0;
};

/// The slots through the converter (and the deduplication table when `dedup`) into a trace at `path`.
Written write(const std::string& path, const std::vector<CaptureSlot>& slots, bool dedup, std::uint32_t capacity) {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  BinaryTraceWriter writer(OutputFile(path), 4);
  RecordConverter converter(writer, functions, 7);
  SlotDedup table(converter, capacity);
  std::uint64_t records = 0;
  for (const CaptureSlot& s : slots) {
    records += !is_continuation(static_cast<SlotOp>(s.op));
    if (dedup) table.add(s);
    else converter.add(s);
  }
  table.flush();
  if (dedup) CHECK(table.merged() + table.distinct() == records);
  CHECK(converter.rejected_total() == 0);
  converter.finish(records);  // the device's count: the reader refuses the trace unless the counts add up to it
  return {converter.written(), writer.bytes()};
}

ReplaySummary replay_file(const std::string& path, unsigned threads) {
  auto source = open_trace(path);
  return threads == 1 ? replay(*source, make_preset("sm90")) : replay_parallel(*source, make_preset("sm90"), threads);
}

}  // namespace

TEST_CASE("merged records replay to the totals of every record, per instruction, serial and parallel") {
  const std::vector<CaptureSlot> slots = kernel_slots();
  const std::string plain = bankcheck::test::scratch("dedup_plain.bktrace");
  const Written all = write(plain, slots, false, kDedupRecords);
  const ReplaySummary want = replay_file(plain, 1);
  for (std::uint32_t capacity : {kDedupRecords, 5u, 1u}) {  // 5 and 1: the table written out as it fills
    CAPTURE(capacity);
    const std::string merged = bankcheck::test::scratch("dedup_merged.bktrace");
    const Written some = write(merged, slots, true, capacity);
    CHECK(some.written == all.written);  // executions, as the device counted them
    if (capacity == kDedupRecords) CHECK(some.bytes * 2 < all.bytes);
    for (unsigned threads : {1u, 3u}) {
      const ReplaySummary got = replay_file(merged, threads);
      CHECK(got.totals == want.totals);
      REQUIRE(got.sites.size() == want.sites.size());
      for (std::size_t s = 0; s < got.sites.size(); ++s) {
        CHECK(got.sites[s].site == want.sites[s].site);
        CHECK(got.sites[s].totals == want.sites[s].totals);
        CHECK(got.sites[s].unmodelled == want.sites[s].unmodelled);
      }
      CHECK(got.unmodelled == want.unmodelled);
      CHECK(got.worst.present == want.worst.present);
      CHECK(got.worst.addr == want.worst.addr);
      CHECK(got.worst.cost.degree == want.worst.cost.degree);
    }
  }
  // Independent of the code: the column load is 16 lanes in one bank (16 wavefronts) 6 x 4 x 3 times.
  const auto column = std::find_if(want.sites.begin(), want.sites.end(), [](const SiteTotals& s) { return s.site == "_Z1kv+0x20"; });
  REQUIRE(column != want.sites.end());
  CHECK(column->totals.instructions == 72);
  CHECK(column->totals.wavefronts == 72 * 16);
}

TEST_CASE("records differing in what replay reads stay apart; a merged record keeps its first location") {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  TraceBuffer buffer;
  RecordConverter converter(buffer, functions, 0);
  SlotDedup table(converter);
  CaptureSlot a = record(0x1010, SlotOp::load, 4, 0x3, 5, 2);
  a.addr[0] = 0, a.addr[1] = 4;
  CaptureSlot b = a;
  b.block[0] = 9;  // elsewhere: merged
  CaptureSlot c = a;
  c.mask = 0x1;  // another mask
  CaptureSlot d = a;
  d.addr[1] = 8;  // another address
  CaptureSlot e = a;
  e.pc = 0x1014;  // another instruction
  CaptureSlot f = a;
  f.width = 8, f.addr[1] = 8;
  for (const CaptureSlot& s : {a, b, c, d, e, f, b}) table.add(s);
  table.flush();
  CHECK(table.merged() == 2);
  CHECK(table.distinct() == 5);
  CHECK(converter.written() == 7);
  REQUIRE(buffer.size() == 7);  // a TraceBuffer keeps no counts: a merged record is written its times
  CHECK(buffer.at(0).request.addr[1] == 4);  // a, first, and again for b
  CHECK(buffer.at(1).request.addr[1] == 4);
  // wgmma: the group's first warp carries the operands, the others none: those never merge with it.
  TraceBuffer mma_buffer;
  RecordConverter mma_converter(mma_buffer, functions, 0);
  SlotDedup mma_table(mma_converter);
  for (std::uint32_t w = 0; w < 8; ++w) {
    CaptureSlot m = record(0x1050, SlotOp::wgmma, 16, 0xF, 0, w);
    m.addr[0] = 0, m.addr[1] = 16, m.addr[2] = 32, m.addr[3] = 16;
    mma_table.add(m);
  }
  mma_table.flush();
  CHECK(mma_table.distinct() == 2);
  CHECK(mma_converter.written() == 8);
}

TEST_CASE("slots out of the ring's order reach the converter as they came, and are counted as without the table") {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  auto rejected = [&](bool dedup) {
    TraceBuffer buffer;
    RecordConverter converter(buffer, functions, 0);
    SlotDedup table(converter);
    const CaptureSlot orphan = record(0x1040, SlotOp::source_low, 0, 0xFFFFFFFF, 0, 0);
    const CaptureSlot copy = record(0x1040, SlotOp::cpasync, 16, 0xFFFFFFFF, 0, 0);
    const CaptureSlot load = record(0x1010, SlotOp::load, 4, 0x1, 0, 0);
    for (const CaptureSlot& s : {orphan, copy, load, copy, orphan, load, copy}) dedup ? table.add(s) : converter.add(s);
    table.flush();
    converter.finish(std::nullopt);
    return std::make_pair(converter.rejected(), converter.written());
  };
  CHECK(rejected(true) == rejected(false));
  CHECK(rejected(false).second == 2);
}
