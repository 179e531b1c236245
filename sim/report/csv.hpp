#pragma once
// One CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote,
// a line feed or a carriage return (a bare \r would end the row for readers
// that accept either line ending), quotes doubled inside. Every CSV the
// library writes (results, global sections, claim certificates) quotes its
// text cells through this function.
#include <string>
#include <string_view>

namespace bankcheck::report {

/// "field" or "\"fi,eld\"".
std::string csv_field(std::string_view text);

}  // namespace bankcheck::report
