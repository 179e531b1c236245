#pragma once
// The SASS text and source line of each instruction of a capture,
// OUT/sass.csv (function, offset, sass, file, line, inlined_at): parsed from
// `nvdisasm -gi` output (functions open with a `.text.NAME:` label, line
// info comes as `//## File "F", line L inlined at "G", line M` comments
// before the instructions it covers) or `cuobjdump -sass` output
// (`Function : NAME`, no line info), instructions being
// `/*OFFSET*/  TEXT ;`. Sites of a captured trace are `FUNCTION+0xOFFSET`,
// so a site's SASS and line are one lookup.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/report/source_line.hpp"

namespace bankcheck::capture {

struct SassLine {
  std::string function;  ///< mangled name
  std::uint64_t offset = 0;
  std::string text;      ///< the instruction without the trailing ';' (predicate included)
  report::SourceLine source;  ///< its line info (none: the cubin has none for it, or cuobjdump listed it)
  bool operator==(const SassLine&) const = default;
};

/// Instructions of one disassembly listing (nvdisasm or cuobjdump -sass).
std::vector<SassLine> parse_disassembly(std::string_view listing);

/// The sass.csv header line: version 2, with each instruction's line info.
std::string sass_table_header();
/// Version 1's header (function, offset, sass), still read: its rows have no line info.
std::string sass_table_header_v1();
/// Rows as sass.csv lines (with the header).
std::string sass_table_text(const std::vector<SassLine>& lines);

/// SASS text by site name ("FUNCTION+0xOFFSET").
class SassTable {
 public:
  /// Read sass.csv (version 1 or 2). @throws std::invalid_argument naming the file and line for a malformed row.
  static SassTable read(const std::string& path);
  void add(const SassLine& line);
  /// The text at a site, or nullptr (also where two listings disagree on it).
  const std::string* find(std::string_view site) const;
  /// The text at (function, offset), or nullptr.
  const std::string* find(const std::string& function, std::uint64_t offset) const;
  /// The line info at a site, or nullptr when the table does not have the site.
  const report::SourceLine* source(std::string_view site) const;
  const report::SourceLine* source(const std::string& function, std::uint64_t offset) const;
  /// The sites whose line info names `wanted` (report::source_matches), in site order.
  std::vector<std::string> sites_at(const report::FileLine& wanted) const;
  std::size_t size() const { return by_site_.size(); }
  /// Functions with a site that two listings give different SASS text or line info.
  std::vector<std::string> ambiguous_functions() const;

 private:
  /// Sites are named by function, not module: two modules may define one
  /// name with different code (Triton compiles a kernel once per dtype under
  /// one name). Such a site's text or line is unknown, never the last one read.
  struct Entry {
    std::string text;
    report::SourceLine source;
    bool text_ambiguous = false;
    bool source_ambiguous = false;
  };
  std::map<std::pair<std::string, std::uint64_t>, Entry, std::less<>> by_site_;
};

}  // namespace bankcheck::capture
