#include "capture/host/sass/sass_table.hpp"

#include <charconv>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "capture/host/csv.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/launch/launch_filter.hpp"

namespace bankcheck::capture {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// "/*0a30*/  TEXT ;  /* 0x... */" -> offset and TEXT.
bool instruction_line(std::string_view line, std::uint64_t& offset, std::string& text) {
  line = trim(line);
  if (line.size() < 5 || line.substr(0, 2) != "/*") return false;
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos) return false;
  const std::string_view digits = line.substr(2, close - 2);
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), offset, 16);
  if (digits.empty() || r.ec != std::errc{} || r.ptr != digits.data() + digits.size()) return false;
  std::string_view rest = line.substr(close + 2);
  const std::size_t semicolon = rest.find(';');
  if (semicolon == std::string_view::npos) return false;
  text = std::string(trim(rest.substr(0, semicolon)));
  return !text.empty();
}

/// `"FILE", line N` at the start of `s`; advances `s` past it.
std::optional<report::FileLine> quoted_file_line(std::string_view& s) {
  if (s.empty() || s.front() != '"') return std::nullopt;
  const std::size_t close = s.find('"', 1);
  if (close == std::string_view::npos || s.substr(close + 1, 7) != ", line ") return std::nullopt;
  report::FileLine p{std::string(s.substr(1, close - 1)), 0};
  const char* digits = s.data() + close + 8;
  const auto r = std::from_chars(digits, s.data() + s.size(), p.line);
  if (r.ec != std::errc{}) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
  return p;
}

/// nvdisasm -gi's `//## File "F", line L[ inlined at "G", line M]`: the place and where it was inlined.
struct LineComment {
  report::FileLine at;
  std::optional<report::FileLine> inlined_at;
};
std::optional<LineComment> line_comment(std::string_view t) {
  constexpr std::string_view kPrefix = "//## File ";
  if (t.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  t.remove_prefix(kPrefix.size());
  auto at = quoted_file_line(t);
  if (!at) return std::nullopt;
  LineComment c{*at, std::nullopt};
  constexpr std::string_view kInlined = " inlined at ";
  if (t.substr(0, kInlined.size()) == kInlined) {
    t.remove_prefix(kInlined.size());
    c.inlined_at = quoted_file_line(t);
  }
  return c;
}

/// A run of line comments before an instruction: the first is the access's own line, each
/// "inlined at" one call site further out (DWARF's line table: it holds until the next run).
report::SourceLine source_of(const std::vector<LineComment>& run) {
  report::SourceLine s;
  if (run.empty() || run.front().at.line == 0) return s;  // line 0: the compiler's "no line"
  s.at = run.front().at;
  for (const LineComment& c : run)
    if (c.inlined_at) s.inlined_at.push_back(*c.inlined_at);
  return s;
}

std::string inlined_text(const std::vector<report::FileLine>& chain) {
  std::string text;
  for (const auto& p : chain) text += (text.empty() ? "" : " < ") + report::file_line_text(p);
  return text;
}

/// The inlined_at column back: "F:L < G:M".
std::vector<report::FileLine> parse_inlined(std::string_view text) {
  std::vector<report::FileLine> out;
  while (!text.empty()) {
    const std::size_t sep = text.find(" < ");
    const auto p = report::parse_file_line(text.substr(0, sep));
    if (!p) throw std::invalid_argument("bad inlined_at entry '" + std::string(text.substr(0, sep)) + "' (FILE:LINE)");
    out.push_back(*p);
    text = sep == std::string_view::npos ? std::string_view{} : text.substr(sep + 3);
  }
  return out;
}

/// Columns 3-5 of a version 2 row: file, line (both empty: no line info), inlined_at.
report::SourceLine parse_source_columns(const std::vector<std::string>& f) {
  report::SourceLine s;
  if (f[3].empty() && f[4].empty()) return s;
  const auto p = report::parse_file_line(f[3] + ":" + f[4]);
  if (!p) throw std::invalid_argument("bad file/line '" + f[3] + "', '" + f[4] + "' (a file and a line >= 1)");
  s.at = *p;
  s.inlined_at = parse_inlined(f[5]);
  return s;
}

}  // namespace

