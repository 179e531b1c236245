#pragma once
// The text trace format (docs/trace-format.md): one warp instruction per
// line,
//     [@site] <op> <width> <addr_0> ... <addr_{warp-1}>
// op one of ld, st, atom, ldsm, stsm, cpasync; addresses decimal or 0x-hex
// byte addresses, '-' for an inactive lane, '#' starts a comment, and an
// optional first line `warp N` (default 32). Captured traces add
//     at launch=L block=X,Y,Z warp=W     (the location of what follows)
//     expect N                           (the producer's record count)
// Instructions without @site belong to the site "" (reports print it as
// "(none)").
#include <cstdint>
#include <optional>
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
  std::optional<std::uint64_t> expected() const override { return expected_; }
  RecordPosition position() const override { return {RecordPosition::Unit::line, line_no_}; }

  /// Line number of the record last returned (1-based).
  std::uint64_t line() const { return line_no_; }

 private:
  /// Next line with its comment stripped, or false at end of file.
  bool read_line(std::string_view& line);
  [[noreturn]] void fail(const std::string& message) const;
  std::uint64_t parse_number(std::string_view token, std::string_view what) const;
  void parse_instruction(std::string_view line, TraceRecord& out);
  // parse_instruction's steps: the op, the width, a 'from' token, one lane's address.
  Op parse_op(std::string_view token) const;
  unsigned parse_width(std::string_view token, Op op) const;
  void start_sources(Op op, std::uint64_t lanes, bool from);
  std::uint64_t parse_lane(std::string_view token, bool from, std::uint64_t lane, unsigned width) const;
  /// An `at` line: sets location_.
  void parse_location(std::string_view line);
  /// An `expect` line: sets expected_.
  void parse_expect(std::string_view line);
  /// Handles a non-instruction line (at, expect); false for an instruction line.
  bool parse_directive(std::string_view line);
  /// At the end of the file: the expect line, if any, must match.
  void check_expected() const;

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
  std::vector<std::uint64_t> source_;  // a copy's `from` addresses
  std::uint64_t instructions_ = 0;
  TraceLocation location_;
  bool has_location_ = false;
  std::optional<std::uint64_t> expected_;
  std::uint64_t expect_line_ = 0;
};

/// Writes the text format. Site names must be free of whitespace and '#'
/// (the empty site is written without '@').
class TextTraceWriter final : public TraceSink {
 public:
  explicit TextTraceWriter(OutputFile file) : file_(std::move(file)) {}
  void begin(unsigned warp) override;
  /// @throws std::invalid_argument for a site name or request the format cannot hold.
  void record(std::string_view site, const WarpRequest& request) override;
  /// Writes an `at` line when `where` differs from the last one written.
  void location(const TraceLocation& where) override;
  void expect(std::uint64_t records) override;
  void end() override;

 private:
  OutputFile file_;
  unsigned warp_ = 0;
  std::string line_;
  std::optional<TraceLocation> last_location_;
};

/// Whether `site` can be written as `@site` in a text trace.
bool is_text_site_name(std::string_view site);

}  // namespace bankcheck
