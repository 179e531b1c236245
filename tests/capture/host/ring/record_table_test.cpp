// Tests of capture/host/ring/record_table.hpp: the device's table of distinct
// records, as the host reads it. A sequential table built here as the
// patches build theirs (capture/device/record_table.cuh: a record's hash from
// its lanes' shares, one entry per distinct record, a count per execution)
// must replay, site by site, to the totals of every record written one by
// one; an entry whose words or header were damaged, or whose kind the table
// never holds, is refused and counted, never written.
#include "capture/host/ring/record_table.hpp"

#include <doctest/doctest.h>

#include <map>
#include <vector>

#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/trace_budget.hpp"
#include "model/power_of_two.hpp"
#include "model/bank_model.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace record_table_test {

/// One warp execution as the patches see it: its header and each lane's words (0 outside the mask).
struct Execution {
  std::uint64_t pc;
  SlotOp op;
  unsigned width;
  std::uint32_t mask;
  std::uint32_t block, warp;
  std::uint32_t words[kRecordSlots][kCaptureWarp] = {};
};

unsigned slots_of(SlotOp op) { return 1 + continuation_slots(op); }

/// The record's hash as a warp computes it: each active lane's share, XORed.
std::uint64_t warp_hash(const Execution& x) {
  std::uint64_t lanes = 0;
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    if (((x.mask >> l) & 1u) == 0) continue;
    std::uint32_t w[kRecordSlots] = {x.words[0][l], x.words[1][l], x.words[2][l]};
    lanes ^= lane_hash(l, w, slots_of(x.op));
  }
  return record_hash(x.pc, record_shape(x.op, x.width), x.mask, lanes);
}

/// A table filled one execution at a time, as the patches fill theirs (without the concurrency).
struct Table {
  std::vector<RecordEntry> entries;
  std::map<std::uint64_t, std::vector<std::size_t>> by_hash;
  void add(const Execution& x) {
    const std::uint64_t h = warp_hash(x);
    for (std::size_t i : by_hash[h]) {
      RecordEntry& e = entries[i];
      bool same = e.pc == x.pc && e.mask == x.mask && e.shape == record_shape(x.op, x.width);
      for (unsigned k = 0; k < slots_of(x.op); ++k)
        for (unsigned l = 0; l < kCaptureWarp; ++l) same = same && e.words[k][l] == x.words[k][l];
      if (same) {
        ++e.count;
        return;
      }
    }
    RecordEntry e{};
    e.hash = h, e.count = 1, e.pc = x.pc, e.block[0] = x.block, e.warp = x.warp, e.mask = x.mask;
    e.shape = record_shape(x.op, x.width);
    for (unsigned k = 0; k < slots_of(x.op); ++k)
      for (unsigned l = 0; l < kCaptureWarp; ++l) e.words[k][l] = x.words[k][l];
    by_hash[h].push_back(entries.size());
    entries.push_back(e);
  }
};

/// A kernel of 6 blocks of 4 warps, 3 iterations: records that repeat across blocks and records that do not.
std::vector<Execution> kernel() {
  std::vector<Execution> out;
  for (std::uint32_t b = 0; b < 6; ++b)
    for (std::uint32_t w = 0; w < 4; ++w)
      for (std::uint32_t it = 0; it < 3; ++it) {
        Execution row{0x1010, SlotOp::load, 4, 0xFFFFFFFF, b, w};
        for (unsigned l = 0; l < 32; ++l) row.words[0][l] = l * 4 + w * 128;
        Execution column{0x1020, SlotOp::load, 4, 0x0000FFFF, b, w};
        for (unsigned l = 0; l < 16; ++l) column.words[0][l] = l * 128 + it * 4;
        Execution own{0x1030, SlotOp::store, 8, 0xFFFFFFFF, b, w};
        for (unsigned l = 0; l < 32; ++l) own.words[0][l] = b * 256 + l * 8;
        Execution copy{0x1040, SlotOp::cpasync, 16, 0xFFFFFFFF, b, w};
        for (unsigned l = 0; l < 32; ++l) {
          copy.words[0][l] = 4096 + l * 16;
          copy.words[1][l] = (it % 2) * 4096 + l * 16;  // sources repeat every other iteration
          copy.words[2][l] = 1;
        }
        Execution rows{0x1060, SlotOp::ldsm, 16, 0x000000FF, b, w};
        for (unsigned l = 0; l < 8; ++l) rows.words[0][l] = l * 128;  // 8 rows of one bank group: 8-way
        out.insert(out.end(), {row, column, own, copy, rows});
      }
  return out;
}

