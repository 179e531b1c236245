// Tests of sim/trace/trace_text.hpp: the text format of docs/trace-format.md.
// Expected records are written out by hand next to each input; every error
// kind of the format is checked with its exact line number.
#include "sim/trace/trace_text.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/sim/trace/trace_io_support.hpp"
#include "tests/scratch.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace trace_text_test {

using namespace bankcheck;
using bankcheck::test::TempStream;

namespace {

constexpr std::uint64_t X = kInactive;

struct Parsed {
  std::string site;
  Op op;
  unsigned width;
  std::vector<std::uint64_t> addr;
};

std::vector<Parsed> parse_all(const std::string& text, unsigned* warp = nullptr) {
  TempStream stream(text);
  TextTraceReader reader(stream.input("t.trace"));
  if (warp != nullptr) *warp = reader.warp();
  std::vector<Parsed> out;
  TraceRecord r;
  while (reader.next(r))
    out.push_back({reader.sites().name(r.site), r.request.op, r.request.width,
                   std::vector<std::uint64_t>(r.request.addr.begin(), r.request.addr.end())});
  return out;
}

std::string lanes(unsigned n, std::uint64_t stride) {
  std::string s;
  for (unsigned l = 0; l < n; ++l) {
    s += ' ';
    s += std::to_string(l * stride);
  }
  return s;
}

}  // namespace

TEST_CASE("text: warp line, sites, hex, inactive lanes and comments") {
  unsigned warp = 0;
  const auto recs = parse_all(
      "# header comment\n"
      "\n"
      "warp 4   # four lanes\n"
      "@probe ld 4 0 4 0x8 0XC\n"
      "  st 8 - 16 - 0x20  # second\n"
      "@merge.read ld 1 1 2 3 -\r\n"
      "@probe ld 16 0 16 32 48",  // last line without a newline
      &warp);
  CHECK(warp == 4);
  REQUIRE(recs.size() == 4);
  CHECK(recs[0].site == "probe");
  CHECK(recs[0].op == Op::load);
  CHECK(recs[0].width == 4);
  CHECK(recs[0].addr == std::vector<std::uint64_t>{0, 4, 8, 12});
  CHECK(recs[1].site == "");  // no @site: the empty site
  CHECK(recs[1].op == Op::store);
  CHECK(recs[1].width == 8);
  CHECK(recs[1].addr == std::vector<std::uint64_t>{X, 16, X, 32});
  CHECK(recs[2].site == "merge.read");
  CHECK(recs[2].addr == std::vector<std::uint64_t>{1, 2, 3, X});
  CHECK(recs[3].site == "probe");
  CHECK(recs[3].addr == std::vector<std::uint64_t>{0, 16, 32, 48});
}

TEST_CASE("text: default warp is 32 and the largest address is accepted") {
  unsigned warp = 0;
  const auto recs = parse_all("ld 4" + lanes(31, 4) + " 0xfffffffffffffffc\n", &warp);
  CHECK(warp == 32);
  REQUIRE(recs.size() == 1);
  CHECK(recs[0].addr[31] == 0xfffffffffffffffcull);
  CHECK(recs[0].addr[30] == 120);
}

TEST_CASE("text: an empty file or only comments is an empty trace of warp 32") {
  for (const char* text : {"", "# nothing\n\n   \n"}) {
    unsigned warp = 0;
    CHECK(parse_all(text, &warp).empty());
    CHECK(warp == 32);
  }
}

TEST_CASE("text: a long trace streams across buffer refills") {
  // 20000 lines of ~40 bytes cross the 64 KiB read buffer many times;
  // record i is `st 4 4i 4i+4` at site s<i mod 3>.
  std::string text = "warp 2\n";
  for (unsigned i = 0; i < 20000; ++i)
    text += "@s" + std::to_string(i % 3) + " st 4 " + std::to_string(4 * i) + " " + std::to_string(4 * i + 4) + "\n";
  const auto recs = parse_all(text);
  REQUIRE(recs.size() == 20000);
  for (unsigned i = 0; i < 20000; i += 997) {
    CHECK(recs[i].site == std::string("s").append(std::to_string(i % 3)));
    CHECK(recs[i].addr == std::vector<std::uint64_t>{4ull * i, 4ull * i + 4});
  }
}

