#include "sim/trace/trace_text.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "sim/trace/request_input.hpp"

namespace bankcheck {
namespace {

constexpr std::size_t kReadChunk = 1 << 16;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Splits a line into whitespace-separated tokens without copying.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : rest_(line) {}
  bool next(std::string_view& token) {
    std::size_t i = 0;
    while (i < rest_.size() && is_space(rest_[i])) ++i;
    if (i == rest_.size()) return false;
    std::size_t j = i;
    while (j < rest_.size() && !is_space(rest_[j])) ++j;
    token = rest_.substr(i, j - i);
    rest_ = rest_.substr(j);
    return true;
  }

 private:
  std::string_view rest_;
};

/// A token as it appears in a message: printable, and not too long.
std::string quoted(std::string_view token) {
  std::string out = "'";
  for (char c : token.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  if (token.size() > 40) out += "...";
  return out + "'";
}

std::string hex(std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, r.ptr);
}

}  // namespace

bool is_text_site_name(std::string_view site) {
  return std::none_of(site.begin(), site.end(), [](char c) {
    return is_space(c) || c == '\n' || c == '#' || c == '\0';
  });
}

TextTraceReader::TextTraceReader(InputFile file) : file_(std::move(file)), buffer_(kReadChunk) {
  std::string_view line;
  while (read_line(line)) {
    Tokens tokens(line);
    std::string_view first;
    if (!tokens.next(first)) continue;  // blank or comment-only
    if (first == "warp") {
      std::string_view value, extra;
      if (!tokens.next(value)) fail("bad warp line: expected 'warp N' with N in 1.." + std::to_string(kMaxTraceWarp));
      const std::uint64_t n = parse_number(value, "the warp size");
      if (n < 1 || n > kMaxTraceWarp)
        fail("bad warp line: warp size must be in 1.." + std::to_string(kMaxTraceWarp) + " (got " +
             std::to_string(n) + ")");
      if (tokens.next(extra)) fail("bad warp line: unexpected " + quoted(extra) + " after the warp size");
      warp_ = static_cast<unsigned>(n);
    } else {
      pending_ = true;
      pending_line_.assign(line);
    }
    break;
  }
  addr_.resize(warp_);
}

void TextTraceReader::fail(const std::string& message) const {
  throw TraceError::at_line(file_.name(), line_no_, message);
}

bool TextTraceReader::read_line(std::string_view& line) {
  // Bound on one line: generous for `warp` addresses of 20 digits each plus
  // padding, so a file without newlines cannot make memory grow without end.
  const std::size_t max_line = 65536 + std::size_t{64} * warp_;
  long_line_.clear();
  for (;;) {
    const char* base = buffer_.data();
    const void* nl = begin_ < end_ ? std::memchr(base + begin_, '\n', end_ - begin_) : nullptr;
    if (nl != nullptr) {
      const std::size_t pos = static_cast<const char*>(nl) - base;
      std::string_view piece(base + begin_, pos - begin_);
      begin_ = pos + 1;
      if (!long_line_.empty()) {
        long_line_.append(piece);
        line = long_line_;
      } else {
        line = piece;
      }
      break;
    }
    // No newline in the buffer: keep the partial line and refill.
    long_line_.append(base + begin_, end_ - begin_);
    begin_ = end_ = 0;
    if (long_line_.size() > max_line) {
      ++line_no_;
      fail("line longer than " + std::to_string(max_line) + " bytes");
    }
    if (eof_) {
      if (long_line_.empty()) return false;
      line = long_line_;  // last line without a newline
      break;
    }
    end_ = file_.read(buffer_.data(), buffer_.size());
    if (end_ < buffer_.size()) eof_ = true;
  }
  ++line_no_;
  if (line.size() > max_line) fail("line longer than " + std::to_string(max_line) + " bytes");
  if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  return true;
}

std::uint64_t TextTraceReader::parse_number(std::string_view token, std::string_view what) const {
  if (token.size() > 1 && token[0] == '-' && (token[1] >= '0' && token[1] <= '9'))
    fail("negative number " + quoted(token) + " for " + std::string(what));
  if (token.size() > 1 && token[0] == '+') fail("garbage token " + quoted(token) + " for " + std::string(what) +
                                               " (expected a decimal or 0x-hex number)");
  int base = 10;
  std::string_view digits = token;
  if (token.size() >= 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    base = 16;
    digits = token.substr(2);
  }
  std::uint64_t value = 0;
  const char* first = digits.data();
  const char* last = digits.data() + digits.size();
  const auto r = std::from_chars(first, last, value, base);
  if (digits.empty() || r.ptr != last || (r.ec != std::errc{} && r.ec != std::errc::result_out_of_range))
    fail("garbage token " + quoted(token) + " for " + std::string(what) + " (expected a decimal or 0x-hex number)");
  if (r.ec == std::errc::result_out_of_range)
    fail("number " + quoted(token) + " for " + std::string(what) + " is out of range (more than 2^64-1)");
  return value;
}

