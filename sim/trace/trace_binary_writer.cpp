// The writer of the binary trace format (sim/trace/trace_binary.hpp,
// docs/trace-format.md); the reader is in trace_binary.cpp.
#include <cstring>
#include <stdexcept>

#include "sim/trace/trace_binary.hpp"

namespace bankcheck {
namespace {

/// `name`'s bytes appended to `words`, zero-padded to whole words (a site
/// record's name, and each name of the index).
void append_padded(std::vector<std::uint64_t>& words, std::string_view name) {
  const std::size_t first = words.size();
  words.resize(first + (name.size() + 7) / 8, 0);
  if (!name.empty()) std::memcpy(words.data() + first, name.data(), name.size());
}

}  // namespace

BinaryTraceWriter::BinaryTraceWriter(OutputFile file, unsigned address_bytes)
    : file_(std::move(file)), address_bytes_(address_bytes) {
  if (!is_valid_address_bytes(address_bytes))
    throw std::invalid_argument("address bytes must be 4 or 8 (got " + std::to_string(address_bytes) + ")");
}

void BinaryTraceWriter::begin(unsigned warp) {
  if (warp < 1 || warp > kMaxTraceWarp)
    throw std::invalid_argument("warp size must be in 1.." + std::to_string(kMaxTraceWarp) + " (got " +
                                std::to_string(warp) + ")");
  warp_ = warp;
  unsigned char header[kBinaryTraceHeaderBytes] = {};
  std::memcpy(header, kBinaryTraceMagic, sizeof kBinaryTraceMagic);
  const std::uint16_t version = kBinaryTraceVersion;
  std::memcpy(header + 8, &version, 2);
  header[10] = static_cast<unsigned char>(address_bytes_);
  const std::uint32_t w = warp;
  std::memcpy(header + 12, &w, 4);
  put(header, sizeof header, 0);
}

void BinaryTraceWriter::put(const void* data, std::size_t bytes, std::uint64_t records) {
  file_.write(data, bytes);
  bytes_ += bytes;
  records_ += records;
}

void BinaryTraceWriter::record_repeated(std::string_view site, const WarpRequest& request, std::uint64_t count) {
  if (count == 0) throw std::invalid_argument("a repeated record of 0 executions");
  write(site, request, count);
}

void BinaryTraceWriter::write(std::string_view site, const WarpRequest& request, std::uint64_t count) {
  check_writable(request, warp_);
  std::uint64_t executions = 0;
  if (__builtin_add_overflow(executions_, count, &executions))
    throw std::overflow_error("the trace's executions would exceed 2^64-1");
  const unsigned alignment = access_alignment(request.width);
  for (std::uint64_t a : request.addr) {
    if (a == kInactive) continue;
    if (!is_aligned_access(a, request.width))
      throw std::invalid_argument("address " + std::to_string(a) + " is not a multiple of " +
                                  std::to_string(alignment) + " (width " + std::to_string(request.width) + ")");
    if (address_bytes_ == 4 && a > kMaxNarrowAddress)
      throw std::invalid_argument("address " + std::to_string(a) + " does not fit a trace of 4-byte addresses (at most " +
                                  std::to_string(kMaxNarrowAddress) + "); write 8-byte addresses");
  }
  const std::size_t known = sites_.size();
  if (instructions_ % kTraceIndexEvery == 0)  // before this instruction's site and source records
    marks_.push_back(TraceBookmark{bytes_, records_, instructions_, known, last_location_, executions_});
  const std::uint32_t id = sites_.intern(site);
  words_.clear();
  std::uint64_t records = 1;
  if (id == known) {  // first use: define the site
    ++records;
    if (site.size() > kMaxSiteNameBytes)
      throw std::invalid_argument("site name longer than " + std::to_string(kMaxSiteNameBytes) + " bytes");
    words_.push_back(static_cast<std::uint64_t>(BinaryRecordKind::site) | std::uint64_t{site.size()} << 32);
    append_padded(words_, site);
  }
  if (count > 1) {  // before the source record: repeat, source, instruction
    ++records;
    words_.insert(words_.end(), {static_cast<std::uint64_t>(BinaryRecordKind::repeat), count});
  }
  if (!request.source.empty()) {
    ++records;
    words_.push_back(static_cast<std::uint64_t>(BinaryRecordKind::source));
    words_.insert(words_.end(), request.source.begin(), request.source.end());
  }
  const std::uint64_t head = static_cast<std::uint64_t>(BinaryRecordKind::instr) |
                             std::uint64_t{static_cast<unsigned>(request.op)} << 8 |
                             std::uint64_t{request.width} << 16 | std::uint64_t{id} << 32;
  words_.push_back(head);
  if (address_bytes_ == 8) {
    words_.insert(words_.end(), request.addr.begin(), request.addr.end());
  } else {
    auto narrow = [](std::uint64_t a) -> std::uint64_t { return a == kInactive ? 0xFFFFFFFFu : a; };
    for (std::size_t l = 0; l < warp_; l += 2)
      words_.push_back(narrow(request.addr[l]) | (l + 1 < warp_ ? narrow(request.addr[l + 1]) << 32 : 0));
  }
  put(words_.data(), words_.size() * 8, records);
  ++instructions_;
  executions_ = executions;
}

void BinaryTraceWriter::location(const TraceLocation& where) {
  if (last_location_ && *last_location_ == where) return;
  const std::uint64_t words[4] = {
      static_cast<std::uint64_t>(BinaryRecordKind::location) | std::uint64_t{where.warp} << 32, where.launch,
      std::uint64_t{where.block[0]} | std::uint64_t{where.block[1]} << 32, std::uint64_t{where.block[2]}};
  put(words, sizeof words, 1);
  last_location_ = where;
}

void BinaryTraceWriter::expect(std::uint64_t records) {
  if (expected_written_) throw std::logic_error("BinaryTraceWriter::expect called twice");
  const std::uint64_t words[2] = {static_cast<std::uint64_t>(BinaryRecordKind::expect), records};
  put(words, sizeof words, 1);
  expected_written_ = true;
}

void BinaryTraceWriter::end() {
  if (marks_.size() >= 2) {  // docs/trace-format.md, "The index"
    const std::uint64_t at = bytes_;
    words_.assign({static_cast<std::uint64_t>(BinaryRecordKind::index) | std::uint64_t{marks_.size()} << 32,
                   std::uint64_t{sites_.size()}});
    for (const TraceBookmark& m : marks_) {
      const TraceLocation where = m.location.value_or(TraceLocation{});
      words_.insert(words_.end(), {m.offset, m.records, m.instructions, std::uint64_t{m.sites}, where.launch,
                                   std::uint64_t{where.block[0]} | std::uint64_t{where.block[1]} << 32,
                                   std::uint64_t{where.block[2]} | std::uint64_t{where.warp} << 32,
                                   std::uint64_t{m.location.has_value()}, m.executions});
    }
    for (std::uint32_t id = 0; id < sites_.size(); ++id) {
      const std::string& name = sites_.name(id);
      words_.push_back(name.size());
      append_padded(words_, name);
    }
    words_.push_back(at);
    put(words_.data(), words_.size() * 8, 1);
  }
  const std::uint64_t tail[2] = {static_cast<std::uint64_t>(BinaryRecordKind::end), instructions_};
  put(tail, sizeof tail, 1);
  file_.close();
}

}  // namespace bankcheck
