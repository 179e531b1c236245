// Tests of sim/trace/trace_file.hpp: format names and extensions, telling the
// format by content (also through a pipe-like stream, via peek), and errors
// for files that cannot be opened.
#include "sim/trace/trace_file.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>
#include <string>

#include "sim/trace/trace_error.hpp"
#include "tests/sim/trace/trace_io_support.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;
using bankcheck::test::TempStream;

TEST_CASE("format from extension and from name") {
  CHECK(format_from_extension("a/b.trace") == TraceFormat::text);
  CHECK(format_from_extension("b.txt") == TraceFormat::text);
  CHECK(format_from_extension("b.bktrace") == TraceFormat::binary);
  CHECK(format_from_extension("b.bin") == TraceFormat::binary);
  CHECK_FALSE(format_from_extension("b.csv").has_value());
  CHECK_FALSE(format_from_extension("-").has_value());
  CHECK(parse_format_name("text") == TraceFormat::text);
  CHECK(parse_format_name("bin") == TraceFormat::binary);
  CHECK_THROWS_AS(parse_format_name("json"), std::invalid_argument);
}

TEST_CASE("peek does not lose bytes") {
  TempStream stream("warp 2\n");
  InputFile in = stream.input("p");
  CHECK(in.peek(4) == "warp");
  CHECK(in.peek(2) == "wa");
  char buf[16] = {};
  CHECK(in.read(buf, sizeof buf) == 7);
  CHECK(std::string(buf, 7) == "warp 2\n");
  CHECK(in.read(buf, sizeof buf) == 0);
}

TEST_CASE("open_trace tells the format by content") {
  const std::string binary = std::string("BKTRACE\x1a\x01\x00\x08\x00\x02\x00\x00\x00", 16) +
                             std::string("\x03\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);  // end record, 0 instructions
  {
    TempStream s(binary);
    auto src = open_trace(s.input("b"));
    CHECK(src->warp() == 2);
    TraceRecord r;
    CHECK_FALSE(src->next(r));
  }
  {
    TempStream s("warp 3\nld 4 0 4 8\n");
    auto src = open_trace(s.input("t"));
    CHECK(src->warp() == 3);
    TraceRecord r;
    CHECK(src->next(r));
    CHECK_FALSE(src->next(r));
  }
}

TEST_CASE("a missing file is a TraceError naming it") {
  try {
    open_trace("/nonexistent/dir/x.trace");
    FAIL("no error");
  } catch (const TraceError& e) {
    CHECK(e.file() == "/nonexistent/dir/x.trace");
    CHECK(std::string(e.what()).find("cannot open") != std::string::npos);
  }
  CHECK_THROWS_AS(create_trace("/nonexistent/dir/x.trace", TraceFormat::text), std::invalid_argument);
}

TEST_CASE("OutputFile: a regular file appears whole at close(); before it, or without it, nothing changes") {
  namespace fs = std::filesystem;
  const fs::path dir = bankcheck::test::scratch_dir() / "output-file";
  fs::create_directories(dir);
  const std::string path = (dir / "t.trace").string();
  {
    auto sink = create_trace(path, TraceFormat::text);
    sink->begin(2);
    const std::vector<std::uint64_t> a = {0, 4};
    sink->record("s", WarpRequest{Op::load, 4, a});
    CHECK_FALSE(fs::exists(path));  // still a temporary file
  }  // dropped before end(): as when the producer fails half-way
  CHECK_FALSE(fs::exists(path));
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("older", f);
  std::fclose(f);
  {
    auto sink = create_trace(path, TraceFormat::text);
    sink->begin(2);
  }
  CHECK(bankcheck::test::file_bytes(path) == "older");
  {
    auto sink = create_trace(path, TraceFormat::text);
    sink->begin(2);
    sink->end();
  }
  CHECK(bankcheck::test::file_bytes(path) == "warp 2\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);  // no temporary file left behind
  // A device is written directly (there is nothing to replace atomically).
  {
    OutputFile null("/dev/null");
    null.write("x", 1);
    null.close();
  }
  CHECK_THROWS_WITH_AS(OutputFile(dir.string()), doctest::Contains("is a directory"), std::invalid_argument);
  fs::remove_all(dir);
}

TEST_CASE("seek: a regular file reads on from the byte asked for, peeked bytes dropped; a pipe is refused") {
  const std::string path = bankcheck::test::scratch("seek.bin");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fputs("0123456789", f);
    std::fclose(f);
  }
  InputFile in(path);
  CHECK(in.peek(4) == "0123");
  in.seek(6);
  char got[4] = {};
  CHECK(in.read(got, 4) == 4);
  CHECK(std::string(got, 4) == "6789");
  in.seek(1);
  CHECK(in.read(got, 2) == 2);
  CHECK(std::string(got, 2) == "12");

  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::FILE* reading = ::fdopen(fds[0], "rb");
  REQUIRE(reading != nullptr);
  InputFile piped(reading, "<pipe>");
  CHECK_THROWS_AS(piped.seek(3), TraceError);
  std::fclose(reading);
  ::close(fds[1]);
}
