// The binary trace reader's input (sim/trace/trace_binary.hpp,
// docs/trace-format.md): its header, and how it gets at the bytes after it
// (a mapped window or a read buffer). Its records are read in
// trace_binary.cpp, the writer is in trace_binary_writer.cpp.
#include "sim/trace/trace_binary.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sim/trace/trace_binary_version.hpp"

namespace bankcheck {

BinaryTraceReader::BinaryTraceReader(InputFile file, std::size_t buffer_bytes, BinaryReadMode mode)
    : file_(std::move(file)) {
  unsigned char header[kBinaryTraceHeaderBytes];
  const std::size_t got = file_.read(header, sizeof header);
  auto header_error = [&](std::uint64_t offset, const std::string& message) {
    throw TraceError::at_byte(file_.name(), offset, TraceError::kHeader, message);
  };
  if (got < sizeof kBinaryTraceMagic || std::memcmp(header, kBinaryTraceMagic, sizeof kBinaryTraceMagic) != 0)
    header_error(0, "bad magic: not a bankcheck binary trace (expected \"BKTRACE\\x1a\")");
  if (got < sizeof header)
    header_error(got, "truncated header: " + std::to_string(got) + " of " + std::to_string(sizeof header) + " bytes");
  std::uint16_t version;
  std::memcpy(&version, header + 8, 2);
  if (version < kOldestBinaryTraceVersion || version > kBinaryTraceVersion)
    header_error(8, "unsupported version " + std::to_string(version) + " (this reader reads versions " +
                        std::to_string(kOldestBinaryTraceVersion) + ".." + std::to_string(kBinaryTraceVersion) + ")");
  version_ = version;
  for (unsigned op = 0; op < kOpCount; ++op) widths_by_op_[op] = version_widths(version_, static_cast<Op>(op));
  if (!is_valid_address_bytes(header[10]))
    header_error(10, "unsupported address size " + std::to_string(header[10]) + " (8- or 4-byte addresses)");
  address_bytes_ = header[10];
  if (header[11] != 0) header_error(11, "reserved header byte must be 0 (got " + std::to_string(header[11]) + ")");
  std::uint32_t warp;
  std::memcpy(&warp, header + 12, 4);
  if (warp < 1 || warp > kMaxTraceWarp)
    header_error(12, "warp size must be in 1.." + std::to_string(kMaxTraceWarp) + " (got " + std::to_string(warp) + ")");
  warp_ = warp;
  if (address_bytes_ == 4) wide_.resize(warp_);
  // Room for the largest record: an instruction, or a site of the longest name.
  const std::size_t min_words = std::size_t{3} + std::max<std::size_t>(warp_, kMaxSiteNameBytes / 8 + 1);
  buffer_words_ = std::max(buffer_bytes / 8, min_words) + 1;
  if (mode == BinaryReadMode::automatic) mapping_ = file_.mappable();
  if (mapping_ && mapping_->position != kBinaryTraceHeaderBytes) mapping_.reset();  // not where the header ended
  if (!mapping_) {
    buffer_ = std::make_unique_for_overwrite<std::uint64_t[]>(buffer_words_);
    words_ = buffer_.get();
  }
}

void BinaryTraceReader::fail(const std::string& message) const {
  throw TraceError::at_byte(file_.name(), record_offset_, records_, message);
}

void BinaryTraceReader::fail_truncated(std::size_t need_words) const {
  const std::size_t have = (end_ - pos_) * 8 + tail_bytes_;
  fail("truncated record: needs " + std::to_string(need_words * 8) + " bytes, the file has " + std::to_string(have) +
       " left");
}

bool BinaryTraceReader::fill(std::size_t words) {
  if (end_ - pos_ >= words) return true;
  if (eof_) return false;
  return mapping_ ? fill_window(words) : fill_buffer(words);
}

bool BinaryTraceReader::fill_window(std::size_t words) {
  // Move the window to start at pos_; it ends at the file's end or after
  // buffer_words_ words (the largest record fits either way).
  const std::uint64_t from = buffer_offset_ + pos_ * 8;
  const std::uint64_t left = mapping_->size - from;
  const auto bytes = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer_words_ * 8));
  words_ = bytes == 0 ? nullptr
                      : reinterpret_cast<const std::uint64_t*>(window_.map(mapping_->descriptor, from, bytes, file_.name()));
  buffer_offset_ = from;
  pos_ = 0;
  end_ = bytes / 8;
  tail_bytes_ = bytes % 8;
  eof_ = bytes == left;
  return end_ >= words;
}

bool BinaryTraceReader::fill_buffer(std::size_t words) {
  // Slide the unread bytes to the front, then read as much as fits.
  auto* bytes = reinterpret_cast<unsigned char*>(buffer_.get());
  const std::size_t keep = (end_ - pos_) * 8 + tail_bytes_;
  if (pos_ > 0) {
    std::memmove(bytes, bytes + pos_ * 8, keep);
    buffer_offset_ += pos_ * 8;
    end_ -= pos_;
    pos_ = 0;
  }
  std::size_t have = keep;
  const std::size_t capacity = (buffer_words_ - 1) * 8;  // last word: slack, never read into
  while (have < words * 8 && !eof_) {
    const std::size_t want = capacity - have;
    const std::size_t got = file_.read(bytes + have, want);
    have += got;
    if (got < want) eof_ = true;
  }
  end_ = have / 8;
  tail_bytes_ = have % 8;
  return end_ - pos_ >= words;
}

void BinaryTraceReader::skip_words(std::uint64_t words) {
  while (words > 0) {
    if (pos_ == end_ && !fill(1)) fail_truncated(static_cast<std::size_t>(std::min<std::uint64_t>(words, 1u << 30)));
    const std::uint64_t take = std::min<std::uint64_t>(words, end_ - pos_);
    pos_ += static_cast<std::size_t>(take);
    words -= take;
  }
}

BinaryTraceReader::Bookmark BinaryTraceReader::bookmark() const {
  Bookmark m{buffer_offset_ + pos_ * 8, records_, instructions_, sites_.size(), std::nullopt, executions_};
  if (has_location_) m.location = location_;
  return m;
}

void BinaryTraceReader::resume(const Bookmark& mark, const SiteTable& all_sites, std::uint64_t stop) {
  if (records_ != 0) throw std::logic_error("resume() needs a reader that has read nothing");
  if (!mapping_) file_.seek(mark.offset);
  for (std::size_t id = 0; id < mark.sites; ++id) sites_.intern(all_sites.name(static_cast<std::uint32_t>(id)));
  has_location_ = mark.location.has_value();
  if (has_location_) location_ = *mark.location;
  records_ = mark.records;
  instructions_ = mark.instructions;
  executions_ = mark.executions;
  buffer_offset_ = record_offset_ = mark.offset;
  pos_ = end_ = tail_bytes_ = 0;
  eof_ = false;
  stop_ = stop;
}

}  // namespace bankcheck
