// libFuzzer target for the trace parsers (docs/fuzzing.md): any byte string
// is fed to the reader open_trace would pick (binary when it starts with the
// magic, else text) and
// read to the end. The only acceptable failure is TraceError; anything else
// (a crash, a sanitizer report, another exception) is a bug. Each record
// handed out is checked against the TraceSource contract: warp lanes, a valid
// width, aligned active addresses and a defined site. A binary trace is read
// twice, through the read buffer and mapped from a memory-backed file: the
// two must agree, records and errors alike.
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

namespace {

/// What reading a whole trace gave: records, a checksum, or the error.
struct Outcome {
  std::uint64_t records = 0, sum = 0;
  std::string error;
  bool operator==(const Outcome&) const = default;
};

/// Reads `stream` to the end as open_trace would, but with a small binary
/// buffer (or window) so refills happen on small inputs too.
Outcome read_through(std::FILE* stream, bankcheck::BinaryReadMode mode) {
  using namespace bankcheck;
  Outcome out;
  try {
    InputFile file(stream, "fuzz");
    const bool binary = file.peek(8) == std::string_view(kBinaryTraceMagic, 8);
    std::unique_ptr<TraceSource> source;
    if (binary) source = std::make_unique<BinaryTraceReader>(std::move(file), 64, mode);
    else source = std::make_unique<TextTraceReader>(std::move(file));
    TraceRecord record;
    while (source->next(record)) {
      const auto& r = record.request;
      if (r.addr.size() != source->warp() || !is_valid_access(r.op, r.width) || record.site >= source->sites().size())
        std::abort();
      for (std::uint64_t a : r.addr) {
        if (a != kInactive && a % access_alignment(r.width) != 0) std::abort();
        out.sum += a;
      }
      ++out.records;
    }
  } catch (const TraceError& e) {
    out.error = e.what();  // malformed input, reported properly
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bankcheck;
  if (size == 0) return 0;  // fmemopen needs a non-empty buffer
  // An in-memory stream is read through the buffer...
  std::FILE* stream = fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
  if (stream == nullptr) return 0;
  const Outcome read = read_through(stream, BinaryReadMode::automatic);
  std::fclose(stream);
  // ... and a binary trace in a memory-backed regular file is mapped: both
  // ways must give the same records, or the same error.
  if (size >= 8 && std::string_view(reinterpret_cast<const char*>(data), 8) == std::string_view(kBinaryTraceMagic, 8)) {
    const int fd = memfd_create("fuzz", 0);
    if (fd < 0) return 0;
    std::FILE* file = fdopen(fd, "w+b");
    if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fseek(file, 0, SEEK_SET) != 0) std::abort();
    const Outcome mapped = read_through(file, BinaryReadMode::automatic);
    std::fclose(file);
    if (!(mapped == read)) std::abort();
  }
  return 0;
}
