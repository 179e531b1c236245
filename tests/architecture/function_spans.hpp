#pragma once
// Where a C++ or CUDA source's function bodies begin and end, by a simple
// brace-matching scan (no parser), for the function-length budget:
//
// 1. Comments, string and character literals (raw ones too) and
//    preprocessor lines are blanked to spaces; newlines and offsets stay.
// 2. Outside any function body, the text since the last ';', '{' or '}' is
//    the header of the next '{'. The '{' opens a function body when the
//    header does not start with namespace, class, struct, union, enum or
//    extern (after a template<...> prefix), and, with its trailing
//    qualifiers (const, noexcept, override, final, mutable, '&', '-> T', a
//    requires-clause) taken off, ends in ')', or in '}' after a
//    constructor's initializer list (') :'). A lambda at namespace scope is such a body;
//    so is a doctest TEST_CASE. Any other '{' (a namespace, a class, an
//    initializer) is entered and its content scanned the same way; a braced
//    initializer (a header that is neither empty nor a scope's) stays part
//    of the header of the '{' after it (a default argument `= {}`, a
//    constructor's `member{value}`).
// 3. A body's length is the number of lines strictly between the line of its
//    '{' and the line of its matching '}', blank and comment lines included;
//    what is nested in it (lambdas, local classes, SUBCASEs) counts toward it.
//
// A function's name is the identifier before the header's last top-level
// '(' (before a constructor's initializer list); a TEST_CASE's is its title.
#include <cctype>
#include <cstddef>
#include <regex>
#include <string>
#include <vector>

