#include "sim/draw/html_escape.hpp"

#include <doctest/doctest.h>

TEST_CASE("html_escape writes &, <, > and \" as entities and leaves the rest") {
  using bankcheck::html_escape;
  CHECK(html_escape("") == "");
  CHECK(html_escape("tile.column+0x1d0") == "tile.column+0x1d0");
  CHECK(html_escape("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(html_escape("&amp;") == "&amp;amp;");  // escaped once more, never taken as already escaped
  CHECK(html_escape("k.cu:7 'x'") == "k.cu:7 'x'");
}