std::vector<SassLine> parse_disassembly(std::string_view listing) {
  std::vector<SassLine> out;
  std::string function;
  std::vector<LineComment> run;
  report::SourceLine current;
  while (!listing.empty()) {
    const std::size_t nl = listing.find('\n');
    const std::string_view line = listing.substr(0, nl);
    listing = nl == std::string_view::npos ? std::string_view{} : listing.substr(nl + 1);
    const std::string_view t = trim(line);
    // nvdisasm: ".text.NAME:" opens a function's code.
    if (t.size() > 7 && t.substr(0, 6) == ".text." && t.back() == ':') {
      function = std::string(t.substr(6, t.size() - 7));
      run.clear();
      current = {};
      continue;
    }
    if (auto c = line_comment(t)) {
      run.push_back(std::move(*c));
      continue;
    }
    // cuobjdump -sass: "Function : NAME".
    if (const std::size_t at = t.find("Function : "); at != std::string_view::npos && t.substr(0, at).find_first_not_of(' ') == std::string_view::npos) {
      function = std::string(trim(t.substr(at + 11)));
      run.clear();
      current = {};
      continue;
    }
    std::uint64_t offset = 0;
    std::string text;
    if (function.empty() || !instruction_line(line, offset, text)) continue;
    if (!run.empty()) current = source_of(run), run.clear();
    out.push_back({function, offset, std::move(text), current});
  }
  return out;
}

std::string sass_table_header() { return "function,offset,sass,file,line,inlined_at\n"; }
std::string sass_table_header_v1() { return "function,offset,sass\n"; }

std::string sass_table_text(const std::vector<SassLine>& lines) {
  std::string text = sass_table_header();
  char hex[24];
  for (const SassLine& l : lines) {
    const auto r = std::to_chars(hex, hex + sizeof hex, l.offset, 16);
    const auto& at = l.source.at;
    text += csv_line({l.function, "0x" + std::string(hex, r.ptr), l.text, at ? at->file : "",
                      at ? std::to_string(at->line) : "", inlined_text(l.source.inlined_at)});
  }
  return text;
}

SassTable SassTable::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  SassTable table;
  std::string line;
  std::size_t number = 0, fields = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      fields = line + "\n" == sass_table_header() ? 6 : line + "\n" == sass_table_header_v1() ? 3 : 0;
      if (fields == 0)
        throw std::invalid_argument(path + ":1: not a sass table (expected header 'function,offset,sass,file,line,"
                                           "inlined_at', or version 1's 'function,offset,sass')");
      continue;
    }
    if (line.empty()) continue;
    try {
      const auto f = parse_csv_line(line);
      if (f.size() != fields)
        throw std::invalid_argument("expected " + std::to_string(fields) + " fields, got " + std::to_string(f.size()));
      const auto site = parse_site_name(f[0] + "+" + f[1]);
      if (!site) throw std::invalid_argument("bad offset '" + f[1] + "' (expected 0x-hex)");
      table.add({f[0], site->offset, f[2], fields == 6 ? parse_source_columns(f) : report::SourceLine{}});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return table;
}

void SassTable::add(const SassLine& line) {
  const auto [it, fresh] = by_site_.try_emplace({line.function, line.offset}, Entry{line.text, line.source});
  if (fresh) return;
  it->second.text_ambiguous |= it->second.text != line.text;
  it->second.source_ambiguous |= !(it->second.source == line.source);
}

std::vector<std::string> SassTable::ambiguous_functions() const {
  std::vector<std::string> out;
  for (const auto& [key, entry] : by_site_)
    if ((entry.text_ambiguous || entry.source_ambiguous) && (out.empty() || out.back() != key.first))
      out.push_back(key.first);
  return out;
}

const std::string* SassTable::find(const std::string& function, std::uint64_t offset) const {
  auto it = by_site_.find(std::make_pair(function, offset));
  return it == by_site_.end() || it->second.text_ambiguous ? nullptr : &it->second.text;
}

const report::SourceLine* SassTable::source(const std::string& function, std::uint64_t offset) const {
  auto it = by_site_.find(std::make_pair(function, offset));
  return it == by_site_.end() || it->second.source_ambiguous ? nullptr : &it->second.source;
}

const report::SourceLine* SassTable::source(std::string_view site) const {
  const auto ref = parse_site_name(site);
  return ref ? source(ref->function, ref->offset) : nullptr;
}

std::vector<std::string> SassTable::sites_at(const report::FileLine& wanted) const {
  std::vector<std::string> out;
  for (const auto& [key, entry] : by_site_)
    if (!entry.source_ambiguous && report::source_matches(entry.source, wanted)) out.push_back(site_name(key.first, key.second));
  return out;
}

const std::string* SassTable::find(std::string_view site) const {
  const auto ref = parse_site_name(site);
  return ref ? find(ref->function, ref->offset) : nullptr;
}

}  // namespace bankcheck::capture
