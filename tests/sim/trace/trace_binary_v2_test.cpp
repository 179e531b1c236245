// Tests of sim/trace/trace_binary.hpp's version-2 records: the new ops,
// width 12, location and expect records, read and written exactly as
// docs/trace-format.md lays them out (bytes assembled by hand, as in
// trace_binary_test.cpp), and version-1 files still read.
#include "sim/trace/trace_binary.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace/trace_text.hpp"
#include "tests/sim/trace/binary_trace_support.hpp"
#include "tests/sim/trace/trace_io_support.hpp"

using namespace bankcheck;
using bankcheck::test::Bytes;
using bankcheck::test::read_all;
using bankcheck::test::ReadResult;
using bankcheck::test::file_bytes;
using bankcheck::test::temp_path;
using bankcheck::test::TempStream;
using bankcheck::test::X;

TEST_CASE("binary v2: every op, width 12, locations and the expect record, exactly as documented") {
  const auto bytes = Bytes{}
                         .header(4, kBinaryTraceVersion, 4)
                         .expect(5)
                         .location(7, 1, 2, 3, 5)
                         .site("k+0x10")
                         .instr32(0, 2, 12, {0, 12, X, 4})
                         .instr32(0, 3, 16, {0, 16, 32, 48})
                         .location(7, 1, 2, 3, 6)
                         .site("k+0x20")
                         .instr32(1, 4, 16, {0, X, X, X})
                         .instr32(1, 5, 8, {8, 16, 24, 32})
                         .instr32(1, 1, 4, {0, 4, 8, 12})
                         .end(5);
  // Read back: ops, locations and the expected count.
  {
    TempStream stream(bytes.s);
    BinaryTraceReader reader(stream.input("t.bktrace"));
    CHECK(reader.version() == kBinaryTraceVersion);
    TraceRecord r;
    std::vector<Op> ops;
    std::vector<std::uint32_t> warps;
    while (reader.next(r)) {
      ops.push_back(r.request.op);
      REQUIRE(r.location != nullptr);
      CHECK(r.location->launch == 7);
      CHECK(r.location->block == std::array<std::uint32_t, 3>{1, 2, 3});
      warps.push_back(r.location->warp);
    }
    CHECK(ops == std::vector<Op>{Op::atom, Op::ldsm, Op::stsm, Op::cpasync, Op::store});
    CHECK(warps == std::vector<std::uint32_t>{5, 5, 6, 6, 6});
    CHECK(reader.expected() == std::optional<std::uint64_t>{5});
  }
  // The writer writes the same bytes (the expect record where the writer puts it: before the end).
  const auto expected_bytes = Bytes{}
                                  .header(4, kBinaryTraceVersion, 4)
                                  .location(7, 1, 2, 3, 5)
                                  .site("k+0x10")
                                  .instr32(0, 2, 12, {0, 12, X, 4})
                                  .instr32(0, 3, 16, {0, 16, 32, 48})
                                  .location(7, 1, 2, 3, 6)
                                  .site("k+0x20")
                                  .instr32(1, 4, 16, {0, X, X, X})
                                  .instr32(1, 5, 8, {8, 16, 24, 32})
                                  .instr32(1, 1, 4, {0, 4, 8, 12})
                                  .expect(5)
                                  .end(5);
  const auto path = temp_path("bankcheck_trace_binary_v2.bktrace");
  {
    TempStream stream(bytes.s);
    auto source = open_trace(stream.input("t.bktrace"));
    BinaryTraceWriter w{OutputFile(path), 4};
    copy_trace(*source, w);
  }
  CHECK(file_bytes(path) == expected_bytes.s);
  std::remove(path.c_str());
  for (std::size_t cut = 0; cut < expected_bytes.s.size(); ++cut) {
    CAPTURE(cut);
    CHECK_THROWS_AS(read_all(expected_bytes.s.substr(0, cut)), TraceError);
  }
}

