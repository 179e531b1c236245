#include "capture/host/sass_table.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>

#include "capture/host/csv.hpp"
#include "capture/host/function_map.hpp"
#include "capture/host/launch_filter.hpp"

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

}  // namespace

std::vector<SassLine> parse_disassembly(std::string_view listing) {
  std::vector<SassLine> out;
  std::string function;
  while (!listing.empty()) {
    const std::size_t nl = listing.find('\n');
    const std::string_view line = listing.substr(0, nl);
    listing = nl == std::string_view::npos ? std::string_view{} : listing.substr(nl + 1);
    const std::string_view t = trim(line);
    // nvdisasm: ".text.NAME:" opens a function's code.
    if (t.size() > 7 && t.substr(0, 6) == ".text." && t.back() == ':') {
      function = std::string(t.substr(6, t.size() - 7));
      continue;
    }
    // cuobjdump -sass: "Function : NAME".
    if (const std::size_t at = t.find("Function : "); at != std::string_view::npos && t.substr(0, at).find_first_not_of(' ') == std::string_view::npos) {
      function = std::string(trim(t.substr(at + 11)));
      continue;
    }
    std::uint64_t offset = 0;
    std::string text;
    if (!function.empty() && instruction_line(line, offset, text)) out.push_back({function, offset, std::move(text)});
  }
  return out;
}

std::string sass_table_header() { return "function,offset,sass\n"; }

std::string sass_table_text(const std::vector<SassLine>& lines) {
  std::string text = sass_table_header();
  char hex[24];
  for (const SassLine& l : lines) {
    const auto r = std::to_chars(hex, hex + sizeof hex, l.offset, 16);
    text += csv_line({l.function, "0x" + std::string(hex, r.ptr), l.text});
  }
  return text;
}

SassTable SassTable::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  SassTable table;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line + "\n" != sass_table_header())
        throw std::invalid_argument(path + ":1: not a sass table (expected header 'function,offset,sass')");
      continue;
    }
    if (line.empty()) continue;
    try {
      const auto f = parse_csv_line(line);
      if (f.size() != 3) throw std::invalid_argument("expected 3 fields, got " + std::to_string(f.size()));
      const auto site = parse_site_name(f[0] + "+" + f[1]);
      if (!site) throw std::invalid_argument("bad offset '" + f[1] + "' (expected 0x-hex)");
      table.add({f[0], site->offset, f[2]});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return table;
}

void SassTable::add(const SassLine& line) { by_site_[{line.function, line.offset}] = line.text; }

const std::string* SassTable::find(const std::string& function, std::uint64_t offset) const {
  auto it = by_site_.find(std::make_pair(function, offset));
  return it == by_site_.end() ? nullptr : &it->second;
}

const std::string* SassTable::find(std::string_view site) const {
  const auto ref = parse_site_name(site);
  return ref ? find(ref->function, ref->offset) : nullptr;
}

}  // namespace bankcheck::capture
