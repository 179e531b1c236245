// Tests of sim/trace/trace_index.hpp: a version-4 or 5 trace of at least two
// bookmarks' worth of instructions carries an index whose bookmarks are
// exactly where a reader in file order stands at those instructions (offset,
// records, sites, location) and whose names are the trace's sites; a short
// trace carries none; a malformed index is no index to read_trace_index and
// an error to the reader in file order, naming its byte.
#include "sim/trace/trace_index.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;

namespace {

/// n instructions over 7 sites, a new location every 100, a copy with its
/// sources every 50.
std::string write_trace(const std::string& name, std::uint64_t n) {
  const std::string path = bankcheck::test::scratch(name);
  BinaryTraceWriter w(OutputFile(path), 8);
  w.begin(32);
  std::vector<std::uint64_t> addr(32), src(32);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (i % 100 == 0) w.location(TraceLocation{1, {static_cast<std::uint32_t>(i / 100), 0, 2}, static_cast<std::uint32_t>(i % 7)});
    for (unsigned l = 0; l < 32; ++l) {
      addr[l] = 16 * ((i + l) % 64);
      src[l] = 4096 + 16 * l;
    }
    const bool copy = i % 50 == 0;
    w.record("site" + std::to_string(i % 7), copy ? WarpRequest{Op::cpasync, 16, addr, src} : WarpRequest{Op::load, 16, addr});
  }
  w.end();
  return path;
}

void patch_word(const std::string& path, std::uint64_t at, std::uint64_t word) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  REQUIRE(f != nullptr);
  std::fseek(f, static_cast<long>(at), SEEK_SET);
  std::fwrite(&word, 8, 1, f);
  std::fclose(f);
}

std::string error_reading(const std::string& path) {
  try {
    BinaryTraceReader r{InputFile(path)};
    TraceRecord rec;
    while (r.next(rec)) {
    }
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the index's bookmarks are where a reader in file order stands, and it names every site") {
  const std::uint64_t n = 3 * kTraceIndexEvery + 7;
  const std::string path = write_trace("indexed.bktrace", n);
  const auto index = read_trace_index(path);
  REQUIRE(index);
  CHECK(index->instructions == n);
  REQUIRE(index->marks.size() == 4);
  // The first: after the header and the first location record (4 words), before the first instruction.
  CHECK(index->marks[0] == TraceBookmark{kBinaryTraceHeaderBytes + 32, 1, 0, 0, TraceLocation{1, {0, 0, 2}, 0}});
  BinaryTraceReader skim{InputFile(path)};
  for (const TraceBookmark& mark : std::vector<TraceBookmark>(index->marks.begin() + 1, index->marks.end())) {
    CAPTURE(mark.instructions);
    CHECK(mark.instructions % kTraceIndexEvery == 0);
    while (skim.instructions() < mark.instructions) REQUIRE(skim.skip());
    CHECK(skim.bookmark() == mark);
    CHECK(mark.location.has_value());
  }
  while (skim.skip()) {
  }
  CHECK(skim.instructions() == n);
  CHECK(skim.end_record_offset() > index->index_offset);
  REQUIRE(index->sites.size() == skim.sites().size());
  for (std::uint32_t id = 0; id < index->sites.size(); ++id) CHECK(index->sites[id] == skim.sites().name(id));
  CHECK(error_reading(path).empty());  // the reader in file order steps over it
}

TEST_CASE("a trace of fewer than two bookmarks' worth of instructions has no index") {
  CHECK_FALSE(read_trace_index(write_trace("short.bktrace", kTraceIndexEvery)));
  CHECK(error_reading(bankcheck::test::scratch("short.bktrace")).empty());
  CHECK_FALSE(read_trace_index(bankcheck::test::scratch("no-such-file.bktrace")));
}

TEST_CASE("a malformed index is no index, and the reader in file order names it") {
  const std::string path = write_trace("bad-index.bktrace", 2 * kTraceIndexEvery);
  const auto index = read_trace_index(path);
  REQUIRE(index);
  const auto size = std::filesystem::file_size(path);
  SUBCASE("its last word is not its own offset") {
    patch_word(path, size - 24, index->index_offset + 8);
    CHECK_FALSE(read_trace_index(path));
    const std::string e = error_reading(path);
    CHECK(e.find("byte " + std::to_string(index->index_offset)) != std::string::npos);
  }
  SUBCASE("bookmarks out of order") {
    patch_word(path, index->index_offset + 8 * (2 + 9 + 2), 0);  // the second bookmark's instructions (9 words a mark)
    CHECK_FALSE(read_trace_index(path));
    CHECK(error_reading(path).empty());  // the records are intact; only the parallel replay reads bookmarks
  }
  SUBCASE("an index in a version-3 file") {
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    REQUIRE(f != nullptr);
    std::fseek(f, 8, SEEK_SET);
    std::fputc(3, f);
    std::fclose(f);
    CHECK_FALSE(read_trace_index(path));
    CHECK(error_reading(path).find("unknown record kind 7") != std::string::npos);
  }
}