Op TextTraceReader::parse_op(std::string_view token) const {
  if (const auto op = op_from_name(token)) return *op;
  if (token == "warp") fail("a 'warp' line must come first, before any instruction");
  fail("unknown op " + quoted(token) + " (expected ld, st, atom, ldsm, stsm, cpasync, gld, gst or gatom)");
}

unsigned TextTraceReader::parse_width(std::string_view token, Op op) const {
  const std::string widths = allowed_widths_text(op);
  const std::uint64_t width = parse_number(token, "the width");
  if (!is_valid_access(op, width > 16 ? 0u : static_cast<unsigned>(width)))
    fail("width " + quoted(token) + " is not one of " + std::string(widths) + " (op " + std::string(op_name(op)) + ")");
  return static_cast<unsigned>(width);
}

void TextTraceReader::start_sources(Op op, std::uint64_t lanes, bool from) {
  if (from) fail("a second 'from'");
  if (!has_source(op))
    fail("'from' (source addresses) is only for cpasync and cpasync.cg, not " + std::string(op_name(op)));
  if (lanes != warp_)
    fail("wrong lane count: expected " + std::to_string(warp_) + " addresses (warp " + std::to_string(warp_) +
         ") before 'from', got " + std::to_string(lanes));
  source_.assign(warp_, kInactive);
}

std::uint64_t TextTraceReader::parse_lane(std::string_view token, bool from, std::uint64_t lane, unsigned width) const {
  if (from && token == "z") return kZeroFill;  // a copy lane that reads nothing and writes zeros
  if (token == "-") return kInactive;
  const std::string what = (from ? "the source address of lane " : "the address of lane ") + std::to_string(lane);
  const std::uint64_t a = parse_number(token, what);
  if (a == kInactive) fail(hex(a) + " for " + what + " is reserved (it marks an inactive lane; write '-')");
  if (a == kZeroFill) fail(hex(a) + " for " + what + " is reserved (it marks a zero-filling source; write 'z')");
  if (!is_aligned_access(a, width))
    fail("misaligned address " + quoted(token) + " for " + what + ": not a multiple of " +
         std::to_string(access_alignment(width)) + " (width " + std::to_string(width) + ")");
  return a;
}

void TextTraceReader::parse_instruction(std::string_view line, TraceRecord& out) {
  Tokens tokens(line);
  std::string_view token;
  tokens.next(token);  // the caller checked the line is not blank
  std::string_view site;
  if (token[0] == '@') {
    site = token.substr(1);
    if (site.empty()) fail("empty site name after '@'");
    if (!tokens.next(token)) fail("missing op after site " + quoted(site) + " (expected ld or st)");
  }
  out.request.op = parse_op(token);
  if (!tokens.next(token)) fail("missing width (expected " + std::string(allowed_widths_text(out.request.op)) + ")");
  out.request.width = parse_width(token, out.request.op);

  std::uint64_t lanes = 0;
  bool from = false;  // `from` seen: the copy's source addresses follow
  while (tokens.next(token)) {
    if (token == "from") {
      start_sources(out.request.op, lanes, from);
      from = true;
      lanes = 0;
      continue;
    }
    const std::uint64_t a = parse_lane(token, from, lanes, out.request.width);
    if (lanes < warp_) (from ? source_ : addr_)[lanes] = a;
    ++lanes;
  }
  if (lanes != warp_)
    fail("wrong lane count: expected " + std::to_string(warp_) + (from ? " source addresses" : " addresses") +
         " (warp " + std::to_string(warp_) + "), got " + std::to_string(lanes));
  out.site = sites_.intern(site);
  out.request.addr = std::span<const std::uint64_t>(addr_.data(), warp_);
  out.request.source = from ? std::span<const std::uint64_t>(source_.data(), warp_) : std::span<const std::uint64_t>{};
  if (from)
    if (const std::string p = source_problem(out.request); !p.empty()) fail(p);
  out.location = has_location_ ? &location_ : nullptr;
  ++instructions_;
}

void TextTraceReader::parse_location(std::string_view line) {
  // at launch=L block=X,Y,Z warp=W
  Tokens tokens(line);
  std::string_view token;
  tokens.next(token);  // "at"
  const char* form = "expected 'at launch=L block=X,Y,Z warp=W'";
  auto field = [&](std::string_view key) {
    if (!tokens.next(token) || token.substr(0, key.size()) != key) fail("bad at line: " + std::string(form));
    return token.substr(key.size());
  };
  TraceLocation where;
  where.launch = parse_number(field("launch="), "the launch");
  std::string_view block = field("block=");
  for (unsigned axis = 0; axis < 3; ++axis) {
    const std::size_t comma = block.find(',');
    if ((axis < 2) != (comma != std::string_view::npos)) fail("bad at line: " + std::string(form));
    const std::string what = std::string("block ") + "xyz"[axis];
    const std::uint64_t v = parse_number(block.substr(0, comma), what);
    if (v > 0xFFFFFFFFu) fail(what + " " + std::to_string(v) + " is out of range (at most 2^32-1)");
    where.block[axis] = static_cast<std::uint32_t>(v);
    block = comma == std::string_view::npos ? std::string_view{} : block.substr(comma + 1);
  }
  const std::uint64_t warp = parse_number(field("warp="), "the warp");
  if (warp > 0xFFFFFFFFu) fail("warp " + std::to_string(warp) + " is out of range (at most 2^32-1)");
  where.warp = static_cast<std::uint32_t>(warp);
  if (tokens.next(token)) fail("bad at line: unexpected " + quoted(token) + " (" + form + ")");
  location_ = where;
  has_location_ = true;
}

