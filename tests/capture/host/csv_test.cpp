// Tests of capture/host/csv.hpp: fields quoted only when they need it, and
// lines split back into the same fields (RFC 4180's quoting).
#include "capture/host/csv.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace bankcheck::capture;

TEST_CASE("csv fields and lines") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(parse_csv_line("a,\"b,c\",\"d \"\"e\"\"\",\r") == std::vector<std::string>{"a", "b,c", "d \"e\"", ""});
  CHECK_THROWS_AS(parse_csv_line("\"open"), std::invalid_argument);
}

TEST_CASE("a line quotes the fields that hold a separator, a quote, a newline or a carriage return") {
  // RFC 4180, section 2, rules 6 and 7.
  CHECK(csv_field("a\nb") == "\"a\nb\"");
  CHECK(csv_field("a\rb") == "\"a\rb\"");
  CHECK(csv_field("") == "");
  CHECK(csv_line({"a", "b,c", ""}) == "a,\"b,c\",\n");
  CHECK(csv_line({}) == "\n");
  const std::vector<std::string> fields{"f", "x,y", "say \"hi\"", "", "tail"};
  std::string line = csv_line(fields);
  line.pop_back();  // the '\n' that ends it
  CHECK(parse_csv_line(line) == fields);
}
