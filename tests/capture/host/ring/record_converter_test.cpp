// Tests of capture/host/ring/record_converter.hpp: captured slots become trace
// records with sites FUNCTION+0xOFFSET, locations and the expected count;
// what the format cannot hold is counted, and the trace then reads as incomplete.
#include "capture/host/ring/record_converter.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/sim/trace/trace_io_support.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace {
CaptureSlot slot(std::uint64_t pc, SlotOp op, unsigned width, std::uint32_t mask, std::uint32_t stride) {
  CaptureSlot s{};
  s.pc = pc;
  s.block[0] = 2;
  s.warp = 1;
  s.mask = mask;
  s.op = static_cast<std::uint8_t>(op);
  s.width = static_cast<std::uint8_t>(width);
  for (unsigned l = 0; l < kCaptureWarp; ++l) s.addr[l] = l * stride;
  return s;
}
}  // namespace

TEST_CASE("records to a trace: sites, locations, ops, inactive lanes, the expect record") {
  FunctionMap functions;
  functions.add("_Z6kernelv", 0x1000, 0x200);
  TraceBuffer buffer;
  RecordConverter c(buffer, functions, 4);
  c.add(slot(0x1010, SlotOp::load, 4, 0xFFFFFFFF, 4));
  c.add(slot(0x1020, SlotOp::ldsm, 16, 0x000000FF, 16));
  c.add(slot(0x5000, SlotOp::atom, 4, 0x1, 4));  // outside every function
  c.finish(3);
  REQUIRE(buffer.size() == 3);
  CHECK(buffer.sites().name(buffer.at(0).site) == "_Z6kernelv+0x10");
  CHECK(buffer.sites().name(buffer.at(1).site) == "_Z6kernelv+0x20");
  CHECK(buffer.sites().name(buffer.at(2).site) == "?+0x5000");
  CHECK(buffer.at(1).request.op == Op::ldsm);
  CHECK(buffer.at(1).request.addr[7] == 112);
  CHECK(buffer.at(1).request.addr[8] == kInactive);
  CHECK(functions.unknown_pcs() == 1);
  CHECK(c.written() == 3);
  CHECK(c.rejected_total() == 0);
}

TEST_CASE("records the format cannot hold are counted, and the trace then fails its expect check") {
  const auto path = bankcheck::test::scratch("converter_test.bktrace");
  FunctionMap functions;
  functions.add("k", 0, 0x100);
  {
    BinaryTraceWriter writer{OutputFile(path), 4};
    RecordConverter c(writer, functions, 0);
    c.add(slot(0x10, SlotOp::load, 4, 0xFFFFFFFF, 4));
    c.add(slot(0x20, SlotOp::load, 32, 0xFFFFFFFF, 32));     // width 32: not a trace width
    c.add(slot(0x30, SlotOp::store, 8, 0x3, 4));             // lane 1 at offset 4: misaligned for 8 bytes
    c.finish(3);                                             // the device counted 3
    CHECK(c.written() == 1);
    CHECK(c.rejected_total() == 2);
    CHECK(c.rejected().count("width 32 of ld") == 1);
  }
  auto source = open_trace(path);
  TraceRecord r;
  try {
    while (source->next(r)) {
    }
    FAIL("an incomplete trace was read as complete");
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()).find("expected 3 records (the producer's count), read 1") != std::string::npos);
    CHECK(e.file() == path);
  }
  std::remove(path.c_str());
}

TEST_CASE("a cp.async record and its two source slots make one instruction with its sources") {
  FunctionMap functions;
  functions.add("_Z4copyv", 0x1000, 0x200);
  TraceBuffer buffer;
  RecordConverter c(buffer, functions, 0);
  CaptureSlot low = slot(0x1040, SlotOp::source_low, 16, 0x0000FFFF, 16);
  CaptureSlot high = slot(0x1040, SlotOp::source_high, 16, 0x0000FFFF, 0);
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    low.addr[l] = 0x80000000u + 16 * l;  // sources 0x7f'8000'0000 + 16 l: the halves join
    high.addr[l] = 0x7f;
  }
  c.add(slot(0x1040, SlotOp::cpasync, 16, 0x0000FFFF, 16));
  c.add(low);
  c.add(high);
  c.add(slot(0x1050, SlotOp::cpasync, 16, 0x1, 16));  // its source slots never come
  c.add(slot(0x1060, SlotOp::load, 4, 0x1, 4));
  c.add(low);  // a source slot with no copy before it
  c.finish(3);
  REQUIRE(buffer.size() == 2);
  const TraceRecord copy = buffer.at(0);
  CHECK(copy.request.op == Op::cpasync);
  REQUIRE(copy.request.source.size() == 32);
  CHECK(copy.request.source[3] == 0x7f80000030ull);
  CHECK(copy.request.source[16] == kInactive);  // lane 16 is idle
  CHECK(copy.request.source[0] == 0x7f80000000ull);
  CHECK(buffer.at(1).request.op == Op::load);
  CHECK(c.written() == 2);
  CHECK(c.rejected().at("a record without its continuation slots") == 1);
  CHECK(c.rejected().at("a continuation slot with no record before it") == 1);
}

