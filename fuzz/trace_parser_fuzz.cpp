// libFuzzer target for the trace parsers (docs/fuzzing.md): any byte string
// is fed to the reader open_trace would pick (binary when it starts with the
// magic, else text) and
// read to the end. The only acceptable failure is TraceError; anything else
// (a crash, a sanitizer report, another exception) is a bug. Each record
// handed out is checked against the TraceSource contract: warp lanes, a valid
// width, aligned active addresses and a defined site.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "sim/trace_binary.hpp"
#include "sim/trace_error.hpp"
#include "sim/trace_file.hpp"
#include "sim/trace_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bankcheck;
  if (size == 0) return 0;  // fmemopen needs a non-empty buffer
  std::FILE* stream = fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
  if (stream == nullptr) return 0;
  try {
    // As open_trace does, but with a small binary read buffer so refills
    // (records straddling the buffer end) happen on small inputs too.
    InputFile file(stream, "fuzz");
    const bool binary = file.peek(8) == std::string_view(kBinaryTraceMagic, 8);
    std::unique_ptr<TraceSource> source;
    if (binary) source = std::make_unique<BinaryTraceReader>(std::move(file), 64);
    else source = std::make_unique<TextTraceReader>(std::move(file));
    TraceRecord record;
    std::uint64_t sum = 0;
    while (source->next(record)) {
      const auto& r = record.request;
      if (r.addr.size() != source->warp() || !is_valid_width(r.width) || record.site >= source->sites().size())
        std::abort();
      for (std::uint64_t a : r.addr) {
        if (a != kInactive && a % r.width != 0) std::abort();
        sum += a;
      }
    }
    static volatile std::uint64_t sink;
    sink = sum;
  } catch (const TraceError&) {
    // malformed input, reported properly
  }
  std::fclose(stream);
  return 0;
}
