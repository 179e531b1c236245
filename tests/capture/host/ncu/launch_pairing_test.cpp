// Tests of capture/host/ncu/launch_pairing.hpp: which ncu launch measured which
// captured launch, by function identity and place, never by base name alone.
#include "capture/host/ncu/launch_pairing.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
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

namespace {
/// A graph program's launch table: one stream launch of `init`, then a graph
/// of two kernel nodes (`a` grid 4, `b` grid 8) launched `graph_launches` times.
std::vector<LaunchRow> graph_table(unsigned graph_launches) {
  std::vector<LaunchRow> t = {row(0, "_Z4initv", "init()", 2)};
  for (unsigned g = 0; g < graph_launches; ++g)
    for (unsigned n = 0; n < 2; ++n) {
      LaunchRow r = n == 0 ? row(t.size(), "_Z1av", "a()", 4) : row(t.size(), "_Z1bv", "b()", 8);
      r.graph_exec = 0;
      r.graph_launch = g;
      r.graph_node = n;
      t.push_back(r);
    }
  return t;
}
/// ncu's launches of the same program: every kernel node of every graph launch is one (ncu --graph-profiling node).
std::vector<NcuLaunchShape> graph_shapes(unsigned graph_launches) {
  std::vector<NcuLaunchShape> s = {{"_Z4initv", {2, 1, 1}, {128, 1, 1}}};
  for (unsigned g = 0; g < graph_launches; ++g) {
    s.push_back({"_Z1av", {4, 1, 1}, {128, 1, 1}});
    s.push_back({"_Z1bv", {8, 1, 1}, {128, 1, 1}});
  }
  return s;
}
std::vector<std::string> names(const std::vector<NcuLaunchShape>& shapes) {
  std::vector<std::string> n;
  for (const auto& s : shapes) n.push_back(s.kernel);
  return n;
}
}  // namespace

TEST_CASE("a graph's node launched again and again: the k-th launch of a node meets ncu's k-th launch of its function") {
  const auto table = graph_table(3);
  const auto shapes = graph_shapes(3);
  std::vector<std::string> notes;
  const auto p = pair_launches(table, {0, 1, 2, 3, 4, 5, 6}, names(shapes), shapes, notes);
  REQUIRE(p.size() == 7);
  // Both lists are in the program's launch order, so the k-th row is ncu's k-th launch.
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(p[i].ncu == std::optional<std::size_t>(i));
  CHECK(notes.empty());
  // Only node b of graph launch 1 captured (--launch-skip): still ncu's launch of b in that graph launch.
  const auto q = pair_launches(table, {4}, names(shapes), shapes, notes);
  CHECK(q[0].ncu == std::optional<std::size_t>(4));
}

TEST_CASE("a capture whose program ended early: its launches pair with ncu's first, ncu's later ones are named") {
  // The program failed after its second graph launch under capture; ncu's run went on to a third.
  const auto table = graph_table(2);
  const auto shapes = graph_shapes(3);
  std::vector<std::string> notes;
  const std::string ended = "the program ended early: exit 1";
  const auto p = pair_launches(table, {1, 2, 3, 4}, names(shapes), shapes, notes, ended);
  REQUIRE(p.size() == 4);
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(p[i].ncu == std::optional<std::size_t>(i + 1));
  REQUIRE(notes.size() == 2);  // one per function with launches the capture never saw
  CHECK(notes[0] == "launches of a: ncu profiled 3, the capture saw 2 before the program ended early: exit 1; paired "
                    "in order, ncu's last 1 were not captured");
  // With the launch list given, compare never asks for it.
  for (const auto& n : notes) CHECK(n.find("give --ncu-launches") == std::string::npos);
  // Without the launch list, which block is which stays unknown, and the reason says how the program ended.
  notes.clear();
  const auto q = pair_launches(table, {1}, names(shapes), {}, notes, ended);
  CHECK_FALSE(q[0].ncu.has_value());
  CHECK(q[0].reason == "the ncu report holds 3 blocks of this function, the program made 2 launches before the "
                       "program ended early: exit 1: which block is which launch is unknown (give --ncu-launches)");
  // A program that ended normally with fewer launches than ncu's: different runs, no pairing, no advice to give
  // what was given.
  const auto r = pair_launches(table, {1}, names(shapes), shapes, notes);
  CHECK_FALSE(r[0].ncu.has_value());
  CHECK(r[0].reason.find("the two runs differ") != std::string::npos);
  CHECK(r[0].reason.find("--ncu-launches") == std::string::npos);
}

TEST_CASE("graph_nodes on the H200: each of the 12 node launches pairs with ncu's launch in its place") {
  // validate/capture/programs/graphs/graph_nodes.cu builds A -> (B, C) -> D (A, B, D strided_mix, C slow_add,
  // each 64 blocks of 128) and launches it 3 times: 12 kernel executions, the k-th node launch of the program
  // the k-th of ncu's (ncu profiles each kernel node of each graph launch, in node order).
  const std::string dir = std::string(BANKCHECK_SOURCE_DIR) + "/validate/results/h200-2026-11-29/suite/";
  const std::vector<LaunchRow> table = read_launch_table(dir + "graph_nodes.launches.csv");
  std::ifstream in(dir + "graph_nodes.launches.ncu.csv");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<NcuLaunchShape> shapes = parse_ncu_launches(text, "graph_nodes.launches.ncu.csv");
  REQUIRE(table.size() == 12);
  REQUIRE(shapes.size() == 12);
  std::vector<std::uint64_t> all;
  for (std::uint64_t k = 0; k < 12; ++k) {
    all.push_back(k);
    CHECK(table[k].graph_launch == std::optional<std::uint64_t>(k / 4));  // 4 nodes a graph launch
    CHECK(table[k].graph_node == std::optional<std::uint64_t>(k % 4));
  }
  std::vector<std::string> notes;
  const auto pairs = pair_launches(table, all, names(shapes), shapes, notes);
  for (std::uint64_t k = 0; k < 12; ++k) CHECK(pairs[k].ncu == std::optional<std::size_t>(k));
  CHECK(notes.empty());
  // Only the second graph launch captured (--launch-skip 4 --launch-count 4): its nodes still meet ncu's 4..7.
  const auto second = pair_launches(table, {4, 5, 6, 7}, names(shapes), shapes, notes);
  for (std::size_t i = 0; i < 4; ++i) CHECK(second[i].ncu == std::optional<std::size_t>(4 + i));
}
