#pragma once
// The binary trace format (docs/trace-format.md), for large traces:
//
//   header (16 bytes): magic "BKTRACE\x1a", u16 version = 5 (1 to 4 are
//   still read), u8 address size = 8 or 4, u8 reserved = 0, u32 warp.
//   then records, each starting on an 8-byte boundary with a u64 head whose
//   low byte is the kind:
//     site     (kind 1): head = 1 | name_length << 32; then the name bytes,
//                        zero-padded to a multiple of 8. Sites are numbered
//                        0, 1, 2, ... in order of definition.
//     instr    (kind 2): head = 2 | op << 8 | width << 16 | site << 32;
//                        then `warp` byte addresses of the header's size
//                        (all ones = inactive), zero-padded to 8 bytes.
//     end      (kind 3): head = 3; then a u64 count of instr records.
//   version 2 adds (docs/trace-format.md):
//     location (kind 4): head = 4 | warp << 32; then u64 launch, u64
//                        block x | block y << 32, u64 block z. Applies to
//                        the instr records that follow it.
//     expect   (kind 5): head = 5; then the u64 count of instr records the
//                        producer counted (a capture's device-side count);
//                        at most once, checked at the end record.
//   and ops 2..5 (atom, ldsm, stsm, cpasync) and the 12-byte width.
//   version 3 adds:
//     source   (kind 6): head = 6; then `warp` u64 global source addresses
//                        (all ones = inactive) of the instr record that
//                        follows at once, which must be a copy (cpasync,
//                        cpasync.cg, cpasync.cg.zfill).
//   version 4 adds:
//     index    (kind 7): just before the end record, the writer's bookmarks
//                        every kTraceIndexEvery instructions and every
//                        site's name (sim/trace/trace_index.hpp). The
//                        writer writes version 4.
//   version 5 adds:
//     repeat   (kind 8): head = 8; then a u64 count >= 2: the instruction
//                        record that follows (after its source record, if
//                        any) stands for `count` identical executions, the
//                        first at the location in force. Index bookmarks
//                        gain a ninth word, the executions before them.
//   All integers little-endian. A file without its end record is truncated.
//
// A regular file is mapped, a window at a time, and read in place; a pipe
// is read into a buffer. With 8-byte addresses the reader hands out a span
// straight into the window or buffer: no per-record copy and no
// allocation. 4-byte addresses halve the bytes to read; the reader widens
// them into one reused array.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace/trace.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck {

inline constexpr char kBinaryTraceMagic[8] = {'B', 'K', 'T', 'R', 'A', 'C', 'E', '\x1a'};
/// The version the writer writes (5: repeat records; an index record may precede the end record).
inline constexpr std::uint16_t kBinaryTraceVersion = 5;
/// The oldest version the reader reads (version 1: ld/st only, no location or expect records).
inline constexpr std::uint16_t kOldestBinaryTraceVersion = 1;
inline constexpr std::size_t kBinaryTraceHeaderBytes = 16;
/// Bytes per address a binary trace may use (the header's address size).
constexpr bool is_valid_address_bytes(unsigned bytes) { return bytes == 4 || bytes == 8; }
/// Largest active address a trace with 4-byte addresses holds (all ones means inactive).
inline constexpr std::uint64_t kMaxNarrowAddress = 0xFFFFFFFEu;
/// Longest site name a binary trace may define.
inline constexpr std::uint32_t kMaxSiteNameBytes = 4096;

enum class BinaryRecordKind : std::uint8_t {
  site = 1, instr = 2, end = 3, location = 4, expect = 5, source = 6, index = 7, repeat = 8
};

/// Instructions between two bookmarks of a trace's index (sim/trace/trace_index.hpp).
inline constexpr std::uint64_t kTraceIndexEvery = 16384;

/// Where a reader stands between two records: what another reader of the
/// same file needs to read on from there (a chunk of a parallel replay,
/// sim/replay/parallel_replay.hpp), and what a trace's index records.
struct TraceBookmark {
  std::uint64_t offset = kBinaryTraceHeaderBytes;  ///< file offset of the next record
  std::uint64_t records = 0, instructions = 0;     ///< records (all kinds) and instructions before it
  std::size_t sites = 0;                           ///< sites defined before it
  std::optional<TraceLocation> location;           ///< the location in force there
  std::uint64_t executions = 0;                    ///< executions before it (instructions, each repeat counted)
  bool operator==(const TraceBookmark&) const = default;
};

/// How the reader gets at the bytes after the header.
enum class BinaryReadMode : std::uint8_t {
  automatic,  ///< map a regular file a window at a time; read anything else
  read,       ///< always read() into the buffer (tests compare both ways)
};