TEST_CASE("a copy lane with a null source reads nothing: its source is kZeroFill") {
  // cuDNN's copies at a tile's edge pass a null source with the ignore-src
  // predicate (validate/sm90/cases/zfill.trace); a read of address 0 would fault.
  FunctionMap functions;
  functions.add("_Z4copyv", 0x1000, 0x200);
  TraceBuffer buffer;
  RecordConverter c(buffer, functions, 0);
  CaptureSlot low = slot(0x1040, SlotOp::source_low, 4, 0x0000000F, 0);
  CaptureSlot high = slot(0x1040, SlotOp::source_high, 4, 0x0000000F, 0);
  low.addr[1] = 0x1000;  // lane 1 reads 0x1000; lanes 0, 2 and 3 have a null source
  c.add(slot(0x1040, SlotOp::cpasync, 4, 0x0000000F, 4));
  c.add(low);
  c.add(high);
  c.finish(1);
  REQUIRE(buffer.size() == 1);
  const TraceRecord copy = buffer.at(0);
  REQUIRE(copy.request.source.size() == 32);
  CHECK(copy.request.source[0] == kZeroFill);
  CHECK(copy.request.source[1] == 0x1000);
  CHECK(copy.request.source[3] == kZeroFill);
  CHECK(copy.request.source[4] == kInactive);
}

TEST_CASE("a global record and its high-halves slot make one gld/gst with 64-bit addresses") {
  FunctionMap functions;
  functions.add("_Z4loadv", 0x1000, 0x200);
  const auto path = bankcheck::test::scratch("converter_global_test.bktrace");
  {
    BinaryTraceWriter writer{OutputFile(path), 8};
    RecordConverter c(writer, functions, 0);
    CaptureSlot load = slot(0x1080, SlotOp::gld, 8, 0xFFFF0000, 8);
    CaptureSlot high = slot(0x1080, SlotOp::address_high, 8, 0xFFFF0000, 0);
    for (unsigned l = 0; l < kCaptureWarp; ++l) {
      load.addr[l] = 0xFFFFFF00u + 8 * l;  // addresses 0x7f'ffff'ff00 + 8 l: the halves join per lane
      high.addr[l] = 0x7f;
    }
    c.add(load);
    c.add(high);
    CaptureSlot store = slot(0x1090, SlotOp::gst, 4, 0x1, 4);
    CaptureSlot wrong = slot(0x1090, SlotOp::source_low, 4, 0x1, 0);  // a copy's slot after a store: out of order
    c.add(store);
    c.add(wrong);
    c.add(high);  // and a high-halves slot with no record before it
    c.finish(2);
    CHECK(c.written() == 1);
    CHECK(c.rejected().at("a record whose continuation slots came out of order") == 1);
    CHECK(c.rejected().at("a continuation slot with no record before it") == 1);
  }
  auto source = open_trace(path);
  TraceRecord r;
  REQUIRE_THROWS_AS([&] { while (source->next(r)) CHECK(r.request.op == Op::gld); }(), TraceError);  // 1 of 2 written
  auto again = open_trace(path);
  REQUIRE(again->next(r));
  CHECK(r.request.op == Op::gld);
  CHECK(r.request.width == 8);
  CHECK(r.request.addr[15] == kInactive);
  CHECK(r.request.addr[16] == 0x7fffffff00ull + 8 * 16);
  CHECK(r.request.addr[31] == 0x7fffffff00ull + 8 * 31);
  std::remove(path.c_str());
}

TEST_CASE("a wgmma record: the warpgroup's first warp carries the operands, the others no lane") {
  // addr[0..3] as the patch writes them from the sanitizer's warpgroup-MMA callback:
  // A's address and size, B's address and size (QGMMA.64x8x32 once reported sizes 0).
  FunctionMap functions;
  functions.add("_Z1kv", 0x1000, 0x200);
  TraceBuffer buffer;
  RecordConverter c(buffer, functions, 0);
  auto mma = [](unsigned warp, std::uint32_t a_size, std::uint32_t b_size) {
    CaptureSlot s = slot(0x1010, SlotOp::wgmma, 16, 0xF, 0);
    s.warp = warp;
    s.addr[0] = 1024;
    s.addr[1] = a_size;
    s.addr[2] = 5120;
    s.addr[3] = b_size;
    return s;
  };
  c.add(mma(4, 2048, 256));  // first warp of warpgroup 1
  c.add(mma(5, 2048, 256));
  c.add(mma(0, 0, 2048));    // A from registers
  CaptureSlot odd = mma(0, 2048, 256);
  odd.addr[2] = 5128;        // not a 16-byte multiple
  c.add(odd);
  c.finish(std::nullopt);
  REQUIRE(buffer.size() == 3);
  const auto& first = buffer.at(0).request;
  CHECK(first.op == Op::wgmma);
  CHECK(first.addr[0] == 1024);
  CHECK(first.addr[1] == 5120);
  CHECK(first.source[0] == 2048);
  CHECK(first.source[1] == 256);
  CHECK(first.addr[2] == kInactive);
  for (std::uint64_t a : buffer.at(1).request.addr) CHECK(a == kInactive);
  CHECK(buffer.at(2).request.addr[0] == kInactive);
  CHECK(buffer.at(2).request.source[1] == 2048);
  CHECK(c.rejected_total() == 1);
}
