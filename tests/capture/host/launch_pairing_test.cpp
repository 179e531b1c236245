// Tests of capture/host/launch_pairing.hpp: which ncu launch measured which
// captured launch, by function identity and place, never by base name alone.
#include "capture/host/launch_pairing.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace bankcheck::capture;

namespace {
LaunchRow row(std::uint64_t id, const char* mangled, const char* demangled, std::uint32_t grid = 1) {
  LaunchRow r;
  r.id = id;
  r.kernel = mangled;
  r.demangled = demangled;
  r.grid = {grid, 1, 1};
  r.block = {128, 1, 1};
  return r;
}
}  // namespace

TEST_CASE("launches pair by function: mangled names exactly, demangled names by identity") {
  const std::vector<LaunchRow> table = {row(0, "_Z1aILi1EEvv", "void a<1>()"), row(1, "_Z1aILi2EEvv", "void a<2>()"),
                                        row(2, "_Z1bv", "b()")};
  std::vector<std::string> notes;
  // mangled, in another order than the program's
  auto p = pair_launches(table, {0, 1, 2}, {"_Z1bv", "_Z1aILi2EEvv", "_Z1aILi1EEvv"}, {}, notes);
  REQUIRE(p.size() == 3);
  CHECK(p[0].ncu == std::optional<std::size_t>(2));
  CHECK(p[1].ncu == std::optional<std::size_t>(1));
  CHECK(p[2].ncu == std::optional<std::size_t>(0));
  // demangled by ncu; a<1> is missing: listed, the others still paired
  p = pair_launches(table, {0, 1, 2}, {"void a<(int)2>()", "b()"}, {}, notes);
  CHECK_FALSE(p[0].ncu.has_value());
  CHECK(p[0].reason.find("other functions named 'a'") != std::string::npos);
  CHECK(p[1].ncu == std::optional<std::size_t>(0));
  CHECK(p[2].ncu == std::optional<std::size_t>(1));
  CHECK(notes.empty());  // every pairing by the program's own order: nothing assumed
}

TEST_CASE("the k-th launch of a function meets ncu's k-th when ncu profiled them all") {
  const std::vector<LaunchRow> table = {row(0, "_Z1kv", "k()", 1), row(1, "_Z1kv", "k()", 2), row(2, "_Z1kv", "k()", 3)};
  std::vector<std::string> notes;
  // capture took only launch 2; ncu profiled all three
  auto p = pair_launches(table, {2}, {"_Z1kv", "_Z1kv", "_Z1kv"}, {}, notes);
  CHECK(p[0].ncu == std::optional<std::size_t>(2));
  CHECK(notes.empty());
  // ncu profiled one of three: paired in order, and a note says what was assumed
  p = pair_launches(table, {2}, {"_Z1kv"}, {}, notes);
  CHECK(p[0].ncu == std::optional<std::size_t>(0));
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("in order") != std::string::npos);
  // with shapes: ncu's one launch ran grid 1, the captured one grid 3: refused
  notes.clear();
  p = pair_launches(table, {2}, {"_Z1kv"}, {NcuLaunchShape{"_Z1kv", {1, 1, 1}, {128, 1, 1}}}, notes);
  CHECK_FALSE(p[0].ncu.has_value());
  CHECK(p[0].reason.find("not the same launch") != std::string::npos);
  // a launch list that is not the report's
  CHECK_THROWS_AS(pair_launches(table, {2}, {"_Z1kv"}, {NcuLaunchShape{"_Z1xv", {1, 1, 1}, {1, 1, 1}}}, notes),
                  std::invalid_argument);
}

TEST_CASE("more captured launches than ncu profiled: the rest are listed") {
  const std::vector<LaunchRow> table = {row(0, "_Z1kv", "k()"), row(1, "_Z1kv", "k()"), row(2, "_Z1kv", "k()")};
  std::vector<std::string> notes;
  const auto p = pair_launches(table, {0, 1}, {"_Z1kv"}, {}, notes);
  CHECK(p[0].ncu == std::optional<std::size_t>(0));
  CHECK_FALSE(p[1].ncu.has_value());
  CHECK(p[1].reason.find("fewer than were captured") != std::string::npos);
}

TEST_CASE("more ncu blocks of a function than the program made launches: none is paired, each says why") {
  // ncu printed launches twice (its replays): in order, captured launch 1 would
  // meet a copy of launch 0.
  const std::vector<LaunchRow> table = {row(0, "_Z1kv", "k()"), row(1, "_Z1kv", "k()")};
  std::vector<std::string> notes;
  const auto p = pair_launches(table, {0, 1}, {"_Z1kv", "_Z1kv", "_Z1kv"}, {}, notes);
  REQUIRE(p.size() == 2);
  for (const LaunchPair& q : p) {
    CHECK_FALSE(q.ncu.has_value());
    CHECK(q.reason.find("3 blocks of this function, the program made 2 launches") != std::string::npos);
    CHECK(q.reason.find("--ncu-launches") != std::string::npos);
  }
}
