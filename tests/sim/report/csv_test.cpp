// sim/report/csv.hpp: RFC 4180 quoting, each character that needs it on its own.
#include "sim/report/csv.hpp"

#include <doctest/doctest.h>

#include <string>

using bankcheck::report::csv_field;

TEST_CASE("csv_field leaves plain text alone, the empty field included") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("") == "");
  CHECK(csv_field("k+0x10 at t.trace:7; tab\there") == "k+0x10 at t.trace:7; tab\there");
}

TEST_CASE("csv_field quotes a comma, a quote, a line feed and a carriage return") {
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"x\"") == "\"say \"\"x\"\"\"");
  CHECK(csv_field("\"") == "\"\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("cr\ronly") == "\"cr\ronly\"");
  CHECK(csv_field("crlf\r\n") == "\"crlf\r\n\"");
}

TEST_CASE("csv_field keeps bytes after a NUL (a view, not a C string)") {
  const std::string with_nul("a\0,b", 4);
  CHECK(csv_field(with_nul) == std::string("\"a\0,b\"", 6));
}