void TextTraceReader::parse_expect(std::string_view line) {
  Tokens tokens(line);
  std::string_view token;
  tokens.next(token);  // "expect"
  if (expected_) fail("a second expect line (at most one per trace; the first is line " + std::to_string(expect_line_) + ")");
  if (!tokens.next(token)) fail("bad expect line: expected 'expect N'");
  expected_ = parse_number(token, "the expected record count");
  expect_line_ = line_no_;
  if (tokens.next(token)) fail("bad expect line: unexpected " + quoted(token));
}

bool TextTraceReader::parse_directive(std::string_view line) {
  Tokens tokens(line);
  std::string_view first;
  tokens.next(first);
  if (first == "at") {
    parse_location(line);
    return true;
  }
  if (first == "expect") {
    parse_expect(line);
    return true;
  }
  return false;
}

void TextTraceReader::check_expected() const {
  if (expected_ && *expected_ != instructions_)
    throw TraceError::at_line(file_.name(), expect_line_,
                              "expected " + std::to_string(*expected_) + " records (the producer's count), read " +
                                  std::to_string(instructions_) + ": the trace is incomplete");
}

bool TextTraceReader::next(TraceRecord& out) {
  if (pending_) {
    pending_ = false;
    if (!parse_directive(pending_line_)) {
      parse_instruction(pending_line_, out);
      return true;
    }
  }
  std::string_view line;
  while (read_line(line)) {
    Tokens tokens(line);
    std::string_view first;
    if (!tokens.next(first)) continue;
    if (parse_directive(line)) continue;
    parse_instruction(line, out);
    return true;
  }
  check_expected();
  return false;
}

void TextTraceWriter::begin(unsigned warp) {
  if (warp < 1 || warp > kMaxTraceWarp)
    throw std::invalid_argument("warp size must be in 1.." + std::to_string(kMaxTraceWarp) + " (got " +
                                std::to_string(warp) + ")");
  warp_ = warp;
  const std::string header = "warp " + std::to_string(warp) + "\n";
  file_.write(header.data(), header.size());
}

void TextTraceWriter::record(std::string_view site, const WarpRequest& request) {
  check_writable(request, warp_);
  if (!is_text_site_name(site))
    throw std::invalid_argument("site name " + quoted(site) +
                                " cannot be written to a text trace (no whitespace or '#' allowed)");
  line_.clear();
  if (!site.empty()) {
    line_ += '@';
    line_.append(site);
    line_ += ' ';
  }
  line_ += op_name(request.op);
  line_ += ' ';
  line_ += std::to_string(request.width);
  // One token per lane, `-` for an idle one: the addresses, then a copy's sources.
  auto append_lanes = [&](std::span<const std::uint64_t> lanes) {
    char buf[24];
    for (std::uint64_t a : lanes) {
      line_ += ' ';
      if (a == kInactive) {
        line_ += '-';
        continue;
      }
      if (a == kZeroFill && lanes.data() == request.source.data()) {
        line_ += 'z';
        continue;
      }
      if (!is_aligned_access(a, request.width))
        throw std::invalid_argument("address " + std::to_string(a) + " is not a multiple of " +
                                    std::to_string(access_alignment(request.width)) + " (width " +
                                    std::to_string(request.width) + ")");
      auto r = std::to_chars(buf, buf + sizeof buf, a);
      line_.append(buf, r.ptr);
    }
  };
  append_lanes(request.addr);
  if (!request.source.empty()) {
    line_ += " from";
    append_lanes(request.source);
  }
  line_ += '\n';
  file_.write(line_.data(), line_.size());
}

void TextTraceWriter::location(const TraceLocation& where) {
  if (last_location_ && *last_location_ == where) return;
  const std::string line = "at launch=" + std::to_string(where.launch) + " block=" + std::to_string(where.block[0]) +
                           "," + std::to_string(where.block[1]) + "," + std::to_string(where.block[2]) +
                           " warp=" + std::to_string(where.warp) + "\n";
  file_.write(line.data(), line.size());
  last_location_ = where;
}

void TextTraceWriter::expect(std::uint64_t records) {
  const std::string line = "expect " + std::to_string(records) + "\n";
  file_.write(line.data(), line.size());
}

void TextTraceWriter::end() { file_.close(); }

}  // namespace bankcheck
