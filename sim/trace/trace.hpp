#pragma once
// An access trace: the stream of warp requests an algorithm issues, each
// tagged with the source site (a name such as "probe" or "merge.read") that
// issued it. Algorithms write traces through TraceSink; replay reads them
// through TraceSource; the text and binary files of docs/trace-format.md are
// one implementation of each.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/warp_request.hpp"
#include "sim/trace/trace_location.hpp"

namespace bankcheck {

/// Site names interned to small ids so records stay cheap to copy.
class SiteTable {
 public:
  std::uint32_t intern(std::string_view name);
  const std::string& name(std::uint32_t id) const { return names_.at(id); }
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

/// One warp instruction of a trace. `request.addr` and `location` stay
/// valid until the source is advanced again (sources reuse their buffers).
struct TraceRecord {
  std::uint32_t site = 0;
  WarpRequest request;
  const TraceLocation* location = nullptr;  ///< where it ran; null in traces without locations
  /// Executions this record stands for: 1, or, from a source asked to keep_repeats(), a repeat
  /// record's count (binary version 5: identical records merged, docs/trace-format.md).
  std::uint64_t repeat = 1;
  /// It came from a repeat record (handed out once with `repeat`, or `repeat` times): its location
  /// is the first execution's only, the others ran elsewhere.
  bool merged = false;
};

/// What every trace writer checks before writing a request: `warp` lanes and
/// a width its op may have. (Addresses are checked where they are written.)
/// @throws std::invalid_argument naming the lane count or the allowed widths.
void check_writable(const WarpRequest& request, unsigned warp);

/// What is wrong with a request's source addresses (WarpRequest::source), or
/// "" when nothing is: only copies carry them, one per lane, inactive
/// exactly where the lane's address is, each a multiple of the width.
std::string source_problem(const WarpRequest& request);

/// Receives a trace as it is produced.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  /// Called once, before any record.
  virtual void begin(unsigned warp) = 0;
  /// @pre request.addr.size() == warp given to begin().
  virtual void record(std::string_view site, const WarpRequest& request) = 0;
  /// The same request executed `count` times (at the location in force, the first execution's).
  /// Sinks that cannot say so write it `count` times. @pre count >= 1
  virtual void record_repeated(std::string_view site, const WarpRequest& request, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) record(site, request);
  }
  /// The location of the records that follow (until the next call). Sinks
  /// that keep no locations ignore it.
  virtual void location(const TraceLocation& where) { (void)where; }
  /// The number of instruction records the producer counted (a capture's
  /// device-side count), written so that a reader can check completeness.
  /// Called at most once, before end(). Sinks that keep no count ignore it.
  virtual void expect(std::uint64_t records) { (void)records; }
  /// Called once after the last record (flushes files).
  virtual void end() {}
};

/// Where a record sits in its file, so a report can point a user at it.
struct RecordPosition {
  enum class Unit : std::uint8_t {
    none,  ///< not from a file (an in-memory trace)
    line,  ///< text traces: 1-based line number
    byte,  ///< binary traces: byte offset of the record
  };
  Unit unit = Unit::none;
  std::uint64_t value = 0;
};

/// Streams a trace; memory use does not grow with its length.
class TraceSource {
 public:
  virtual ~TraceSource() = default;
  virtual unsigned warp() const = 0;
  /// Advance to the next record; false at the end.
  /// @throws TraceError (sim/trace/trace_error.hpp) on malformed input.
  virtual bool next(TraceRecord& out) = 0;
  /// From now on hand out a repeated record once, with its count in TraceRecord::repeat, instead of
  /// `repeat` times (the default, so that a reader that does not multiply still counts every execution).
  /// Sources without repeat records ignore it.
  virtual void keep_repeats() {}
  virtual const SiteTable& sites() const = 0;
  /// The record count the trace declares (its `expect` record), once read;
  /// the source itself refuses a trace whose records do not match it.
  virtual std::optional<std::uint64_t> expected() const { return std::nullopt; }
  /// Where the record last returned by next() is in the file.
  virtual RecordPosition position() const { return {}; }
};

/// An in-memory trace: a sink that keeps every record, and can be replayed.
class TraceBuffer final : public TraceSink {
 public:
  void begin(unsigned warp) override { warp_ = warp; }
  void record(std::string_view site, const WarpRequest& request) override;

  unsigned warp() const { return warp_; }
  std::size_t size() const { return ops_.size(); }
  const SiteTable& sites() const { return sites_; }
  /// The i-th record; its addresses live in this buffer.
  TraceRecord at(std::size_t i) const;

 private:
  unsigned warp_ = 0;
  SiteTable sites_;
  std::vector<std::uint32_t> site_ids_;
  std::vector<Op> ops_;
  std::vector<std::uint8_t> widths_;
  std::vector<std::uint64_t> addrs_;  // warp_ entries per record
  std::vector<std::uint64_t> sources_;        // warp_ entries per record with sources
  std::vector<std::size_t> source_index_;     // per record: its first entry in sources_, or kNoSource
  static constexpr std::size_t kNoSource = ~std::size_t{0};
};

/// A TraceSource over a TraceBuffer (for tests and in-process replay).
class BufferSource final : public TraceSource {
 public:
  explicit BufferSource(const TraceBuffer& buffer) : buffer_(buffer) {}
  unsigned warp() const override { return buffer_.warp(); }
  bool next(TraceRecord& out) override;
  const SiteTable& sites() const override { return buffer_.sites(); }

 private:
  const TraceBuffer& buffer_;
  std::size_t index_ = 0;
};

}  // namespace bankcheck