/// The executions' slots as the ring would carry them, one record each.
std::vector<CaptureSlot> ring_slots(const Execution& x) {
  std::vector<CaptureSlot> out;
  for (unsigned k = 0; k < slots_of(x.op); ++k) {
    CaptureSlot s{};
    s.pc = x.pc, s.mask = x.mask, s.block[0] = x.block, s.warp = x.warp;
    s.op = static_cast<std::uint8_t>(k == 0 ? x.op : continuation(x.op, k - 1));
    s.width = static_cast<std::uint8_t>(x.width);
    for (unsigned l = 0; l < kCaptureWarp; ++l) s.addr[l] = x.words[k][l];
    out.push_back(s);
  }
  return out;
}

ReplaySummary replay_file(const std::string& path) {
  auto source = open_trace(path);
  return replay(*source, make_preset("sm90"));
}

struct Written {
  std::uint64_t executions = 0, bytes = 0;
  TableIntake intake;
};

/// The kernel into a trace at `path`: every record through the converter, or the table's entries with their counts.
Written write(const std::string& path, bool table) {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  BinaryTraceWriter writer(OutputFile(path), 4);
  RecordConverter converter(writer, functions, 7);
  BudgetedSlots slots(converter, writer, nullptr);
  const std::vector<Execution> executions = kernel();
  Written out;
  if (table) {
    Table t;
    for (const Execution& x : executions) t.add(x);
    out.intake = take_entries(t.entries.data(), t.entries.size(),
                              [&](const CaptureSlot* s, std::size_t n, std::uint64_t count) { slots.take_repeated(s, n, count); });
  } else {
    for (const Execution& x : executions)
      for (const CaptureSlot& s : ring_slots(x)) slots.take(s);
  }
  CHECK(converter.rejected_total() == 0);
  converter.finish(executions.size());  // the reader refuses the trace unless the counts add up to it
  out.executions = converter.written();
  out.bytes = writer.bytes();
  return out;
}

TEST_CASE("the table's entries replay to the totals of every record written, site by site") {
  const std::string plain = bankcheck::test::scratch("table_plain.bktrace");
  const std::string merged = bankcheck::test::scratch("table_merged.bktrace");
  const Written all = write(plain, false);
  const Written some = write(merged, true);
  CHECK(some.executions == all.executions);
  CHECK(some.intake.executions == 6 * 4 * 3 * 5);
  CHECK(some.intake.broken == 0);
  // Distinct records: rows 4 (one per warp), columns 3 (one per iteration), the blocks' stores 6, copies 2, rows 1.
  CHECK(some.intake.entries == 4 + 3 + 6 + 2 + 1);
  CHECK(some.bytes * 4 < all.bytes);
  const ReplaySummary want = replay_file(plain);
  const ReplaySummary got = replay_file(merged);
  CHECK(got.totals == want.totals);
  REQUIRE(got.sites.size() == want.sites.size());
  for (std::size_t s = 0; s < got.sites.size(); ++s) {
    CHECK(got.sites[s].site == want.sites[s].site);
    CHECK(got.sites[s].totals == want.sites[s].totals);
  }
  // Independent of the code: the column load is 16 lanes in one bank (16 wavefronts), 6 x 4 x 3 times;
  // the ldmatrix's 8 rows 128 bytes apart are one bank group each time (8 wavefronts).
  for (const auto& [site, per] : {std::pair{"_Z1kv+0x20", 16u}, std::pair{"_Z1kv+0x60", 8u}}) {
    CAPTURE(site);
    const auto it = std::find_if(got.sites.begin(), got.sites.end(), [&](const SiteTotals& s) { return s.site == site; });
    REQUIRE(it != got.sites.end());
    CHECK(it->totals.instructions == 72);
    CHECK(it->totals.wavefronts == 72u * per);
  }
}

