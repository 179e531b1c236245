// Tests of cli/options.hpp: integers are decimal and range-checked with the
// range in the message; option names; the model flags' combinations.
#include "cli/options.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <limits>
#include <stdexcept>

using namespace bankcheck::cli;

TEST_CASE("parse_integer: decimal only, in range, or an error stating the range") {
  constexpr auto u64max = std::numeric_limits<std::uint64_t>::max();
  CHECK(parse_integer<std::uint64_t>("0", "--seed", 0, u64max) == 0);
  CHECK(parse_integer<std::uint64_t>("18446744073709551615", "--seed", 0, u64max) == u64max);
  CHECK(parse_integer<std::uint64_t>("010", "--seed", 0, u64max) == 10);  // decimal, not octal
  CHECK(parse_integer<std::int64_t>("-5", "K", -10, 10) == -5);
  CHECK(parse_integer<unsigned>("32", "--warp", 1, 65536) == 32);
  struct Bad {
    const char* text;
  };
  for (const char* text : {"-1", "+1", "0x10", "", " 1", "1 ", "1e3", "18446744073709551616", "abc", "3.0"}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse_integer<std::uint64_t>(text, "--seed", 0, u64max),
                         ("--seed: must be an integer in 0..18446744073709551615 (got " + std::string(text) + ")").c_str(),
                         std::invalid_argument);
  }
  for (const char* text : {"0", "65537", "-1", "4294967328"}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse_integer<unsigned>(text, "--warp", 1, 65536),
                         ("--warp: must be an integer in 1..65536 (got " + std::string(text) + ")").c_str(),
                         std::invalid_argument);
  }
}

TEST_CASE("option_label prefers the long name") {
  CHECK(option_label("-o,--output") == "--output");
  CHECK(option_label("--seed") == "--seed");
  CHECK(option_label("-w") == "-w");
}

TEST_CASE("ModelOptions: presets, custom geometry, and combinations that make no sense") {
  ModelOptions m;
  std::unique_ptr<CLI::App> app;  // kept alive: m refers to its --model option
  auto parse = [&](std::vector<std::string> args) {
    m = ModelOptions{};
    app = std::make_unique<CLI::App>();
    m.add_to(*app);
    std::reverse(args.begin(), args.end());
    app->parse(args);
  };
  parse({});
  CHECK(m.make(32).name() == "sm90");  // the default
  parse({"--model", "dmm"});
  CHECK(m.make(12).geometry().banks == 12);
  parse({"--model", "dmm", "--banks", "5"});
  CHECK(m.make(12).geometry().banks == 5);
  parse({"--banks", "8", "--bank-bytes", "8"});
  CHECK(m.make(4).name() == "custom");
  CHECK(m.make(4).geometry().bank_bytes == 8);
  parse({"--model", "sm90", "--bank-bytes", "4", "--banks", "8"});
  CHECK_THROWS_WITH_AS(m.check(), doctest::Contains("cannot be combined with --model"), std::invalid_argument);
  parse({"--model", "sm90", "--banks", "8"});
  CHECK_THROWS_WITH_AS(m.check(), doctest::Contains("--banks applies to --model dmm"), std::invalid_argument);
  parse({"--bank-bytes", "4"});
  CHECK_THROWS_WITH_AS(m.check(), doctest::Contains("needs --banks"), std::invalid_argument);
  parse({"--model", "volta"});
  CHECK_THROWS_WITH_AS(m.check(), doctest::Contains("allowed: dmm, sm90"), std::invalid_argument);
  parse({});
  CHECK_THROWS_WITH_AS(m.make(12), doctest::Contains("use --model dmm"), std::invalid_argument);
}

TEST_CASE("GateOptions: a bare flag is 0, =N sets N, a bad N is an error") {
  auto parse = [](std::vector<std::string> args) {
    GateOptions g;
    CLI::App a;
    g.add_to(a);
    std::reverse(args.begin(), args.end());
    a.parse(args);
    return g.fail_on_conflicts;
  };
  CHECK_FALSE(parse({}).has_value());
  CHECK(parse({"--fail-on-conflicts"}) == std::uint64_t{0});
  CHECK(parse({"--fail-on-conflicts=12"}) == std::uint64_t{12});
  CHECK_THROWS_WITH_AS(parse({"--fail-on-conflicts=-1"}), doctest::Contains("must be an integer in 0.."),
                       std::invalid_argument);
}

TEST_CASE("parse_real: finite, in range, or an error stating the range") {
  CHECK(parse_real("0.5", "--time-limit", 0.001, 10) == 0.5);
  for (const char* bad : {"-1", "nan", "inf", "1s", ""}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_real(bad, "--time-limit", 0.001, 10), std::invalid_argument);
  }
}
