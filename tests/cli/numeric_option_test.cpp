#include "cli/numeric_option.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace bankcheck::cli;

TEST_CASE("integers: decimal, in range, or an error stating the range") {
  CHECK(parse_integer<std::uint64_t>("--seed", "18446744073709551615", 0, ~std::uint64_t{0}) == ~std::uint64_t{0});
  CHECK(parse_integer<unsigned>("--threads", "1024", 1, 1024) == 1024);
  for (const char* bad : {"-1", "0x10", "+5", " 5", "5 ", "", "1e3", "18446744073709551616"}) {
    CAPTURE(bad);
    try {
      parse_integer<std::uint64_t>("--seed", bad, 0, ~std::uint64_t{0});
      FAIL("accepted");
    } catch (const CLI::ValidationError& e) {
      CHECK(std::string(e.what()) ==
            std::string("--seed: must be an integer in 0..18446744073709551615 (got ") + bad + ")");
    }
  }
  CHECK_THROWS_AS(parse_integer<unsigned>("--threads", "0", 1, 1024), CLI::ValidationError);
  CHECK_THROWS_AS(parse_integer<unsigned>("--threads", "1025", 1, 1024), CLI::ValidationError);
}

TEST_CASE("numbers: finite, in range") {
  CHECK(parse_real("--time-limit", "0.5", 0.001, 10) == 0.5);
  CHECK_THROWS_AS(parse_real("--time-limit", "-1", 0.001, 10), CLI::ValidationError);
  CHECK_THROWS_AS(parse_real("--time-limit", "nan", 0.001, 10), CLI::ValidationError);
  CHECK_THROWS_AS(parse_real("--time-limit", "1s", 0.001, 10), CLI::ValidationError);
}

TEST_CASE("an option parses through the check") {
  CLI::App app;
  std::uint64_t seed = 1;
  add_integer_option<std::uint64_t>(app, "--seed", seed, 0, 100, "seed");
  app.parse(std::vector<std::string>{"7", "--seed"});  // CLI11 takes the arguments reversed
  CHECK(seed == 7);
  CHECK_THROWS_AS(app.parse(std::vector<std::string>{"-1", "--seed"}), CLI::ValidationError);
}
