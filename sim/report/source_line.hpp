#pragma once
// Where a captured instruction comes from in the program's own source: the
// line info the compiler wrote (nvcc -lineinfo, Triton, CUTLASS headers),
// read by nvdisasm from the cubin. An instruction of an inlined function
// has the line of the access itself and the chain of call sites it was
// inlined at; an instruction without line info is said to have none, never
// given the nearest line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bankcheck::report {

/// One place in a source file.
struct FileLine {
  std::string file;
  std::uint32_t line = 0;
  bool operator==(const FileLine&) const = default;
};

/// An instruction's line info: `at` is where the access is written; `inlined_at` the call sites it
/// was inlined into, innermost first (the last is in the kernel itself). No `at`: the cubin has no
/// line info for the instruction.
struct SourceLine {
  std::optional<FileLine> at;
  std::vector<FileLine> inlined_at;
  bool operator==(const SourceLine&) const = default;
};

inline constexpr std::string_view kNoLineInfo = "no line info";

/// "FILE:LINE".
std::string file_line_text(const FileLine& p);
/// "k.cu:2 (inlined at k.cu:3 < k.cu:9)", or "no line info".
std::string source_text(const SourceLine& s);
/// {"file", "line", "inlined_at": [{"file","line"}...], "text"}: file and line null without line info.
nlohmann::ordered_json source_json(const SourceLine& s);

/// "FILE:LINE" as a user writes it for --site: a file name (or the end of a path) and a line
/// number >= 1; nullopt for anything else (a site name such as FUNCTION+0x1d0).
std::optional<FileLine> parse_file_line(std::string_view text);

/// Whether `wanted` names this instruction: its line or one of the lines it was inlined at, the
/// file matching whole path components from the end ("k.cu" matches "/src/k.cu", not "/src/tk.cu").
bool source_matches(const SourceLine& s, const FileLine& wanted);

}  // namespace bankcheck::report
