// Tests of capture/host/ring/trace_budget.hpp (`capture --max-bytes`): once the
// traces together reached the bound, records are counted instead of
// written, a record with its continuation slots as one, across launches.
#include "capture/host/ring/trace_budget.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "sim/trace/atomic_file.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace {
CaptureSlot slot(std::uint64_t pc, SlotOp op, unsigned width) {
  CaptureSlot s{};
  s.pc = pc;
  s.mask = 0xFFFFFFFF;
  s.op = static_cast<std::uint8_t>(op);
  s.width = static_cast<std::uint8_t>(width);
  for (unsigned l = 0; l < kCaptureWarp; ++l) s.addr[l] = l * width;
  return s;
}

/// One launch's trace: a binary writer, its converter and the budgeted way in.
struct Launch {
  explicit Launch(const char* name, FunctionMap& functions, TraceBudget* budget)
      : path(bankcheck::test::scratch(name)),
        writer(OutputFile(path), 4),
        converter(writer, functions, 0),
        slots(converter, writer, budget) {}
  ~Launch() { std::filesystem::remove(path); }
  std::string path;
  BinaryTraceWriter writer;
  RecordConverter converter;
  BudgetedSlots slots;
};
}  // namespace

TEST_CASE("without a bound every record is written; with one, records after it is reached are counted") {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  Launch free("budget_free.bktrace", functions, nullptr);
  for (int i = 0; i < 5; ++i) free.slots.take(slot(0x1010, SlotOp::load, 4));
  CHECK(free.converter.written() == 5);
  CHECK(free.slots.dropped() == 0);
  // A bound of one byte: checked before each record, nothing is written yet before the first, which is let in;
  // every later one finds the bound reached.
  TraceBudget budget;
  budget.limit = 1;
  Launch bounded("budget_one.bktrace", functions, &budget);
  for (int i = 0; i < 5; ++i) bounded.slots.take(slot(0x1010, SlotOp::store, 4));
  CHECK(bounded.converter.written() == 1);
  CHECK(bounded.slots.dropped() == 4);
  CHECK(budget.written.load() == bounded.writer.bytes());  // the budget holds what the trace wrote
}

TEST_CASE("a copy's continuation slots go with their record: in whole or dropped whole, counted once") {
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x100);
  TraceBudget budget;
  budget.limit = 1;
  Launch a("budget_copy.bktrace", functions, &budget);
  for (int copy = 0; copy < 2; ++copy) {
    a.slots.take(slot(0x1020, SlotOp::cpasync, 16));
    a.slots.take(slot(0x1020, SlotOp::source_low, 16));  // the bound is reached by now: the record's sources still follow it
    a.slots.take(slot(0x1020, SlotOp::source_high, 16));
  }
  CHECK(a.converter.written() == 1);
  CHECK(a.converter.rejected_total() == 0);  // no record reached the trace without its sources
  CHECK(a.slots.dropped() == 1);             // the second copy, three slots, one record
  // Another launch shares the bound: its first record already finds it reached.
  Launch b("budget_second.bktrace", functions, &budget);
  b.slots.take(slot(0x1010, SlotOp::load, 4));
  CHECK(b.converter.written() == 0);
  CHECK(b.slots.dropped() == 1);
}
