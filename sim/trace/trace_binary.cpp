// The binary trace reader (sim/trace/trace_binary.hpp, docs/trace-format.md):
// one function per record kind, what each format version holds asked of
// trace_binary_version.hpp, and read_record, which dispatches on the kind.
// The header and the byte supply are in trace_binary_input.cpp, the writer
// in trace_binary_writer.cpp.
#include <bit>
#include <span>
#include <string>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_binary_version.hpp"

namespace bankcheck {

// The format is little-endian and the reader hands out spans into its
// buffer, so it relies on the host being little-endian too.
static_assert(std::endian::native == std::endian::little, "binary traces assume a little-endian host");

namespace {

constexpr std::uint64_t kind_of(std::uint64_t head) { return head & 0xff; }

/// OR of (addr & mask) over the active lanes: nonzero iff some active lane is
/// misaligned. Branch-free; the AVX2 clone compares four lanes at a time
/// (SSE2 has no 64-bit compare, so the default build would not vectorize).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
std::uint64_t misaligned_bits(const std::uint64_t* addr, unsigned n, std::uint64_t mask) {
  std::uint64_t bits = 0;
  for (unsigned l = 0; l < n; ++l) bits |= (addr[l] != kInactive) ? (addr[l] & mask) : 0;
  return bits;
}

/// A 4-byte address read in place from the u64 read buffer (may_alias: the
/// buffer's words are read through this type too).
typedef std::uint32_t NarrowAddress __attribute__((may_alias));

/// 4-byte addresses to 8-byte ones, all ones (inactive) to kInactive; in
/// the same pass, the OR of (addr & mask) over the active lanes, as
/// misaligned_bits. Branch-free, so the AVX2 clone does eight lanes at a time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
std::uint32_t widen_addresses(const NarrowAddress* narrow, unsigned n, std::uint64_t* out, std::uint32_t mask) {
  std::uint32_t bits = 0;
  for (unsigned l = 0; l < n; ++l) {
    const std::uint32_t a = narrow[l];
    const bool idle = a == 0xFFFFFFFFu;
    out[l] = std::uint64_t{a} | (idle ? 0xFFFFFFFF00000000u : 0);
    bits |= idle ? 0 : (a & mask);
  }
  return bits;
}

}  // namespace

std::uint32_t BinaryTraceReader::widen(const std::uint64_t* words, std::uint32_t mask) {
  // Read the buffer's words as 32-bit halves in place (little-endian: the
  // file's order); a copy first would cost more than the widening.
  const auto* narrow = reinterpret_cast<const NarrowAddress*>(words);
  if (warp_ % 2 != 0 && narrow[warp_] != 0) fail("padding after the last 4-byte address must be 0");
  return widen_addresses(narrow, warp_, wide_.data(), mask);
}

bool BinaryTraceReader::next(TraceRecord& out) { return read_record(&out); }
bool BinaryTraceReader::skip() { return read_record(nullptr); }

// The functions an instruction passes through are inlined into read_record
// and build their error messages out of line, so that the common record
// costs no call (bench.replay (a) and (b)).

bool BinaryTraceReader::at_stop() {
  if (record_offset_ > stop_) fail("a record crosses the end of this reader's chunk (a wrong bookmark)");
  done_ = true;
  return false;
}

void BinaryTraceReader::fail_no_record() const {
  if (end_ == pos_ && tail_bytes_ == 0)
    fail("truncated file: it ends without an end record (after " + std::to_string(instructions_) + " instructions)");
  fail_truncated(1);
}

[[gnu::always_inline]] inline bool BinaryTraceReader::at_record() {
  record_offset_ = buffer_offset_ + pos_ * 8;
  if (record_offset_ >= stop_) [[unlikely]]
    return at_stop();
  if (pos_ == end_ && !fill(1)) [[unlikely]]
    fail_no_record();
  return true;
}

void BinaryTraceReader::refuse_after_source(const char* record) const {
  if (pending_source_) fail(std::string(record) + " between a source record and its instruction");
}

void BinaryTraceReader::fail_misaligned(const std::uint64_t* addr, std::uint32_t mask, unsigned width) const {
  unsigned l = 0;
  while (addr[l] == kInactive || (addr[l] & mask) == 0) ++l;
  fail("misaligned address " + std::to_string(addr[l]) + " of lane " + std::to_string(l) + ": not a multiple of " +
       std::to_string(mask + 1) + " (width " + std::to_string(width) + ")");
}

[[gnu::always_inline]] inline const std::uint64_t* BinaryTraceReader::checked_addresses(const std::uint64_t* words, unsigned width) {
  const std::uint32_t mask = access_alignment(width) - 1;
  const std::uint64_t* addr = words;
  std::uint64_t misaligned = 0;
  if (address_bytes_ == 4) {
    misaligned = widen(words, mask);
    addr = wide_.data();
  } else if (mask != 0) {
    misaligned = misaligned_bits(words, warp_, mask);
  }
  if (misaligned != 0) [[unlikely]] fail_misaligned(addr, mask, width);
  return addr;
}

void BinaryTraceReader::fail_instr_head(std::uint64_t head) const {
  const unsigned op = (head >> 8) & 0xff;
  const unsigned width = (head >> 16) & 0xff;
  const auto site = static_cast<std::uint32_t>(head >> 32);
  if (op >= kOpCount || widths_by_op_[op] == 0)
    fail("bad op " + std::to_string(op) + version_ops_text(version_));
  if (width > 16 || ((widths_by_op_[op] >> width) & 1u) == 0)
    fail("width " + std::to_string(width) + " is not one of " + version_widths_text(version_, static_cast<Op>(op)) +
         " (op " + std::string(op_name(static_cast<Op>(op))) + ")");
  if (((head >> 24) & 0xff) != 0) fail("reserved byte of an instruction record must be 0");
  if (site >= sites_.size())
    fail("site id " + std::to_string(site) + " is not defined (" + std::to_string(sites_.size()) +
         " sites defined so far)");
  fail("a source record precedes an instruction of op " + std::string(op_name(static_cast<Op>(op))) +
       " (only cpasync and cpasync.cg have sources)");
}

void BinaryTraceReader::check_sources(Op op, unsigned width, const std::uint64_t* addr) const {
  const WarpRequest request{op, width, std::span<const std::uint64_t>(addr, warp_), source_};
  if (const std::string p = source_problem(request); !p.empty()) fail(p);
}

[[gnu::always_inline]] inline void BinaryTraceReader::read_instr(std::uint64_t head, TraceRecord* out) {
  const unsigned op = (head >> 8) & 0xff;
  const unsigned width = (head >> 16) & 0xff;
  const auto site = static_cast<std::uint32_t>(head >> 32);
  // One test for the head; fail_instr_head names what is wrong.
  if (op >= kOpCount || width > 16 || ((widths_by_op_[op] >> width) & 1u) == 0 || ((head >> 24) & 0xff) != 0 ||
      site >= sites_.size() || (pending_source_ && !has_source(static_cast<Op>(op)))) [[unlikely]]
    fail_instr_head(head);
  const bool sourced = pending_source_;
  pending_source_ = false;
  const std::size_t addr_words = address_bytes_ == 8 ? warp_ : (std::size_t{warp_} + 1) / 2;
  if (end_ - pos_ <= addr_words && !fill(1 + addr_words)) fail_truncated(1 + addr_words);
  // Checked the same way whether the record is read or skipped.
  const std::uint64_t* addr = checked_addresses(words_ + pos_ + 1, width);
  if (sourced) check_sources(static_cast<Op>(op), width, addr);
  if (out != nullptr) {  // field by field: a WarpRequest built first and copied stalls on its stores
    out->site = site;
    out->request.op = static_cast<Op>(op);
    out->request.width = width;
    out->request.addr = std::span<const std::uint64_t>(addr, warp_);
    out->request.source = sourced ? std::span<const std::uint64_t>(source_) : std::span<const std::uint64_t>{};
    out->location = has_location_ ? &location_ : nullptr;
    out->repeat = 1;
    out->merged = false;
  }
  consume(1 + addr_words);
  ++instructions_;
  if (pending_repeat_ == 0) [[likely]] {
    ++executions_;
    return;
  }
  take_repeat(out);
}

void BinaryTraceReader::take_repeat(TraceRecord* out) {
  const std::uint64_t count = pending_repeat_;
  pending_repeat_ = 0;
  if (__builtin_add_overflow(executions_, count, &executions_)) fail("the executions the trace holds exceed 2^64-1");
  if (out == nullptr) return;
  out->merged = true;
  if (keep_repeats_) {
    out->repeat = count;
    return;
  }
  repeated_ = *out;  // handed out again count - 1 times before the next record is read
  repeat_left_ = count - 1;
}

void BinaryTraceReader::read_site(std::uint64_t head) {
  if (((head >> 8) & 0xffffff) != 0) fail("reserved bytes of a site record must be 0");
  const std::uint64_t length = head >> 32;
  if (length > kMaxSiteNameBytes)
    fail("site name of " + std::to_string(length) + " bytes (at most " + std::to_string(kMaxSiteNameBytes) + ")");
  const std::size_t words = (length + 7) / 8;
  if (!fill(1 + words)) fail_truncated(1 + words);
  const auto* name = reinterpret_cast<const unsigned char*>(words_ + pos_ + 1);
  for (std::size_t i = length; i < words * 8; ++i)
    if (name[i] != 0) fail("padding after a site name must be 0");
  const std::string_view text(reinterpret_cast<const char*>(name), length);
  refuse_after_source("a site record");
  refuse_after_repeat("a site record");
  const std::size_t before = sites_.size();
  if (sites_.intern(text) != before) fail("site '" + std::string(text) + "' is defined twice");
  consume(1 + words);
}

void BinaryTraceReader::read_source(std::uint64_t head) {
  if ((head >> 8) != 0) fail("reserved bytes of a source record must be 0");
  if (pending_source_) fail("two source records in a row (each precedes its instruction)");
  if (!fill(1 + std::size_t{warp_})) fail_truncated(1 + std::size_t{warp_});
  source_.assign(words_ + pos_ + 1, words_ + pos_ + 1 + warp_);
  pending_source_ = true;
  consume(1 + warp_);
}

void BinaryTraceReader::read_end(std::uint64_t head) {
  if ((head >> 8) != 0) fail("reserved bytes of an end record must be 0");
  if (pending_source_) fail("a source record with no instruction after it");
  if (pending_repeat_ != 0) fail("a repeat record with no instruction after it");
  if (!fill(2)) fail_truncated(2);
  const std::uint64_t count = words_[pos_ + 1];
  if (count != instructions_)
    fail("end record counts " + std::to_string(count) + " instructions, the file holds " +
         std::to_string(instructions_));
  if (expected_ && *expected_ != executions_)
    fail("expected " + std::to_string(*expected_) + " records (the producer's count), read " +
         std::to_string(executions_) + ": the trace is incomplete");
  end_record_offset_ = record_offset_;
  consume(2);
  record_offset_ = buffer_offset_ + pos_ * 8;
  if (fill(1) || tail_bytes_ != 0) fail("data after the end record");
  done_ = true;
}

void BinaryTraceReader::read_location(std::uint64_t head) {
  refuse_after_source("a location record");
  refuse_after_repeat("a location record");
  if (((head >> 8) & 0xffffff) != 0) fail("reserved bytes of a location record must be 0");
  constexpr std::size_t words = 4;
  if (!fill(words)) fail_truncated(words);
  const std::uint64_t xy = words_[pos_ + 2], z = words_[pos_ + 3];
  if ((z >> 32) != 0) fail("reserved half of a location record's block z word must be 0");
  location_.warp = static_cast<std::uint32_t>(head >> 32);
  location_.launch = words_[pos_ + 1];
  location_.block = {static_cast<std::uint32_t>(xy), static_cast<std::uint32_t>(xy >> 32),
                     static_cast<std::uint32_t>(z)};
  has_location_ = true;
  consume(words);
}

void BinaryTraceReader::read_repeat(std::uint64_t head) {
  if ((head >> 8) != 0) fail("reserved bytes of a repeat record must be 0");
  if (pending_repeat_ != 0) fail("two repeat records in a row (each precedes its instruction)");
  refuse_after_source("a repeat record");
  if (!fill(2)) fail_truncated(2);
  const std::uint64_t count = words_[pos_ + 1];
  if (count < 2) fail("a repeat count of " + std::to_string(count) + " (at least 2: one execution needs none)");
  pending_repeat_ = count;
  consume(2);
}

void BinaryTraceReader::refuse_after_repeat(const char* record) const {
  if (pending_repeat_ != 0) fail(std::string(record) + " between a repeat record and its instruction");
}

void BinaryTraceReader::read_expect(std::uint64_t head) {
  refuse_after_source("an expect record");
  refuse_after_repeat("an expect record");
  if ((head >> 8) != 0) fail("reserved bytes of an expect record must be 0");
  if (expected_) fail("a second expect record (at most one per trace)");
  if (!fill(2)) fail_truncated(2);
  expected_ = words_[pos_ + 1];
  consume(2);
}

void BinaryTraceReader::read_index(std::uint64_t head) {
  // docs/trace-format.md, "The index": readers in file order step over it;
  // the parallel replay reads it (sim/trace/trace_index.hpp).
  refuse_after_source("an index record");
  refuse_after_repeat("an index record");
  if (((head >> 8) & 0xffffff) != 0) fail("reserved bytes of an index record must be 0");
  if (!fill(2)) fail_truncated(2);
  const std::uint64_t names = words_[pos_ + 1];
  skip_words(2 + (version_ >= 5 ? 9 : 8) * (head >> 32));  // version 5: a ninth word a bookmark
  for (std::uint64_t i = 0; i < names; ++i) {
    if (!fill(1)) fail_truncated(1);
    const std::uint64_t length = words_[pos_];
    if (length > kMaxSiteNameBytes) fail("index: a site name of " + std::to_string(length) + " bytes");
    skip_words(1 + (length + 7) / 8);
  }
  if (!fill(1)) fail_truncated(1);
  if (words_[pos_] != record_offset_)
    fail("index record ends with offset " + std::to_string(words_[pos_]) + ", not its own (" +
         std::to_string(record_offset_) + ")");
  consume(1);
  index_seen_ = true;
}

bool BinaryTraceReader::read_other(std::uint64_t head) {
  const std::uint64_t kind = kind_of(head);
  if (index_seen_ && kind != static_cast<std::uint64_t>(BinaryRecordKind::end))
    fail("a record after the index (only the end record may follow it)");
  if (!version_has_kind(version_, kind))
    fail("unknown record kind " + std::to_string(kind) + version_kinds_text(version_));
  switch (static_cast<BinaryRecordKind>(kind)) {
    case BinaryRecordKind::instr: break;  // here only after the index, refused above
    case BinaryRecordKind::end: read_end(head); return false;
    case BinaryRecordKind::site: read_site(head); break;
    case BinaryRecordKind::source: read_source(head); break;
    case BinaryRecordKind::location: read_location(head); break;
    case BinaryRecordKind::expect: read_expect(head); break;
    case BinaryRecordKind::index: read_index(head); break;
    case BinaryRecordKind::repeat: read_repeat(head); break;
  }
  return true;
}

bool BinaryTraceReader::read_record(TraceRecord* out) {
  if (repeat_left_ > 0) [[unlikely]] {  // expanding a repeated record (not kept): its next copy
    if (out != nullptr) {
      --repeat_left_;
      *out = repeated_;
      return true;
    }
    repeat_left_ = 0;  // skip() steps over the copies with the record
  }
  if (done_) return false;
  while (at_record()) {
    const std::uint64_t head = words_[pos_];
    // Every version holds instructions, and only the end record follows the index.
    if (kind_of(head) == static_cast<std::uint64_t>(BinaryRecordKind::instr) && !index_seen_) [[likely]] {
      read_instr(head, out);
      return true;
    }
    if (!read_other(head)) return false;
  }
  return false;
}

}  // namespace bankcheck
