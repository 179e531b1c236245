#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/layout/element_type.hpp"

using namespace bankcheck::layout;

TEST_CASE("element types: names and sizes") {
  CHECK(parse_element_type("fp16").bytes == 2);
  CHECK(parse_element_type("bf16").bytes == 2);
  CHECK(parse_element_type("tf32").bytes == 4);
  CHECK(parse_element_type("f32").bytes == 4);
  CHECK(parse_element_type("fp8").bytes == 1);
  CHECK(parse_element_type("int8").bytes == 1);
  CHECK(parse_element_type("f64").bytes == 8);
  CHECK(parse_element_type("b128").bytes == 16);
  CHECK(parse_element_type("16").bytes == 16);
  CHECK(element_type_of_bits(16).name == "b16");
  CHECK_THROWS_WITH_AS(parse_element_type("fp17"), doctest::Contains("expected one of"), std::invalid_argument);
  CHECK_THROWS_AS(element_type_of_bits(12), std::invalid_argument);
}
