#pragma once
// Test support shared by the binary trace tests (trace_binary_test.cpp,
// trace_binary_v2_test.cpp): traces assembled byte by byte from the layout
// in docs/trace-format.md (not by the writer under test), and a reader that
// reads them both ways, mapped and through the read buffer.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/scratch.hpp"
#include "tests/sim/trace/trace_io_support.hpp"

namespace bankcheck::test {

/// An inactive lane, short for the address lists of the tests.
inline constexpr std::uint64_t X = kInactive;

/// Assembles a binary trace as docs/trace-format.md lays it out.
struct Bytes {
  std::string s;
  Bytes& u8(std::uint8_t v) { s.push_back(static_cast<char>(v)); return *this; }
  Bytes& u16(std::uint16_t v) { for (int i = 0; i < 2; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i))); return *this; }
  Bytes& u32(std::uint32_t v) { for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i))); return *this; }
  Bytes& u64(std::uint64_t v) { for (int i = 0; i < 8; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i))); return *this; }
  Bytes& header(std::uint32_t warp, std::uint16_t version = kBinaryTraceVersion, std::uint8_t addr_bytes = 8) {
    s.append("BKTRACE\x1a", 8);
    return u16(version).u8(addr_bytes).u8(0).u32(warp);
  }
  Bytes& site(const std::string& name) {
    u64(1 | std::uint64_t{name.size()} << 32);
    s += name;
    while (s.size() % 8 != 0) u8(0);
    return *this;
  }
  Bytes& instr(std::uint32_t site, unsigned op, unsigned width, const std::vector<std::uint64_t>& addr) {
    u64(2 | std::uint64_t{op} << 8 | std::uint64_t{width} << 16 | std::uint64_t{site} << 32);
    for (auto a : addr) u64(a);
    return *this;
  }
  /// An instruction record of a trace with 4-byte addresses (all ones = inactive), zero-padded to 8 bytes.
  Bytes& instr32(std::uint32_t site, unsigned op, unsigned width, const std::vector<std::uint64_t>& addr) {
    u64(2 | std::uint64_t{op} << 8 | std::uint64_t{width} << 16 | std::uint64_t{site} << 32);
    for (auto a : addr) u32(a == X ? 0xFFFFFFFFu : static_cast<std::uint32_t>(a));
    while (s.size() % 8 != 0) u8(0);
    return *this;
  }
  Bytes& end(std::uint64_t count) { return u64(3).u64(count); }
  /// Version 2: a location record (kind 4).
  Bytes& location(std::uint64_t launch, std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t warp) {
    return u64(4 | std::uint64_t{warp} << 32).u64(launch).u64(x | std::uint64_t{y} << 32).u64(z);
  }
  /// Version 2: an expect record (kind 5).
  Bytes& expect(std::uint64_t count) { return u64(5).u64(count); }
};

/// What a reader yields: the warp, and per record its site, addresses and
/// width (plus 100 for a store).
struct ReadResult {
  unsigned warp = 0;
  std::vector<std::string> sites;
  std::vector<std::vector<std::uint64_t>> addr;
  std::vector<unsigned> widths;
  friend bool operator==(const ReadResult&, const ReadResult&) = default;
};

inline ReadResult read_one(const std::string& bytes, std::size_t buffer_bytes, BinaryReadMode mode) {
  TempStream stream(bytes);
  BinaryTraceReader reader(stream.input("t.bktrace"), buffer_bytes, mode);
  CHECK(reader.mapped() == (mode == BinaryReadMode::automatic));  // a temporary file is a regular file
  ReadResult out;
  out.warp = reader.warp();
  TraceRecord r;
  while (reader.next(r)) {
    out.sites.push_back(reader.sites().name(r.site));
    out.addr.emplace_back(r.request.addr.begin(), r.request.addr.end());
    out.widths.push_back(r.request.width + (r.request.op == Op::store ? 100 : 0));
  }
  CHECK_FALSE(reader.next(r));  // stays at the end
  return out;
}

/// Steps through the bytes with skip() (the parallel replay's skim), one
/// way: the instructions stepped over.
inline std::uint64_t skim_one(const std::string& bytes, std::size_t buffer_bytes, BinaryReadMode mode) {
  TempStream stream(bytes);
  BinaryTraceReader reader(stream.input("t.bktrace"), buffer_bytes, mode);
  while (reader.skip()) {
  }
  CHECK_FALSE(reader.skip());  // stays at the end
  return reader.instructions();
}

/// skim_one's message for the bytes (empty when it reads to the end), and its count in `instructions`.
inline std::string skim_message(const std::string& bytes, std::size_t buffer_bytes, BinaryReadMode mode,
                                std::uint64_t& instructions) {
  try {
    instructions = skim_one(bytes, buffer_bytes, mode);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

/// Reads the bytes both ways, mapped and through the read buffer, and skims
/// them both ways with skip(): all four must agree, errors included (a
/// record next() refuses, skip() refuses with the same message); then
/// returns the result or rethrows the error.
inline ReadResult read_all(const std::string& bytes, std::size_t buffer_bytes = std::size_t{4} << 20) {
  ReadResult result[2];
  std::exception_ptr error[2];
  std::string message[2];
  const BinaryReadMode modes[2] = {BinaryReadMode::automatic, BinaryReadMode::read};
  for (int m = 0; m < 2; ++m) {
    try {
      result[m] = read_one(bytes, buffer_bytes, modes[m]);
    } catch (const TraceError& e) {
      error[m] = std::current_exception();
      message[m] = e.what();
    }
    std::uint64_t skimmed = 0;
    CHECK(skim_message(bytes, buffer_bytes, modes[m], skimmed) == message[m]);
    if (!error[m]) CHECK(skimmed == result[m].addr.size());
  }
  CHECK(message[0] == message[1]);
  CHECK(result[0] == result[1]);
  if (error[0]) std::rethrow_exception(error[0]);
  return result[0];
}

/// A path in this test process's scratch directory.
inline std::string temp_path(const char* name) { return scratch(name); }

/// `text` as a text trace, copied to a binary trace (`address_bytes` per
/// address) and back to text by the library's readers and writers: the text
/// that comes back. Each copy must carry `records` instructions, and the
/// binary file must start with the format's magic.
inline std::string text_binary_text(const std::string& text, const std::string& stem, unsigned address_bytes,
                                    std::uint64_t records) {
  const auto txt = scratch(stem + "_in.trace"), bin = scratch(stem + ".bktrace"), back = scratch(stem + "_out.trace");
  {
    std::FILE* f = std::fopen(txt.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  {
    auto src = open_trace(txt);
    auto dst = create_trace(bin, TraceFormat::binary, address_bytes);
    CHECK(copy_trace(*src, *dst) == records);
  }
  CHECK(file_bytes(bin).substr(0, 8) == std::string("BKTRACE\x1a", 8));
  {
    auto src = open_trace(bin);  // told binary by its magic
    auto dst = create_trace(back, TraceFormat::text);
    CHECK(copy_trace(*src, *dst) == records);
  }
  return file_bytes(back);
}

}  // namespace bankcheck::test
