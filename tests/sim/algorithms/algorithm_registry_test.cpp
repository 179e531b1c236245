#include "sim/algorithms/extra_algorithms.hpp"

#include <doctest/doctest.h>

using namespace bankcheck;

TEST_CASE("extra algorithms: every one runs through the registry, checks its output and meets its prediction") {
  for (const auto& spec : extra_algorithm_specs()) {
    for (const char* input : {"random", "worst"}) {
      CAPTURE(spec.name);
      CAPTURE(input);
      Params given{{"w", 16}};
      if (spec.name.rfind("transpose", 0) == 0) given["tile"] = 16;
      if (spec.name.rfind("css", 0) == 0) given["m"] = 16;
      const auto report = run_algorithm(spec.name, given, InputChoice::parse(input, 7), make_preset("dmm", 16));
      CHECK(report.outcome.output_checked);
      CHECK(report.outcome.output_ok);
      CHECK(report.total.instructions > 0);
      if (report.outcome.prediction) {
        REQUIRE(report.replayed_for_prediction);
        CHECK(report.outcome.prediction->value == *report.replayed_for_prediction);
      }
    }
  }
}

TEST_CASE("extra algorithms: worst-case inputs are worse where the layout allows it") {
  const auto dmm = make_preset("dmm", 16);
  const auto worst = InputChoice::parse("worst", 1);
  // split, thread-major, F = 16 = w, every key in partition 0: all lanes in one bank.
  const auto tm = run_algorithm("split-thread-major", {{"w", 16}, {"fanout", 16}}, worst, dmm);
  CHECK(tm.total.worst_degree == 16);
  CHECK(run_algorithm("split", {{"w", 16}, {"fanout", 16}}, worst, dmm).total.conflicts == 0);
  // CSS tree, m = w = 16, 32 threads: lane t in level-1 node (t mod 17)+1 -> 16-way probes.
  const auto css = run_algorithm("css", {{"w", 16}, {"m", 16}}, worst, dmm);
  CHECK(css.total.worst_degree == 16);
  CHECK(run_algorithm("css-padded", {{"w", 16}, {"m", 16}}, worst, dmm).total.worst_degree <= 2);
}

TEST_CASE("extra algorithms: bad parameters are named") {
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("scan"), {{"n", 48}}), doctest::Contains("power of two"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("transpose-swizzled"), {{"tile", 12}}),
                       doctest::Contains("power-of-two"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("aho-sm2"), {{"chunk", 30}}),
                       doctest::Contains("multiple of 4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("strided"), {{"stride", 0}}), doctest::Contains("1..65536"),
                       std::invalid_argument);
}
