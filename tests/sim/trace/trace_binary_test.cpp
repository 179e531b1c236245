// Tests of sim/trace/trace_binary.hpp. Binary inputs are assembled byte by byte
// here from the layout in docs/trace-format.md (not by the writer under
// test), so reader and writer are each checked against the document. The
// version-2 records (ops, locations, the expect record) are tested in
// trace_binary_v2_test.cpp.
#include "sim/trace/trace_binary.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
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
using bankcheck::test::X;

namespace {

/// The reference trace: warp 4, sites "" and "merge.read", three instructions.
Bytes reference() {
  return Bytes{}
      .header(4)
      .site("")
      .instr(0, 0, 4, {0, 4, 8, 12})
      .site("merge.read")
      .instr(1, 1, 8, {0, 16, X, 32})
      .instr(0, 0, 1, {1, 2, 3, X})
      .end(3);
}

/// The reference trace again, with 4-byte addresses; warp 3 so that every
/// instruction record ends in a padding half-word.
Bytes reference32() {
  return Bytes{}
      .header(3, kBinaryTraceVersion, 4)
      .site("")
      .instr32(0, 0, 4, {0, 4, 8})
      .site("merge.read")
      .instr32(1, 1, 8, {0, X, 4294967288u})
      .instr32(0, 0, 1, {X, 2, 4294967294u})
      .end(3);
}

}  // namespace

TEST_CASE("binary: the reader decodes a hand-assembled trace") {
  const ReadResult r = read_all(reference().s);
  CHECK(r.warp == 4);
  CHECK(r.sites == std::vector<std::string>{"", "merge.read", ""});
  CHECK(r.widths == std::vector<unsigned>{4, 108, 1});  // 100 + width marks a store
  CHECK(r.addr[1] == std::vector<std::uint64_t>{0, 16, X, 32});
  CHECK(r.addr[2] == std::vector<std::uint64_t>{1, 2, 3, X});
}

TEST_CASE("binary: the writer produces exactly the documented bytes") {
  const auto path = temp_path("bankcheck_trace_binary_test.bktrace");
  {
    BinaryTraceWriter w{OutputFile(path)};
    w.begin(4);
    const std::vector<std::uint64_t> a = {0, 4, 8, 12}, b = {0, 16, X, 32}, c = {1, 2, 3, X};
    w.record("", WarpRequest{Op::load, 4, a});
    w.record("merge.read", WarpRequest{Op::store, 8, b});
    w.record("", WarpRequest{Op::load, 1, c});
    w.end();
  }
  CHECK(file_bytes(path) == reference().s);
  std::remove(path.c_str());
}

TEST_CASE("binary: 4-byte addresses are read and written exactly as documented") {
  const ReadResult r = read_all(reference32().s);
  CHECK(r.warp == 3);
  CHECK(r.sites == std::vector<std::string>{"", "merge.read", ""});
  CHECK(r.widths == std::vector<unsigned>{4, 108, 1});
  CHECK(r.addr[0] == std::vector<std::uint64_t>{0, 4, 8});
  CHECK(r.addr[1] == std::vector<std::uint64_t>{0, X, 4294967288u});
  CHECK(r.addr[2] == std::vector<std::uint64_t>{X, 2, 4294967294u});
  const auto path = temp_path("bankcheck_trace_binary32_test.bktrace");
  {
    BinaryTraceWriter w{OutputFile(path), 4};
    w.begin(3);
    for (std::size_t i = 0; i < r.addr.size(); ++i)
      w.record(r.sites[i], WarpRequest{r.widths[i] > 100 ? Op::store : Op::load, r.widths[i] % 100, r.addr[i]});
    w.end();
  }
  CHECK(file_bytes(path) == reference32().s);
  std::remove(path.c_str());
  for (std::size_t cut = 0; cut < reference32().s.size(); ++cut) {
    CAPTURE(cut);
    CHECK_THROWS_AS(read_all(reference32().s.substr(0, cut)), TraceError);
  }
}