namespace bankcheck::architecture {

struct FunctionSpan {
  std::string name;
  std::size_t open_line = 0;   ///< 1-based line of the body's '{'
  std::size_t close_line = 0;  ///< 1-based line of its '}'
  std::size_t body_lines() const { return close_line - open_line - (close_line > open_line ? 1 : 0); }
};

namespace detail {

/// Offset just past the literal or comment starting at `i`, or `i` when none starts there.
inline std::size_t literal_end(const std::string& s, std::size_t i) {
  const std::size_t n = s.size();
  if (s.compare(i, 2, "//") == 0) return std::min(s.find('\n', i), n);
  if (s.compare(i, 2, "/*") == 0) return std::min(s.find("*/", i + 2), n - 2) + 2;
  const bool word_before = i > 0 && (std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_');
  if (s[i] == 'R' && !word_before && i + 1 < n && s[i + 1] == '"') {
    const std::size_t paren = s.find('(', i + 2);
    if (paren == std::string::npos || paren - i > 18) return i;
    const std::string close = ")" + s.substr(i + 2, paren - i - 2) + "\"";
    const std::size_t end = s.find(close, paren);
    return end == std::string::npos ? n : end + close.size();
  }
  if (s[i] != '"' && s[i] != '\'') return i;
  if (s[i] == '\'' && word_before && i + 1 < n && std::isalnum(static_cast<unsigned char>(s[i + 1])))
    return i;  // a digit separator, 1'000
  std::size_t j = i + 1;
  while (j < n && s[j] != s[i] && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
  return std::min(j + 1, n);
}

/// Step 1: the source with comments, literals and preprocessor lines blanked.
inline std::string blank(const std::string& s) {
  std::string out = s;
  bool line_start = true;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t end = i;
    if (line_start && s.find_first_not_of(" \t", i) != std::string::npos && s[s.find_first_not_of(" \t", i)] == '#')
      for (end = i; end < s.size() && s[end] != '\n'; ++end)
        if (s[end] == '\\' && end + 1 < s.size() && s[end + 1] == '\n') ++end;  // a continued directive
    if (end == i) end = literal_end(s, i);
    if (end == i) {
      line_start = s[i] == '\n';
      ++i;
      continue;
    }
    for (std::size_t k = i; k < end && k < s.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
    i = end;
    line_start = false;
  }
  return out;
}

/// The text with every run of white space one space, none at the ends.
inline std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (!space) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

/// Whether a header opens a namespace, class, struct, union, enum or extern "C" block.
inline bool opens_scope(const std::string& header) {
  static const std::regex scope(R"(^(template ?<.*> ?)?(namespace|class|struct|union|enum|extern)\b)");
  return std::regex_search(header, scope);
}

/// Step 2's test of one header (squeezed to single spaces).
inline bool opens_function(const std::string& header) {
  static const std::regex qualifier(
      R"(( ?(const|noexcept|override|final|mutable|volatile|&&|&|try)$)|( ?-> ?[\w:<>, *&]+$)|( ?noexcept ?\([^()]*\)$)|( ?requires\b.*$))");
  static const std::regex initializer_list(R"(\) ?:[^:])");
  if (opens_scope(header)) return false;
  std::string h = header;
  for (std::string prev; prev != h;) prev = h, h = std::regex_replace(h, qualifier, "");
  // A constructor's body follows its initializer list's last ')' or '}'; a '{'
  // right after a member's name (`b_{x}`) is that member's braced initializer.
  return !h.empty() && (h.back() == ')' || (h.back() == '}' && std::regex_search(h, initializer_list)));
}

/// The name of the function a header opens (see the file comment).
inline std::string function_name(const std::string& blanked_header, const std::string& original_header) {
  static const std::regex initializer_list(R"(\) ?:[^:])");
  std::string h = blanked_header;
  if (std::smatch m; std::regex_search(h, m, initializer_list)) h = h.substr(0, m.position(0) + 1);
  std::size_t open = std::string::npos;
  for (std::size_t i = 0, depth = 0; i < h.size(); ++i) {
    if (h[i] == '(' && depth++ == 0) open = i;
    if (h[i] == ')' && depth > 0) --depth;
  }
  if (open == std::string::npos) return "?";
  std::size_t begin = h.find_last_not_of(' ', open - 1);
  const std::size_t last = begin == std::string::npos ? 0 : begin + 1;
  while (begin != std::string::npos && begin > 0 && (std::isalnum(static_cast<unsigned char>(h[begin - 1])) ||
                                                      h[begin - 1] == '_' || h[begin - 1] == ':' || h[begin - 1] == '~'))
    --begin;
  std::string name = begin == std::string::npos ? "?" : h.substr(begin, last - begin);
  if (name.rfind("TEST_CASE", 0) == 0 && original_header.find("TEST_CASE") != std::string::npos) {  // its title
    const std::size_t q = original_header.find('"', original_header.find("TEST_CASE"));
    name += "(" + original_header.substr(q, original_header.find('"', q + 1) - q + 1) + ")";
  }
  return name;
}

}  // namespace detail

/// Steps 2 and 3: every function body of a C++ source's text.
inline std::vector<FunctionSpan> function_spans(const std::string& source) {
  const std::string s = detail::blank(source);
  std::vector<FunctionSpan> spans;
  std::vector<bool> initializer;  // one per open brace: a braced initializer, part of the header that follows
  std::size_t line = 1, header_start = 0, function_depth = 0;
  bool in_function = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\n') ++line;
    if (c == '}' && !initializer.empty()) {
      const bool was_initializer = initializer.back();
      initializer.pop_back();
      if (in_function && initializer.size() == function_depth) in_function = false, spans.back().close_line = line;
      if (!in_function && !was_initializer) header_start = i + 1;
      continue;
    }
    if (in_function) {
      if (c == '{') initializer.push_back(false);
      continue;
    }
    if (c == ';') header_start = i + 1;
    if (c != '{') continue;
    const std::string header = detail::squeeze(s.substr(header_start, i - header_start));
    if (detail::opens_function(header)) {
      const std::string original = detail::squeeze(source.substr(header_start, i - header_start));
      spans.push_back({detail::function_name(header, original), line, 0});
      in_function = true;
      function_depth = initializer.size();
    }
    const bool braced_value = !in_function && !header.empty() && !detail::opens_scope(header);
    initializer.push_back(braced_value);
    if (!braced_value) header_start = i + 1;
  }
  if (in_function) spans.pop_back();  // unbalanced: no end to count to
  return spans;
}

}  // namespace bankcheck::architecture