/// Streams a binary trace through a fixed window or read buffer of
/// `buffer_bytes` (default 4 MiB; grown to hold the largest record).
class BinaryTraceReader final : public TraceSource {
 public:
  /// Reads and checks the header. @throws TraceError (bad magic, version, address size, warp).
  explicit BinaryTraceReader(InputFile file, std::size_t buffer_bytes = std::size_t{4} << 20,
                             BinaryReadMode mode = BinaryReadMode::automatic);

  unsigned warp() const override { return warp_; }
  bool next(TraceRecord& out) override;
  const SiteTable& sites() const override { return sites_; }
  RecordPosition position() const override { return {RecordPosition::Unit::byte, record_offset_}; }

  std::optional<std::uint64_t> expected() const override { return expected_; }
  void keep_repeats() override { keep_repeats_ = true; }

  /// Instruction records returned so far (a repeated one once).
  std::uint64_t instructions() const { return instructions_; }
  /// The executions they stand for (a repeated record its count).
  std::uint64_t executions() const { return executions_; }
  /// The file's format version (1 to 4).
  unsigned version() const { return version_; }
  /// Bytes per address in this file: 8 or 4.
  unsigned address_bytes() const { return address_bytes_; }
  /// The file's name as it was opened (a path for a mapped file).
  const std::string& file_name() const { return file_.name(); }
  /// True when the file is mapped rather than read.
  bool mapped() const { return mapping_.has_value(); }

  using Bookmark = TraceBookmark;
  /// The bookmark after the last record read or skipped.
  Bookmark bookmark() const;
  /// As next(), but an instruction record is stepped over, not handed out:
  /// it is checked as next() checks it (its addresses included), so a file
  /// next() refuses, skip() refuses at the same byte. Returns false after
  /// the end record, checked.
  bool skip();
  /// File offset of the end record (after skip() or next() returned false).
  std::uint64_t end_record_offset() const { return end_record_offset_; }
  /// Read on from `mark`, taken by another reader of the same file, whose
  /// site table is `all_sites` (its first mark.sites names are defined here),
  /// until the record at byte `stop`: next() then returns false.
  /// @pre nothing read yet, and the file mapped or a regular file read (it seeks).
  void resume(const Bookmark& mark, const SiteTable& all_sites, std::uint64_t stop);

 private:
  /// next() (out set) or skip() (out null): the records up to the next
  /// instruction, each read by the function of its kind below.
  bool read_record(TraceRecord* out);
  /// A record other than an instruction, by its kind (and the version's
  /// kinds); false after the end record.
  bool read_other(std::uint64_t head);
  /// Sets record_offset_ to the next record's and makes its head readable;
  /// false where this reader's chunk ends. @throws TraceError where the file does.
  bool at_record();
  bool at_stop();               ///< at_record() at stop_: false, or a record that crosses it
  [[noreturn]] void fail_no_record() const;  ///< at_record() at the file's end
  // One function per record kind (docs/trace-format.md): each checks the
  // record at pos_, whose head is `head`, takes in what it says and steps past it.
  /// An instruction, handed out in `out` unless null; its addresses checked either way.
  void read_instr(std::uint64_t head, TraceRecord* out);
  void read_site(std::uint64_t head);
  void read_source(std::uint64_t head);
  /// The end record: its count checked, nothing after it.
  void read_end(std::uint64_t head);
  void read_location(std::uint64_t head);
  void read_expect(std::uint64_t head);
  void read_repeat(std::uint64_t head);
  /// After an instruction record: the pending repeat record's count taken in (executions; kept or expanded).
  void take_repeat(TraceRecord* out);
  /// Refuses `record` (named for the message) between a repeat record and its instruction.
  void refuse_after_repeat(const char* record) const;
  /// Step over an index record (version 4), checking its shape.
  void read_index(std::uint64_t head);
  /// The current instruction's addresses (`words`, as the file holds them)
  /// as 8-byte ones, each a multiple of its width's alignment.
  const std::uint64_t* checked_addresses(const std::uint64_t* words, unsigned width);
  /// Step past a record of `words` words.
  void consume(std::size_t words) {
    pos_ += words;
    ++records_;
  }
  /// Refuses `record` (named for the message) between a source record and its instruction.
  void refuse_after_source(const char* record) const;
  [[noreturn]] void fail_misaligned(const std::uint64_t* addr, std::uint32_t mask, unsigned width) const;
  /// The first thing wrong with an instruction's head (op, width, reserved byte, site, a source before it).
  [[noreturn]] void fail_instr_head(std::uint64_t head) const;
  /// Refuses the source addresses (source_) that do not fit a copy's lanes `addr` (source_problem).
  void check_sources(Op op, unsigned width, const std::uint64_t* addr) const;
  /// Make at least `words` u64 words available at pos_; false if the file ends first.
  bool fill(std::size_t words);
  bool fill_buffer(std::size_t words);
  bool fill_window(std::size_t words);
  /// The current record's 4-byte addresses as 8-byte ones (in wide_);
  /// returns the OR of (addr & mask) over the active lanes (nonzero: misaligned).
  std::uint32_t widen(const std::uint64_t* words, std::uint32_t mask);
  /// Step over `words` words of the current record (an index), refilling as needed.
  void skip_words(std::uint64_t words);
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_truncated(std::size_t need_words) const;

