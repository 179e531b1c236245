#include "sim/report/source_line.hpp"

#include <charconv>

namespace bankcheck::report {

namespace {

/// Whether `path` is `name`, or ends in "/" + name for a relative name.
bool same_source_file(std::string_view path, std::string_view name) {
  if (name.empty() || path.size() < name.size()) return false;
  if (path.substr(path.size() - name.size()) != name) return false;
  return path.size() == name.size() || (name.front() != '/' && path[path.size() - name.size() - 1] == '/');
}

nlohmann::ordered_json file_line_json(const FileLine& p) { return {{"file", p.file}, {"line", p.line}}; }

}  // namespace

std::string file_line_text(const FileLine& p) { return p.file + ":" + std::to_string(p.line); }

std::string source_text(const SourceLine& s) {
  if (!s.at) return std::string(kNoLineInfo);
  std::string text = file_line_text(*s.at);
  if (s.inlined_at.empty()) return text;
  text += " (inlined at ";
  for (std::size_t i = 0; i < s.inlined_at.size(); ++i) text += (i ? " < " : "") + file_line_text(s.inlined_at[i]);
  return text + ")";
}

nlohmann::ordered_json source_json(const SourceLine& s) {
  nlohmann::ordered_json j;
  j["file"] = s.at ? nlohmann::ordered_json(s.at->file) : nlohmann::ordered_json(nullptr);
  j["line"] = s.at ? nlohmann::ordered_json(s.at->line) : nlohmann::ordered_json(nullptr);
  j["inlined_at"] = nlohmann::ordered_json::array();
  for (const FileLine& p : s.inlined_at) j["inlined_at"].push_back(file_line_json(p));
  j["text"] = source_text(s);
  return j;
}

std::optional<FileLine> parse_file_line(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) return std::nullopt;
  const std::string_view file = text.substr(0, colon), digits = text.substr(colon + 1);
  if (file.find("+0x") != std::string_view::npos) return std::nullopt;  // a site name, FUNCTION+0xOFFSET
  std::uint32_t line = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), line);
  if (r.ec != std::errc{} || r.ptr != digits.data() + digits.size() || line == 0) return std::nullopt;
  return FileLine{std::string(file), line};
}

bool source_matches(const SourceLine& s, const FileLine& wanted) {
  const auto hit = [&](const FileLine& p) { return p.line == wanted.line && same_source_file(p.file, wanted.file); };
  if (s.at && hit(*s.at)) return true;
  for (const FileLine& p : s.inlined_at)
    if (hit(p)) return true;
  return false;
}

}  // namespace bankcheck::report
