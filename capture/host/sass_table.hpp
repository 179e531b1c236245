#pragma once
// The SASS text of each instruction of a capture, OUT/sass.csv
// (function, offset, sass): parsed from `nvdisasm` output (functions open
// with a `.text.NAME:` label) or `cuobjdump -sass` output (`Function :
// NAME`), instructions being `/*OFFSET*/  TEXT ;`. Sites of a captured
// trace are `FUNCTION+0xOFFSET`, so a site's SASS is one lookup.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bankcheck::capture {

struct SassLine {
  std::string function;  ///< mangled name
  std::uint64_t offset = 0;
  std::string text;      ///< the instruction without the trailing ';' (predicate included)
  bool operator==(const SassLine&) const = default;
};

/// Instructions of one disassembly listing (nvdisasm or cuobjdump -sass).
std::vector<SassLine> parse_disassembly(std::string_view listing);

/// The sass.csv header line.
std::string sass_table_header();
/// Rows as sass.csv lines (with the header).
std::string sass_table_text(const std::vector<SassLine>& lines);

/// SASS text by site name ("FUNCTION+0xOFFSET").
class SassTable {
 public:
  /// Read sass.csv. @throws std::invalid_argument naming the file and line for a malformed row.
  static SassTable read(const std::string& path);
  void add(const SassLine& line);
  /// The text at a site, or nullptr.
  const std::string* find(std::string_view site) const;
  /// The text at (function, offset), or nullptr.
  const std::string* find(const std::string& function, std::uint64_t offset) const;
  std::size_t size() const { return by_site_.size(); }

 private:
  std::map<std::pair<std::string, std::uint64_t>, std::string, std::less<>> by_site_;
};

}  // namespace bankcheck::capture
