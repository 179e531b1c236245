#pragma once
// Text for HTML and Graphviz's HTML-like labels: &, <, > and " written as
// entities, so that a site name or a file path can never open a tag. The
// bank grid's labels (sim/draw/bank_grid.cpp) and the report page
// (sim/html) both write it.
#include <string>
#include <string_view>

namespace bankcheck {

inline std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace bankcheck
