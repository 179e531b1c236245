// sim/algorithms/algorithm_registry.hpp: the registry's machinery (listing,
// lookup, parameters, inputs, run-time registration, replay) and every
// registered algorithm end to end on small instances.
#include "sim/algorithms/algorithm_registry.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "sim/algorithms/spec_support.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;

namespace {

// Small instances where the defaults are large.
const std::map<std::string, Params> kSmall = {
    {"pbs", {{"w", 16}, {"K", 256}, {"queries", 64}, {"u", 32}}},
    {"pbs-cf", {{"w", 16}, {"K", 256}, {"queries", 64}, {"u", 32}}},
    {"pbs-cl", {{"w", 16}, {"K", 256}, {"queries", 64}, {"u", 32}}},
    {"merge", {{"w", 16}, {"E", 5}, {"u", 32}}},
    {"cf-merge", {{"w", 16}, {"E", 5}, {"u", 32}}},
    {"merge-sort", {{"w", 8}, {"E", 3}, {"u", 16}}},
    {"transpose", {{"w", 16}, {"tile", 16}}},
    {"transpose-padded", {{"w", 16}, {"tile", 16}}},
    {"transpose-swizzled", {{"w", 16}, {"tile", 16}}},
    {"css", {{"w", 16}, {"m", 16}}},
    {"css-padded", {{"w", 16}, {"m", 16}}},
};

Params small(const std::string& name) {
  auto it = kSmall.find(name);
  return it != kSmall.end() ? it->second : Params{{"w", 16}};
}

// A one-phase toy for run-time registration: thread t stores word t*stride.
struct StrideStore {
  static constexpr const char* kName = "stride-store";
  static constexpr const char* kSiteNames[] = {"store"};
  static constexpr int kPhases = 1;
  unsigned threads = 32;
  unsigned stride = 1;
  std::size_t shared_bytes() const { return std::size_t{threads} * stride * 4; }
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    smem.template store<int>(0, static_cast<std::size_t>(tid) * stride, tid);
  }
};

AlgorithmSpec stride_store_spec(std::string name) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.description = "test: thread t stores word t*stride";
  s.params = {{"w", 8, "warp"}, {"stride", 2, "words between threads"}};
  s.validate = [](const Params& p) { spec_support::require_range(p, "stride", 1, 64); };
  s.drive = [](const Params& p, const InputChoice&, InstructionListener& out) {
    StrideStore a{8, spec_support::u32(p, "stride")};
    spec_support::record_block(a, spec_support::u32(p, "w"), out);
    AlgorithmOutcome o;
    o.blocks = 1;
    return o;
  };
  return s;
}

}  // namespace

TEST_CASE("the built-in list: every name once, in listing order, pbs first and merge-sort last") {
  std::set<std::string> names;
  for (const auto& spec : algorithms()) {
    if (spec.name.rfind("test-", 0) == 0) continue;
    CAPTURE(spec.name);
    CHECK(names.insert(spec.name).second);
    CHECK(!spec.description.empty());
    CHECK(static_cast<bool>(spec.validate));
    CHECK(static_cast<bool>(spec.drive));
  }
  CHECK(names.size() >= 20);
  CHECK(algorithms().front().name == "pbs");
  CHECK(find_algorithm("merge-sort").name == "merge-sort");
  CHECK_THROWS_WITH_AS(find_algorithm("nosuch"), doctest::Contains("known: pbs, pbs-cf"), std::invalid_argument);
}

TEST_CASE("every registered algorithm runs on random and worst inputs, checks its output and meets its prediction") {
  for (const auto& spec : algorithms()) {
    if (spec.name.rfind("test-", 0) == 0) continue;  // registered by the test below
    for (const char* input : {"random", "worst"}) {
      CAPTURE(spec.name);
      CAPTURE(input);
      const Params given = small(spec.name);
      const auto w = static_cast<unsigned>(given.at("w"));
      const auto report = run_algorithm(spec.name, given, InputChoice::parse(input, 7), make_preset("dmm", w));
      CHECK(report.outcome.output_checked);
      CHECK(report.outcome.output_ok);
      CHECK(report.total.instructions + report.global.instructions > 0);  // gms: global instructions only
      if (report.outcome.prediction) {
        REQUIRE(report.replayed_for_prediction);
        CHECK(report.outcome.prediction->holds(*report.replayed_for_prediction));
      }
    }
  }
}

TEST_CASE("worst-case inputs are worse where the layout allows it") {
  const auto dmm = make_preset("dmm", 16);
  const auto worst = InputChoice::parse("worst", 1);
  // split, thread-major, F = 16 = w, every key in partition 0: all lanes in one bank.
  const auto tm = run_algorithm("split-thread-major", {{"w", 16}, {"fanout", 16}}, worst, dmm);
  CHECK(tm.total.worst_degree == 16);
  CHECK(run_algorithm("split", {{"w", 16}, {"fanout", 16}}, worst, dmm).total.conflicts() == 0);
  // CSS tree, m = w = 16, 32 threads: lane t in level-1 node (t mod 17)+1 -> 16-way probes.
  const auto css = run_algorithm("css", {{"w", 16}, {"m", 16}}, worst, dmm);
  CHECK(css.total.worst_degree == 16);
  CHECK(run_algorithm("css-padded", {{"w", 16}, {"m", 16}}, worst, dmm).total.worst_degree <= 2);
}