TEST_CASE("binary v1 files are still read") {
  const auto v1 = Bytes{}.header(2, 1).site("s").instr(0, 1, 8, {0, 8}).end(1);
  const ReadResult r = read_all(v1.s);
  CHECK(r.widths == std::vector<unsigned>{108});
  TempStream stream(v1.s);
  BinaryTraceReader reader(stream.input("t.bktrace"));
  CHECK(reader.version() == 1);
}

TEST_CASE("text <-> binary round trip keeps new ops, locations and the expected count") {
  const std::string text =
      "warp 2\n"
      "at launch=3 block=1,0,0 warp=2\n"
      "@k+0x10 atom 4 0 4\n"
      "@k+0x20 ldsm 16 0 -\n"
      "at launch=3 block=1,0,0 warp=3\n"
      "@k+0x30 cpasync 16 16 32\n"
      "@k+0x40 ld 12 4 16\n"
      "expect 4\n";
  CHECK(bankcheck::test::text_binary_text(text, "bankcheck_rt2", 4, 4) == text);
}

namespace {

/// One record as a reader saw it: its site name, first address, byte position and location block x.
struct SeenRecord {
  std::string site;
  std::uint64_t first_address, position;
  std::uint32_t block_x;
  bool operator==(const SeenRecord&) const = default;
};

void read_on(BinaryTraceReader& reader, std::vector<SeenRecord>& out) {
  TraceRecord r;
  while (reader.next(r))
    out.push_back({reader.sites().name(r.site), r.request.addr[0], reader.position().value, r.location->block[0]});
}

/// Locations and sites between the instructions, 4-byte addresses: every state a bookmark carries.
Bytes bookmark_trace() {
  return Bytes{}
      .header(2, 2, 4)
      .location(1, 0, 0, 0, 0)
      .site("a")
      .instr32(0, 0, 4, {0, 4})
      .site("b")
      .instr32(1, 1, 4, {8, X})
      .location(1, 2, 0, 0, 1)
      .instr32(0, 0, 8, {16, 24})
      .site("c")
      .instr32(2, 0, 4, {4, 12})
      .end(4);
}

}  // namespace

TEST_CASE("bookmarks: a skimming reader's bookmarks let other readers read on, each to its stop") {
  const auto bytes = bookmark_trace();
  const std::string path = temp_path("bankcheck_bookmarks.bktrace");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fwrite(bytes.s.data(), 1, bytes.s.size(), f);
    std::fclose(f);
  }
  // One reader: every record with its site name, location block x and byte position.
  std::vector<SeenRecord> whole;
  {
    BinaryTraceReader one{InputFile(path)};
    read_on(one, whole);
  }
  REQUIRE(whole.size() == 4);
  BinaryTraceReader skimmer{InputFile(path)};
  REQUIRE(skimmer.mapped());
  std::vector<BinaryTraceReader::Bookmark> marks{skimmer.bookmark()};
  while (skimmer.skip()) marks.push_back(skimmer.bookmark());
  CHECK(skimmer.instructions() == 4);
  CHECK(skimmer.sites().size() == 3);
  CHECK(skimmer.end_record_offset() == bytes.s.size() - 16);
  marks.pop_back();  // after the last instruction: only the end record follows
  // Every cut of the file into chunks at the bookmarks reads the same records.
  for (std::size_t cut = 1; cut < marks.size(); ++cut) {
    CAPTURE(cut);
    std::vector<SeenRecord> pieces;
    for (const auto& [from, stop] : {std::pair{marks[0], marks[cut].offset},
                                     std::pair{marks[cut], skimmer.end_record_offset()}}) {
      BinaryTraceReader reader{InputFile(path)};
      reader.resume(from, skimmer.sites(), stop);
      read_on(reader, pieces);
    }
    CHECK(pieces == whole);
  }
  // resume() wants a mapped reader that has read nothing.
  BinaryTraceReader used{InputFile(path)};
  TraceRecord r;
  REQUIRE(used.next(r));
  CHECK_THROWS_AS(used.resume(marks[1], skimmer.sites(), skimmer.end_record_offset()), std::logic_error);
}