  InputFile file_;
  std::optional<InputFile::Mappable> mapping_;  // set when the file is mapped
  FileWindow window_;
  std::unique_ptr<std::uint64_t[]> buffer_;  // read mode; not zero-filled: every word is read before use
  std::size_t buffer_words_ = 0;             // words the buffer or window holds
  const std::uint64_t* words_ = nullptr;     // the buffer, or the mapped window
  std::size_t pos_ = 0, end_ = 0;  // in words of words_
  std::size_t tail_bytes_ = 0;     // bytes past end_ that do not make a whole word
  bool eof_ = false;
  bool done_ = false;
  bool pending_source_ = false;        // a source record was read; its instruction comes next
  std::uint64_t pending_repeat_ = 0;   // a repeat record's count (0: none); its instruction comes next
  bool keep_repeats_ = false;          // hand a repeated record out once (keep_repeats())
  std::uint64_t repeat_left_ = 0;      // expanding: copies of repeated_ still to hand out
  TraceRecord repeated_;               // expanding: the repeated record (its spans stay valid until the next read)
  std::uint64_t executions_ = 0;
  std::vector<std::uint64_t> source_;  // that record's addresses (copied: the window may move)
  std::uint64_t buffer_offset_ = kBinaryTraceHeaderBytes;  // file offset of words_[0]
  std::uint64_t record_offset_ = kBinaryTraceHeaderBytes;  // file offset of the current record
  std::uint64_t records_ = 0;                              // records read (all kinds)
  std::uint64_t instructions_ = 0;
  unsigned warp_ = 0;
  unsigned address_bytes_ = 8;
  unsigned version_ = kBinaryTraceVersion;
  /// Per op, the widths this file's version allows (allowed_widths; version 1: ld/st of 1..16).
  std::uint32_t widths_by_op_[kOpCount] = {};
  std::vector<std::uint64_t> wide_;  // 4-byte addresses widened, one record at a time
  SiteTable sites_;
  TraceLocation location_;
  bool has_location_ = false;
  std::optional<std::uint64_t> expected_;
  std::uint64_t stop_ = ~std::uint64_t{0};  // resume(): the offset that ends this reader's chunk
  bool index_seen_ = false;                  // version 4: only the end record may follow the index
  std::uint64_t end_record_offset_ = 0;
};

/// Writes the binary format; defines each site the first time it is used.
class BinaryTraceWriter final : public TraceSink {
 public:
  /// @throws std::invalid_argument unless address_bytes is 4 or 8.
  explicit BinaryTraceWriter(OutputFile file, unsigned address_bytes = 8);
  void begin(unsigned warp) override;
  /// @throws std::invalid_argument for a request the format cannot hold
  /// (with 4-byte addresses: an active address above kMaxNarrowAddress).
  void record(std::string_view site, const WarpRequest& request) override { write(site, request, 1); }
  /// One instruction record after a repeat record of `count` (count 1: none).
  /// @throws std::invalid_argument for count 0, or as record().
  void record_repeated(std::string_view site, const WarpRequest& request, std::uint64_t count) override;
  /// Writes a location record when `where` differs from the last one written.
  void location(const TraceLocation& where) override;
  /// @throws std::logic_error when called twice.
  void expect(std::uint64_t records) override;
  /// Writes the index (a trace of at least kTraceIndexEvery instructions)
  /// and the end record.
  void end() override;
  /// Bytes written so far.
  std::uint64_t bytes() const { return bytes_; }

 private:
  void put(const void* data, std::size_t bytes, std::uint64_t records);
  void write(std::string_view site, const WarpRequest& request, std::uint64_t count);
  OutputFile file_;
  std::uint64_t bytes_ = 0, records_ = 0;  // written so far
  std::vector<TraceBookmark> marks_;       // one every kTraceIndexEvery instructions
  unsigned address_bytes_;
  unsigned warp_ = 0;
  std::optional<TraceLocation> last_location_;
  bool expected_written_ = false;
  SiteTable sites_;
  std::uint64_t instructions_ = 0;
  std::uint64_t executions_ = 0;
  std::vector<std::uint64_t> words_;
};

}  // namespace bankcheck
