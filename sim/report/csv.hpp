#pragma once
// One CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote,
// a line feed or a carriage return (a bare \r would end the row for readers
// that accept either line ending), quotes doubled inside. Every CSV the
// project writes (results, global sections, claim certificates, and the
// capture's tables through capture/host/csv.hpp) quotes its text cells
// through this function. Inline and standard library only, so that the
// injected capture library uses it without linking the report layer.
#include <string>
#include <string_view>

namespace bankcheck::report {

/// "field" or "\"fi,eld\"".
inline std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace bankcheck::report