TEST_CASE("global ops: gld is op 9 and gst op 10 in a record, with 64-bit addresses, and round-trip through text") {
  const std::uint64_t high = std::uint64_t{1} << 47;  // a typical device pointer: above 4-byte addresses
  const auto bytes =
      Bytes{}.header(2).site("g").instr(0, 9, 16, {high, high + 16}).instr(0, 10, 1, {X, high + 3}).end(2);
  TempStream stream(bytes.s);
  BinaryTraceReader reader(stream.input("t.bktrace"));
  TraceRecord r;
  REQUIRE(reader.next(r));
  CHECK(r.request.op == Op::gld);
  CHECK(r.request.width == 16);
  CHECK(r.request.addr[1] == high + 16);
  REQUIRE(reader.next(r));
  CHECK(r.request.op == Op::gst);
  CHECK(r.request.addr[0] == X);
  CHECK_FALSE(reader.next(r));
  // Widths of gld are those of a plain access without 12; op 12 is no op.
  CHECK_THROWS_AS(read_all(Bytes{}.header(2).site("g").instr(0, 9, 12, {0, 12}).end(1).s), TraceError);
  CHECK_THROWS_AS(read_all(Bytes{}.header(2).site("g").instr(0, 12, 4, {0, 4}).end(1).s), TraceError);
  const std::string text = "warp 2\n@g gld 16 140737488355328 140737488355344\n@h gst 1 - 140737488355331\n";
  CHECK(bankcheck::test::text_binary_text(text, "bankcheck_rt_global", 8, 2) == text);
}

TEST_CASE("version 3: a copy's source addresses survive text and binary, and malformed ones are refused") {
  const std::string text =
      "warp 2\n"
      "@k+0x10 cpasync 16 16 - from 4096 -\n"
      "@k+0x20 cpasync.cg 16 0 16 from 8192 96\n"
      "@k+0x30 cpasync 4 0 4\n"
      "expect 3\n";
  CHECK(bankcheck::test::text_binary_text(text, "bankcheck_rt3", 4, 3) == text);
  auto source_record = [](Bytes& b, std::uint64_t a0, std::uint64_t a1) -> Bytes& {
    return b.u64(static_cast<std::uint64_t>(BinaryRecordKind::source)).u64(a0).u64(a1);
  };
  struct Case {
    const char* name;
    std::string bytes;
    const char* reason;
  };
  Bytes ok = Bytes{}.header(2).site("s");
  source_record(ok, 32, 48).instr(0, 5, 16, {0, 16}).end(1);
  CHECK(read_all(ok.s).addr.size() == 1);
  Bytes on_load = Bytes{}.header(2).site("s");
  source_record(on_load, 32, 48).instr(0, 0, 16, {0, 16}).end(1);
  Bytes dangling = Bytes{}.header(2).site("s");
  source_record(dangling, 32, 48).end(0);
  Bytes misaligned = Bytes{}.header(2).site("s");
  source_record(misaligned, 40, 48).instr(0, 5, 16, {0, 16}).end(1);
  Bytes idle = Bytes{}.header(2).site("s");
  source_record(idle, 32, 48).instr(0, 5, 16, {0, X}).end(1);
  Bytes v2 = Bytes{}.header(2, 2).site("s");
  source_record(v2, 32, 48).instr(0, 5, 16, {0, 16}).end(1);
  for (const Case& c : {Case{"on a load", on_load.s, "only cpasync and cpasync.cg have sources"},
                        Case{"no instruction after it", dangling.s, "a source record with no instruction after it"},
                        Case{"misaligned", misaligned.s, "misaligned source address 40 of lane 0"},
                        Case{"idle lane with a source", idle.s, "lane 1 is idle but has a source address"},
                        Case{"in a version 2 file", v2.s, "unknown record kind 6"}}) {
    CAPTURE(c.name);
    std::string message;  // stays empty unless the reader refuses the bytes
    try {
      read_all(c.bytes);
    } catch (const TraceError& e) {
      message = e.message();
    }
    CHECK(message.find(c.reason) != std::string::npos);
  }
}
