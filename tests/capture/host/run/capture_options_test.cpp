// Tests of capture/host/run/capture_options.hpp: the options survive the trip
// through the environment, and bad values name the variable and the range.
#include "capture/host/run/capture_options.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace bankcheck::capture;

namespace {
CaptureOptions through_environment(const std::map<std::string, std::string>& env) {
  return CaptureOptions::from_environment([&](const char* name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}
}  // namespace

TEST_CASE("capture options round trip through the environment") {
  CaptureOptions o;
  o.dir = "out-dir";
  o.patches = "/x/p.fatbin";
  o.filter = {"gemm|scan", 3, 2, {{0, 3}, {7, 7}}, KernelNameBase::mangled};
  o.ring_slots = 1024;
  o.generic = false;
  o.summary_slots = 512;
  o.summary_stage = 2;
  std::map<std::string, std::string> env;
  for (const auto& [k, v] : o.to_environment()) env[k] = v;
  const CaptureOptions back = through_environment(env);
  CHECK(back.dir == o.dir);
  CHECK(back.patches == o.patches);
  CHECK(back.filter.kernel_regex == "gemm|scan");
  CHECK(back.filter.name_base == KernelNameBase::mangled);
  CHECK(back.filter.skip == 3);
  CHECK(back.filter.count == std::optional<std::uint64_t>{2});
  REQUIRE(back.filter.blocks.size() == 2);
  CHECK(back.filter.blocks[1].first == 7);
  CHECK(back.ring_slots == 1024);
  CHECK_FALSE(back.generic);
  CHECK(back.summary_slots == 512);
  CHECK(back.summary_stage == 2);
  CHECK_FALSE(back.global);

  CaptureOptions g;
  g.dir = "d";
  g.patches = "p";
  g.global = true;
  env.clear();
  for (const auto& [k, v] : g.to_environment()) env[k] = v;
  CHECK(through_environment(env).global);
  CHECK(through_environment(env).generic);
}

TEST_CASE("capture options: bad environment values") {
  std::map<std::string, std::string> env = {{kEnvDir, "/o"}, {kEnvPatches, "/p"}};
  CHECK(through_environment(env).ring_slots == kDefaultRingSlots);
  env[kEnvRingSlots] = "1000";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("must be a power of two in 1..16777216 (got 1000)"),
                       std::invalid_argument);
  env.erase(kEnvRingSlots);
  env[kEnvGeneric] = "yes";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("must be 0 or 1"), std::invalid_argument);
  env.erase(kEnvGeneric);
  env[kEnvGlobal] = "2";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("BANKCHECK_CAPTURE_GLOBAL must be 0 or 1 (got 2)"),
                       std::invalid_argument);
  env[kEnvGlobal] = "1";
  env[kEnvSummarySlots] = "64";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("cannot be combined with"), std::invalid_argument);
  env.erase(kEnvGlobal);
  env.erase(kEnvSummarySlots);
  env[kEnvSummaryStage] = "4";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("must be 0, 1, 2 or 3 (got 4)"), std::invalid_argument);
  env[kEnvSummaryStage] = "12";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("must be 0, 1, 2 or 3 (got 12)"), std::invalid_argument);
  env[kEnvSummaryStage] = "3";
  CHECK(through_environment(env).summary_stage == 3);
  env.erase(kEnvSummaryStage);
  env[kEnvSkip] = "x";
  CHECK_THROWS_WITH_AS(through_environment(env), doctest::Contains("BANKCHECK_CAPTURE_LAUNCH_SKIP must be an integer"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(through_environment({}), doctest::Contains("BANKCHECK_CAPTURE_DIR is not set"),
                       std::invalid_argument);
}