TEST_CASE("text: each malformed input gives TraceError with file, line and reason") {
  struct Case {
    const char* name;
    std::string text;
    std::uint64_t line;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"unknown op", "warp 2\nld 4 0 4\nxx 4 0 4\n", 3, "unknown op 'xx'"},
      {"width not a power", "warp 2\n\n# c\nld 3 0 3\n", 4, "width '3' is not one of 1, 2, 4, 8, 12, 16 (op ld)"},
      {"width 32", "warp 2\nst 32 0 32\n", 2, "width '32' is not one of"},
      {"too few lanes", "ld 4" + lanes(31, 4) + "\n", 1, "expected 32 addresses (warp 32), got 31"},
      {"too many lanes", "warp 2\nld 4 0 4 8\n", 2, "expected 2 addresses (warp 2), got 3"},
      {"misaligned", "warp 2\nld 4 0 6\n", 2, "misaligned address '6' for the address of lane 1"},
      {"misaligned 16", "warp 2\n\n\nld 16 0x10 0x18\n", 4, "not a multiple of 16 (width 16)"},
      {"negative", "warp 2\nld 4 -8 0\n", 2, "negative number '-8'"},
      {"overflow", "warp 2\nld 8 18446744073709551616 0\n", 2, "out of range (more than 2^64-1)"},
      {"hex overflow", "warp 2\nld 8 0 0x10000000000000000\n", 2, "out of range"},
      {"reserved address", "warp 2\nld 1 0xffffffffffffffff 0\n", 2, "reserved"},
      {"garbage address", "warp 2\nld 4 12abc 0\n", 2, "garbage token '12abc'"},
      {"bare 0x", "warp 2\nld 4 0x 0\n", 2, "garbage token '0x'"},
      {"garbage width", "warp 2\nld four 0 4\n", 2, "garbage token 'four' for the width"},
      {"missing width", "warp 2\n@s ld\n", 2, "missing width"},
      {"missing op", "warp 2\n@s\n", 2, "missing op"},
      {"empty site", "warp 2\n@ ld 4 0 4\n", 2, "empty site name"},
      {"warp 0", "# c\nwarp 0\n", 2, "warp size must be in 1..65536 (got 0)"},
      {"warp too big", "warp 65537\n", 1, "warp size must be in 1..65536"},
      {"warp missing", "warp\n", 1, "bad warp line"},
      {"warp extra", "warp 2 3\n", 1, "bad warp line: unexpected '3'"},
      {"warp negative", "warp -2\n", 1, "negative number '-2'"},
      {"warp later", "warp 2\nld 4 0 4\nwarp 2\n", 3, "'warp' line must come first"},
      {"gld width 12", "warp 2\ngld 12 0 16\n", 2, "width '12' is not one of 1, 2, 4, 8, 16 (op gld)"},
      {"gst misaligned", "warp 2\n@w gst 8 0x100000000 0x100000004\n", 2, "not a multiple of 8 (width 8)"},
      {"unknown op lists gld", "warp 2\nldg 4 0 4\n", 2, "(expected ld, st, atom, ldsm, stsm, cpasync, gld, gst or gatom)"},
      {"binary junk", std::string("warp 2\nld 4 0 4\n\x01\x02", 18), 3, "unknown op '\\x01\\x02'"},
      {"z as an address", "warp 2\ncpasync 4 z 4 from 0 4\n", 2, "garbage token 'z'"},
      {"reserved source", "warp 2\ncpasync 4 0 4 from 0xfffffffffffffffe 4\n", 2, "marks a zero-filling source; write 'z'"},
      {"z for an idle lane", "warp 2\ncpasync 4 0 - from 0 z\n", 2, "lane 1 is idle but has a source address"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    TempStream stream(c.text);
    bool thrown = false;
    try {
      TextTraceReader reader(stream.input("bad.trace"));
      TraceRecord r;
      while (reader.next(r)) {
      }
    } catch (const TraceError& e) {
      thrown = true;
      CHECK(e.file() == "bad.trace");
      CHECK(e.line() == c.line);
      CHECK(e.message().find(c.reason) != std::string::npos);
      CHECK(std::string(e.what()).rfind("bad.trace:" + std::to_string(c.line) + ": ", 0) == 0);
    }
    CHECK(thrown);
  }
}

TEST_CASE("text: writer output reads back to the same records") {
  const auto path = bankcheck::test::scratch("trace_text_test.trace");
  const std::vector<std::uint64_t> a = {0, X, 8, 0xfffffffffffffff8ull};
  {
    TextTraceWriter w{OutputFile(path)};
    w.begin(4);
    w.record("", WarpRequest{Op::load, 8, a});
    w.record("merge.read", WarpRequest{Op::store, 4, a});
    w.end();
  }
  CHECK(bankcheck::test::file_bytes(path) ==
        "warp 4\n"
        "ld 8 0 - 8 18446744073709551608\n"
        "@merge.read st 4 0 - 8 18446744073709551608\n");
  std::remove(path.c_str());
}

TEST_CASE("text: a copy's zero-filling lanes are `z` among its sources, and write back as `z`") {
  const auto path = bankcheck::test::scratch("trace_text_zfill.trace");
  {
    std::ofstream(path) << "warp 3\n@c cpasync 4 0 4 - from z 64 -\n";
  }
  TextTraceReader reader{InputFile(path)};
  TraceRecord r;
  REQUIRE(reader.next(r));
  REQUIRE(r.request.source.size() == 3);
  CHECK(r.request.source[0] == kZeroFill);
  CHECK(r.request.source[1] == 64);
  CHECK(r.request.source[2] == kInactive);
  const auto out = bankcheck::test::scratch("trace_text_zfill_out.trace");
  {
    TextTraceWriter w{OutputFile(out)};
    w.begin(3);
    w.record("c", r.request);
    w.end();
  }
  CHECK(bankcheck::test::file_bytes(out) == "warp 3\n@c cpasync 4 0 4 - from z 64 -\n");
  std::remove(path.c_str());
  std::remove(out.c_str());
}

TEST_CASE("text: writer refuses what the format cannot hold") {
  const auto path = bankcheck::test::scratch("trace_text_test2.trace");
  TextTraceWriter w{OutputFile(path)};
  w.begin(2);
  const std::vector<std::uint64_t> ok = {0, 4}, odd = {0, 2}, three = {0, 4, 8};
  CHECK_THROWS_AS(w.record("two words", WarpRequest{Op::load, 4, ok}), std::invalid_argument);
  CHECK_THROWS_AS(w.record("a#b", WarpRequest{Op::load, 4, ok}), std::invalid_argument);
  CHECK_THROWS_AS(w.record("s", WarpRequest{Op::load, 4, odd}), std::invalid_argument);
  CHECK_THROWS_AS(w.record("s", WarpRequest{Op::load, 4, three}), std::invalid_argument);
  CHECK_THROWS_AS(w.record("s", WarpRequest{Op::load, 3, ok}), std::invalid_argument);
  w.end();
  std::remove(path.c_str());
}

}  // namespace trace_text_test