TEST_CASE("binary: 8-byte and 4-byte address files carry the same trace, for odd and even warps") {
  for (unsigned warp : {1u, 2u, 5u, 32u}) {
    CAPTURE(warp);
    Bytes wide, narrow;
    wide.header(warp).site("s");
    narrow.header(warp, 1, 4).site("s");
    std::uint64_t state = warp;
    for (unsigned i = 0; i < 200; ++i) {
      std::vector<std::uint64_t> a(warp);
      for (auto& v : a) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = (state >> 61) == 0 ? X : ((state >> 20) % 0xFFFFFFF0u) & ~std::uint64_t{7};
      }
      wide.instr(0, i % 2, 8, a);
      narrow.instr32(0, i % 2, 8, a);
    }
    const ReadResult w = read_all(wide.end(200).s), n = read_all(narrow.end(200).s, 1);
    CHECK(w.addr == n.addr);
    CHECK(w.widths == n.widths);
  }
}

TEST_CASE("binary: 4-byte traces refuse what they cannot hold") {
  const auto path = temp_path("bankcheck_trace_binary32_bad.bktrace");
  CHECK_THROWS_AS(BinaryTraceWriter(OutputFile(path), 2), std::invalid_argument);
  {
    BinaryTraceWriter w{OutputFile(path), 4};
    w.begin(2);
    const std::vector<std::uint64_t> too_far = {0, 4294967296u}, all_ones_byte = {0xFFFFFFFFu, 0};
    CHECK_THROWS_WITH_AS(w.record("s", WarpRequest{Op::load, 4, too_far}),
                         doctest::Contains("does not fit a trace of 4-byte addresses"), std::invalid_argument);
    CHECK_THROWS_AS(w.record("s", WarpRequest{Op::load, 1, all_ones_byte}), std::invalid_argument);
  }
  std::remove(path.c_str());
  // A nonzero padding half-word after an odd warp's last address.
  Bytes b = Bytes{}.header(1, 1, 4).site("s");
  b.u64(2 | 4u << 16).u32(8).u32(1);
  try {
    read_all(b.end(1).s);
    FAIL("nonzero padding was accepted");
  } catch (const TraceError& e) {
    CHECK(e.position() == 32);
    CHECK(e.message().find("padding after the last 4-byte address must be 0") != std::string::npos);
  }
}

TEST_CASE("binary: skip() refuses a record with a bad address where next() does, at the same byte") {
  // The parallel replay's skim steps over instructions with skip(); a bad
  // address must stop it as it stops next(), not reach a chunk's reader
  // (or nobody) later. The records are assembled from docs/trace-format.md.
  auto source_record = [](Bytes b, std::uint64_t a0, std::uint64_t a1) {
    return b.u64(static_cast<std::uint64_t>(BinaryRecordKind::source)).u64(a0).u64(a1);
  };
  Bytes padded = Bytes{}.header(1, kBinaryTraceVersion, 4).site("s");
  padded.u64(2 | 4u << 16).u32(8).u32(1);  // warp 1: a nonzero padding half-word after the address
  struct Case {
    const char* name;
    std::string bytes;
    std::uint64_t offset;  // of the instruction record
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"8-byte address, width 8", Bytes{}.header(2).site("s").instr(0, 0, 8, {0, 12}).end(1).s, 32,
       "misaligned address 12 of lane 1: not a multiple of 8 (width 8)"},
      {"4-byte address, width 4", Bytes{}.header(3, kBinaryTraceVersion, 4).site("s").instr32(0, 1, 4, {X, 4, 6}).end(1).s,
       32, "misaligned address 6 of lane 2: not a multiple of 4 (width 4)"},
      {"4-byte padding", padded.end(1).s, 32, "padding after the last 4-byte address must be 0"},
      {"misaligned source", source_record(Bytes{}.header(2).site("s"), 40, 48).instr(0, 5, 16, {0, 16}).end(1).s, 56,
       "misaligned source address 40 of lane 0"},
      {"source of an idle lane", source_record(Bytes{}.header(2).site("s"), 32, 48).instr(0, 5, 16, {0, X}).end(1).s, 56,
       "lane 1 is idle but has a source address"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    for (BinaryReadMode mode : {BinaryReadMode::automatic, BinaryReadMode::read}) {
      std::uint64_t skimmed = 0;
      const std::string message = bankcheck::test::skim_message(c.bytes, std::size_t{4} << 20, mode, skimmed);
      CHECK(message.rfind("t.bktrace: byte " + std::to_string(c.offset), 0) == 0);
      CHECK(message.find(c.reason) != std::string::npos);
    }
    CHECK_THROWS_AS(read_all(c.bytes), TraceError);  // next() refuses it too, with the same message
  }
}