TEST_CASE("a record's hash sees every active lane's words, where they are, and nothing of the idle lanes") {
  Execution a{0x1010, SlotOp::load, 4, 0x0000FFFF, 0, 0};
  for (unsigned l = 0; l < 16; ++l) a.words[0][l] = l * 4;
  const std::uint64_t h = warp_hash(a);
  Execution swapped = a;
  std::swap(swapped.words[0][3], swapped.words[0][5]);  // the same words in other lanes
  CHECK(warp_hash(swapped) != h);
  Execution moved = a;
  moved.words[0][15] += 4;
  CHECK(warp_hash(moved) != h);
  Execution wider = a;
  wider.width = 8;
  CHECK(warp_hash(wider) != h);
  Execution elsewhere = a;
  elsewhere.block = 7, elsewhere.warp = 3;  // the location is not the record's
  CHECK(warp_hash(elsewhere) == h);
  Table t;
  t.add(a);
  CHECK(entry_hash(t.entries[0]) == h);  // the host recomputes what the warp computed
}

TEST_CASE("entries are handed on as the ring's slots; damaged ones are refused and counted") {
  Table t;
  for (const Execution& x : kernel()) t.add(x);
  const RecordEntry& copy = *std::find_if(t.entries.begin(), t.entries.end(), [](const RecordEntry& e) { return e.pc == 0x1040; });
  CaptureSlot slots[kRecordSlots];
  REQUIRE(entry_slots(copy, slots) == 3);
  CHECK(static_cast<SlotOp>(slots[0].op) == SlotOp::cpasync);
  CHECK(static_cast<SlotOp>(slots[1].op) == SlotOp::source_low);
  CHECK(static_cast<SlotOp>(slots[2].op) == SlotOp::source_high);
  CHECK(slots[0].width == 16);
  CHECK(slots[1].addr[3] == copy.words[1][3]);
  CHECK(slots[2].addr[31] == 1);
  std::vector<RecordEntry> damaged(t.entries.begin(), t.entries.begin() + 4);
  damaged[0].words[0][2] ^= 4;  // a word the device did not hash
  damaged[1].count = 0;         // never executed
  damaged[2].shape = record_shape(SlotOp::wgmma, 16);  // a kind the table never holds
  damaged[2].hash = entry_hash(damaged[2]);
  std::uint64_t taken = 0;
  const TableIntake intake = take_entries(damaged.data(), damaged.size(),
                                          [&](const CaptureSlot*, std::size_t, std::uint64_t count) { taken += count; });
  CHECK(intake.broken == 3);
  CHECK(intake.entries == 1);
  CHECK(intake.executions == damaged[3].count);
  CHECK(taken == damaged[3].count);
  damaged[3].count = ~std::uint64_t{0};
  damaged.push_back(damaged[3]);
  CHECK_THROWS_AS(take_entries(damaged.data(), damaged.size(), [](const CaptureSlot*, std::size_t, std::uint64_t) {}),
                  std::overflow_error);
}

}  // namespace record_table_test

TEST_CASE("the table's buckets: a power of two that keeps the load factor at most 1/2") {
  // The device masks a record's hash with buckets - 1 (a power of two, else
  // some buckets are never probed), and a table whose every entry is used
  // must leave at least half of its buckets empty (kTableProbes assumes it).
  for (std::uint32_t capacity = 1; capacity <= kTableRecords; capacity *= 2) {
    CAPTURE(capacity);
    const std::uint64_t buckets = table_buckets(capacity);
    CHECK(bankcheck::is_power_of_two(buckets));
    CHECK(2 * std::uint64_t{capacity} <= buckets);  // entries / buckets <= 1/2
    CHECK(buckets <= 2 * std::uint64_t{capacity});  // no more words than that: 512 KiB a ring at kTableRecords
  }
}
