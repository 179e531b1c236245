// Tests of sim/draw/round_selection.hpp on a hand-made list of rounds.
#include "sim/draw/round_selection.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace bankcheck;

namespace {
// Phase 0: one round; phase 1: three rounds; phase 2: one round.
std::vector<GridRecorder::Round> rounds() {
  return {{0, 0, 0, "a.store"}, {1, 1, 0, "a.read"}, {1, 1, 1, "a.read"}, {1, 2, 0, "a.write"}, {2, 1, 0, "a.read"}};
}
std::vector<bool> bits(std::initializer_list<int> on) {
  std::vector<bool> v(5, false);
  for (int i : on) v[static_cast<std::size_t>(i)] = true;
  return v;
}
}  // namespace

TEST_CASE("select_rounds: numbers, ranges, lists and 'all', over every round or within a phase") {
  struct Case {
    std::optional<unsigned> phase;
    const char* spec;
    std::vector<bool> expect;
    std::size_t first;
    const char* description;
  };
  for (const Case& c : {Case{std::nullopt, "0", bits({0}), 0, "round 0"},
                        Case{std::nullopt, "1-3", bits({1, 2, 3}), 1, "rounds 1-3"},
                        Case{std::nullopt, "4,0", bits({0, 4}), 4, "rounds 4,0"},
                        Case{std::nullopt, "all", bits({0, 1, 2, 3, 4}), 0, "all rounds"},
                        Case{1, "0", bits({1}), 1, "round 0 of phase 1"},
                        Case{1, "1-2", bits({2, 3}), 2, "rounds 1-2 of phase 1"},
                        Case{1, "all", bits({1, 2, 3}), 1, "all rounds of phase 1"},
                        Case{2, "0", bits({4}), 4, "round 0 of phase 2"}}) {
    CAPTURE(c.spec);
    const RoundSelection s = select_rounds(rounds(), c.phase, c.spec);
    CHECK(s.rounds == c.expect);
    CHECK(s.first == c.first);
    CHECK(s.description == c.description);
  }
}

TEST_CASE("select_rounds: errors state the allowed range") {
  struct Case {
    std::optional<unsigned> phase;
    const char* spec;
    const char* message;
  };
  for (const Case& c : {Case{std::nullopt, "5", "--round: must be in 0..4 (got 5)"},
                        Case{1, "3", "--round: must be in 0..2 within phase 1 (got 3)"},
                        Case{3, "0", "--phase: must be in 0..2 (got 3, which has no rounds)"},
                        Case{std::nullopt, "x", "a range A-B"},
                        Case{std::nullopt, "-1", "a range A-B"},
                        Case{std::nullopt, "3-1", "the range 3-1 is empty"},
                        Case{std::nullopt, "", "a range A-B"}}) {
    CAPTURE(c.spec);
    CHECK_THROWS_WITH_AS(select_rounds(rounds(), c.phase, c.spec), doctest::Contains(c.message),
                         std::invalid_argument);
  }
}

TEST_CASE("round_listing numbers rounds globally and within their phase") {
  CHECK(round_listing(rounds()) ==
        "round 0 (--phase 0 --round 0): a.store k=0\n"
        "round 1 (--phase 1 --round 0): a.read k=0\n"
        "round 2 (--phase 1 --round 1): a.read k=1\n"
        "round 3 (--phase 1 --round 2): a.write k=0\n"
        "round 4 (--phase 2 --round 0): a.read k=0\n");
}
