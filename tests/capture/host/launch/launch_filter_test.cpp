// Tests of capture/host/launch/launch_filter.hpp.
#include "capture/host/launch/launch_filter.hpp"

#include <doctest/doctest.h>

using namespace bankcheck::capture;

TEST_CASE("launch filter: regex on the function name (ncu's default base), then skip, then count") {
  LaunchFilter f({"transpose", 1, 2, {}});
  CHECK_FALSE(f.should_capture("_Z4scanPi", "scan(int*)"));
  CHECK_FALSE(f.should_capture("_Z9transposePf", "transpose(float*)"));  // skipped (first match)
  CHECK(f.should_capture("_Z9transposePf", "transpose(float*)"));
  CHECK(f.should_capture("_Z1kv", "void ns::transpose_kernel<int>()"));  // the function name matches
  CHECK(f.exhausted());
  CHECK_FALSE(f.should_capture("_Z9transposePf", "transpose(float*)"));
  LaunchFilter all({});
  for (int i = 0; i < 5; ++i) CHECK(all.should_capture("a", "a"));
}

TEST_CASE("launch filter: may_capture asks the same question without counting, and is false once exhausted") {
  // Capture patches only the modules holding a function may_capture accepts.
  LaunchFilter f({"transpose", 0, 1, {}});
  CHECK_FALSE(f.may_capture("_Z4scanPi", "scan(int*)"));
  CHECK(f.may_capture("_Z9transposePf", "transpose(float*)"));
  CHECK(f.may_capture("_Z9transposePf", "transpose(float*)"));  // asking twice counts nothing
  CHECK(f.should_capture("_Z9transposePf", "transpose(float*)"));
  CHECK(f.exhausted());
  CHECK_FALSE(f.may_capture("_Z9transposePf", "transpose(float*)"));  // the one launch wanted is taken
  LaunchFilter all({});
  CHECK(all.may_capture("_Z4scanPi", "scan(int*)"));
  LaunchFilter mangled({"^_Z4scan", 0, {}, {}, KernelNameBase::mangled});
  CHECK(mangled.may_capture("_Z4scanPi", "scan(int*)"));
  CHECK_FALSE(mangled.may_capture("_Z9transposePf", "transpose(float*)"));
}

TEST_CASE("launch filter: each name base searches what ncu's --kernel-name-base of that value searches") {
  // "norm" once picked PyTorch's `normal` kernel in one tool and not in the other, because capture
  // searched the demangled signature (template arguments included) and ncu the function name.
  const char* mangled = "_ZN2at6native6normalINS_9LayerNormEEEvv";
  const char* demangled = "void at::native::normal<at::LayerNorm>()";
  LaunchFilter function({"Norm", 0, {}, {}, KernelNameBase::function});
  CHECK_FALSE(function.should_capture(mangled, demangled));  // "normal": no "Norm" in the function name
  LaunchFilter full({"Norm", 0, {}, {}, KernelNameBase::demangled});
  CHECK(full.should_capture(mangled, demangled));  // the template argument matches
  LaunchFilter bare({"^normal$", 0, {}, {}, KernelNameBase::function});
  CHECK(bare.should_capture(mangled, demangled));
  LaunchFilter m({"^_ZN2at6native6normal", 0, {}, {}, KernelNameBase::mangled});
  CHECK(m.should_capture(mangled, demangled));
  LaunchFilter m2({"^void", 0, {}, {}, KernelNameBase::mangled});
  CHECK_FALSE(m2.should_capture(mangled, demangled));
}

TEST_CASE("launch filter: bad values say what is allowed") {
  CHECK_THROWS_WITH_AS(LaunchFilter({"(", 0, {}, {}}), doctest::Contains("is not a valid regular expression"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_count("-1", "--launch-skip"), doctest::Contains("--launch-skip must be an integer in 0.."),
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_count("99999999999999999999", "--launch-count"), std::invalid_argument);
  CHECK_THROWS_AS(parse_count("", "--launch-count"), std::invalid_argument);
}

TEST_CASE("block lists") {
  const auto r = parse_block_list("0-3,7,10-12");
  REQUIRE(r.size() == 3);
  CHECK(r[0].first == 0);
  CHECK(r[0].last == 3);
  CHECK(r[1].first == 7);
  CHECK(r[1].last == 7);
  CHECK(r[2].last == 12);
  for (const char* bad : {"", "1,", "a", "3-1", "1-2-3", ",1", "1--2"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_block_list(bad), doctest::Contains("expected block ids or ranges"), std::invalid_argument);
  }
  std::string many;
  for (int i = 0; i < 17; ++i) many += (i ? "," : "") + std::to_string(i);
  CHECK_THROWS_WITH_AS(parse_block_list(many), doctest::Contains("more than 16 parts"), std::invalid_argument);
}
