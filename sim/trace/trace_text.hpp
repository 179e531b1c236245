#pragma once
// The text trace format (docs/trace-format.md): one warp instruction per
// line,
//     [@site] <ld|st> <width> <addr_0> ... <addr_{warp-1}>
// addresses decimal or 0x-hex byte addresses, '-' for an inactive lane,
// '#' starts a comment, and an optional first line `warp N` (default 32).
// Instructions without @site belong to the site "" (reports print it as
// "(none)").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/trace.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck {

/// Streams a text trace line by line (a fixed-size read buffer; one line at a time).
class TextTraceReader final : public TraceSource {
 public:
  /// Reads the header (comments, blank lines, the optional `warp` line).
  /// @throws TraceError on a bad `warp` line.
  explicit TextTraceReader(InputFile file);

  unsigned warp() const override { return warp_; }
  bool next(TraceRecord& out) override;
  const SiteTable& sites() const override { return sites_; }
  RecordPosition position() const override { return {RecordPosition::Unit::line, line_no_}; }

  /// Line number of the record last returned (1-based).
  std::uint64_t line() const { return line_no_; }

 private:
  /// Next line with its comment stripped, or false at end of file.
  bool read_line(std::string_view& line);
  [[noreturn]] void fail(const std::string& message) const;
  std::uint64_t parse_number(std::string_view token, std::string_view what) const;
  void parse_instruction(std::string_view line, TraceRecord& out);

  InputFile file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes of buffer_
  bool eof_ = false;
  std::string long_line_;            // a line that crossed a buffer refill
  std::uint64_t line_no_ = 0;
  bool pending_ = false;             // the header scan stopped at an instruction line
  std::string pending_line_;
  unsigned warp_ = kDefaultTraceWarp;
  SiteTable sites_;
  std::vector<std::uint64_t> addr_;
};

/// Writes the text format. Site names must be free of whitespace and '#'
/// (the empty site is written without '@').
class TextTraceWriter final : public TraceSink {
 public:
  explicit TextTraceWriter(OutputFile file) : file_(std::move(file)) {}
  void begin(unsigned warp) override;
  /// @throws std::invalid_argument for a site name or request the format cannot hold.
  void record(std::string_view site, const WarpRequest& request) override;
  void end() override;

 private:
  OutputFile file_;
  unsigned warp_ = 0;
  std::string line_;
};

/// Whether `site` can be written as `@site` in a text trace.
bool is_text_site_name(std::string_view site);

}  // namespace bankcheck