TEST_CASE("bad parameters are named with their range") {
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("scan"), {{"n", 48}}), doctest::Contains("power of two"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("transpose-swizzled"), {{"tile", 12}}),
                       doctest::Contains("power-of-two"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("aho-sm2"), {{"chunk", 30}}),
                       doctest::Contains("multiple of 4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("strided"), {{"stride", 0}}), doctest::Contains("1..65536"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("pbs"), {{"K", 0}}), doctest::Contains("K must be in 1..2^30"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("pbs"), {{"nosuch", 1}}),
                       doctest::Contains("pbs has no parameter 'nosuch'"), std::invalid_argument);
  // Defaults fill what is not given.
  const Params p = resolve_params(find_algorithm("strided"), {{"stride", 5}});
  CHECK(p.at("stride") == 5);
  CHECK(p.at("w") == 32);
}

TEST_CASE("inputs: random, worst, or a file of integers whose errors name the file and line") {
  CHECK(InputChoice::parse("random", 3).kind == InputChoice::Kind::random);
  CHECK(InputChoice::parse("random", 3).describe() == "random (seed 3)");
  CHECK(InputChoice::parse("worst", 3).kind == InputChoice::Kind::worst);
  const InputChoice file = InputChoice::parse("queries.txt", 3);
  CHECK(file.kind == InputChoice::Kind::file);
  CHECK(file.path == "queries.txt");
  CHECK_THROWS_AS(InputChoice::parse("", 1), std::invalid_argument);

  const std::string path = bankcheck::test::scratch("algorithm_registry_test.txt");
  {
    std::ofstream f(path);
    f << "1 2  3 # a comment 4\n\n-5\n6 x7\n";
  }
  CHECK_THROWS_WITH_AS(read_integers(path), doctest::Contains((path + ":4: 'x7' is not a 64-bit integer").c_str()),
                       std::invalid_argument);
  {
    std::ofstream f(path);
    f << "1 2  3 # a comment 4\n\n-5\n";
  }
  CHECK(read_integers(path) == std::vector<std::int64_t>{1, 2, 3, -5});
  std::remove(path.c_str());
  CHECK_THROWS_WITH_AS(read_integers(path), doctest::Contains("cannot open"), std::invalid_argument);
}

TEST_CASE("register_algorithm adds an algorithm that run_algorithm then runs; bad registrations are refused") {
  register_algorithm(stride_store_spec("test-stride-store"));
  CHECK(algorithms().back().name == "test-stride-store");
  // 8 threads, w = 8, stride 2 (words): lanes 0..7 store words 0, 2, ..., 14 -> banks 0, 2, 4, 6, 0, 2, 4, 6:
  // every used bank holds 2 lanes, 1 instruction of 2 wavefronts, 1 conflict.
  const auto r = run_algorithm("test-stride-store", {{"stride", 2}}, InputChoice::parse("random", 1),
                               make_preset("dmm", 8));
  CHECK(r.total.instructions == 1);
  CHECK(r.total.wavefronts == 2);
  CHECK(r.total.conflicts() == 1);
  CHECK(r.sites.at(0).site == "stride-store.store");
  CHECK_THROWS_WITH_AS(resolve_params(find_algorithm("test-stride-store"), {{"stride", 65}}),
                       doctest::Contains("stride must be in 1..64"), std::invalid_argument);
  // Refused: a taken name, no name, no w, no driver.
  CHECK_THROWS_WITH_AS(register_algorithm(stride_store_spec("test-stride-store")),
                       doctest::Contains("registered already"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(register_algorithm(stride_store_spec("pbs")), doctest::Contains("registered already"),
                       std::invalid_argument);
  CHECK_THROWS_AS(register_algorithm(stride_store_spec("")), std::invalid_argument);
  AlgorithmSpec no_w = stride_store_spec("test-no-w");
  no_w.params.erase(no_w.params.begin());
  CHECK_THROWS_WITH_AS(register_algorithm(no_w), doctest::Contains("needs a parameter w"), std::invalid_argument);
  AlgorithmSpec no_drive = stride_store_spec("test-no-drive");
  no_drive.drive = nullptr;
  CHECK_THROWS_WITH_AS(register_algorithm(no_drive), doctest::Contains("validate and drive"), std::invalid_argument);
}

TEST_CASE("run_algorithm refuses a model whose warp differs from w") {
  CHECK_THROWS_WITH_AS(run_algorithm("strided", {{"w", 16}}, InputChoice::parse("random", 1), make_preset("dmm", 32)),
                       doctest::Contains("same warp size"), std::invalid_argument);
}