TEST_CASE("binary: records straddling the read buffer are read intact") {
  // 3000 records of warp 3 with a new site every 7 records; the smallest
  // buffer makes nearly every record cross a refill.
  Bytes b;
  b.header(3);
  std::uint32_t sites = 0;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    if (i % 7 == 0) b.site("site" + std::to_string(sites++));
    b.instr(sites - 1, i % 2, 2, {2 * i, X, 2 * i + 6});
  }
  b.end(3000);
  // The smallest window or buffer: nearly every record crosses a refill or remap.
  for (std::size_t buffer : {std::size_t{1}, std::size_t{4096}, std::size_t{4} << 20}) {
    const ReadResult r = read_all(b.s, buffer);
    REQUIRE(r.addr.size() == 3000);
    for (std::uint64_t i = 0; i < 3000; i += 101) {
      CHECK(r.sites[i] == "site" + std::to_string(i / 7));
      CHECK(r.addr[i] == std::vector<std::uint64_t>{2 * i, X, 2 * i + 6});
    }
  }
}

TEST_CASE("binary: every truncation is an error, never a shorter trace") {
  const std::string full = reference().s;
  for (std::size_t cut = 0; cut < full.size(); ++cut) {
    CAPTURE(cut);
    CHECK_THROWS_AS(read_all(full.substr(0, cut)), TraceError);
  }
}

namespace {

/// Malformed binary traces, each with where the reader must say it fails and why.
struct MalformedCase {
  const char* name;
  std::string bytes;
  std::uint64_t offset;  // of the offending record (or header field)
  const char* reason;
};

std::vector<MalformedCase> malformed_cases() {
  const auto bad_head = [](std::uint64_t head) {
    Bytes b = Bytes{}.header(2).site("s");
    b.u64(head).u64(0).u64(0);
    return b.end(1).s;
  };
  return {
      {"bad magic", std::string("BKTRACF\x1a") + std::string(8, '\0'), 0, "bad magic"},
      {"text file", "warp 2\nld 4 0 4\n", 0, "bad magic"},
      {"version 6", Bytes{}.header(2, 6).end(0).s, 8, "unsupported version 6 (this reader reads versions 1..5)"},
      {"version 0", Bytes{}.header(2, 0).end(0).s, 8, "unsupported version 0"},
      {"address size", Bytes{}.header(2, 1, 2).end(0).s, 10, "unsupported address size 2"},
      {"warp 0", Bytes{}.header(0).end(0).s, 12, "warp size must be in 1..65536 (got 0)"},
      {"undefined site", Bytes{}.header(2).instr(0, 0, 4, {0, 4}).end(1).s, 16, "site id 0 is not defined"},
      {"bad width", bad_head(2 | 3u << 16), 32, "width 3 is not one of"},
      {"bad op", bad_head(2 | 18u << 8 | 4u << 16), 32, "bad op 18"},  // 9 to 17: gld, gst, gatom, cpasync.cg.zfill, cpasync.unmeasured, wgmma, atom.cast, cpasync.cg.notp0, unmeasured
      {"v1 op 2", Bytes{}.header(2, 1).site("s").instr(0, 2, 4, {0, 4}).end(1).s, 32, "bad op 2 (version 1: 0 = ld, 1 = st)"},
      {"v1 width 12", Bytes{}.header(2, 1).site("s").instr(0, 0, 12, {0, 12}).end(1).s, 32,
       "width 12 is not one of 1, 2, 4, 8, 16"},
      {"v1 location kind", Bytes{}.header(2, 1).location(0, 0, 0, 0, 0).end(0).s, 16, "unknown record kind 4 (version 1"},
      {"ldsm width 4", Bytes{}.header(2).site("s").instr(0, 3, 4, {0, 4}).end(1).s, 32, "width 4 is not one of 16 (op ldsm)"},
      {"cpasync width 2", Bytes{}.header(2).site("s").instr(0, 5, 2, {0, 2}).end(1).s, 32,
       "width 2 is not one of 4, 8, 16 (op cpasync)"},
      {"width 12 misaligned", Bytes{}.header(2).site("s").instr(0, 2, 12, {0, 6}).end(1).s, 32,
       "misaligned address 6 of lane 1: not a multiple of 4 (width 12)"},
      {"location reserved", Bytes{}.header(2).u64(4 | 1u << 8).u64(0).u64(0).u64(0).end(0).s, 16,
       "reserved bytes of a location record must be 0"},
      {"location z half", Bytes{}.header(2).location(0, 0, 0, 0, 0).s.substr(0, 40) + std::string("\0\0\0\0\1\0\0\0", 8) +
                              Bytes{}.end(0).s, 16, "reserved half of a location record's block z word must be 0"},
      {"two expects", Bytes{}.header(2).expect(0).expect(0).end(0).s, 32, "a second expect record"},
      {"expect mismatch", Bytes{}.header(2).expect(2).site("s").instr(0, 0, 4, {0, 4}).end(1).s, 72,
       "expected 2 records (the producer's count), read 1: the trace is incomplete"},
      {"expect reserved", Bytes{}.header(2).u64(5 | 1u << 8).u64(0).end(0).s, 16, "reserved bytes of an expect record must be 0"},
      {"unknown kind", bad_head(9), 32, "unknown record kind 9"},
      {"misaligned", Bytes{}.header(2).site("s").instr(0, 0, 8, {0, 12}).end(1).s, 32,
       "misaligned address 12 of lane 1"},
      {"twice defined", Bytes{}.header(2).site("s").site("s").end(0).s, 32, "defined twice"},
      {"end count", Bytes{}.header(2).site("s").instr(0, 0, 4, {0, 4}).end(5).s, 56,
       "end record counts 5 instructions, the file holds 1"},
      {"after end", Bytes{}.header(2).end(0).u64(0).s, 32, "data after the end record"},
      {"no end", Bytes{}.header(2).site("s").instr(0, 0, 4, {0, 4}).s, 56, "ends without an end record"},
      {"long name", Bytes{}.header(2).u64(1 | std::uint64_t{5000} << 32).s, 16, "site name of 5000 bytes"},
  };
}

}  // namespace

TEST_CASE("binary: malformed records name the byte offset and record") {
  for (const auto& c : malformed_cases()) {
    CAPTURE(c.name);
    bool thrown = false;
    try {
      read_all(c.bytes);
    } catch (const TraceError& e) {
      thrown = true;
      CHECK(e.file() == "t.bktrace");
      CHECK(e.unit() == TraceError::Unit::byte);
      CHECK(e.position() == c.offset);
      CHECK(e.message().find(c.reason) != std::string::npos);
      CHECK(std::string(e.what()).rfind("t.bktrace: byte " + std::to_string(c.offset), 0) == 0);
    }
    CHECK(thrown);
  }
}

TEST_CASE("round trip text -> bin -> text is lossless") {
  const std::string text =
      "warp 4\n"
      "@probe ld 4 0 4 8 12\n"
      "st 8 - 16 - 32\n"
      "@merge.read ld 16 0 16 32 18446744073709551600\n"
      "@probe st 1 1 2 3 -\n"
      "ld 2 - - - -\n";
  CHECK(bankcheck::test::text_binary_text(text, "bankcheck_rt", 8, 5) == text);
}
