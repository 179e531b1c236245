// The CPU replay of one block of the CF sort's block-sort kernel (CfSortTileAlgo):
// a partial tile's threads hold ceil(valid / E) sorted runs, and combining them
// takes ceil(log2(runs)) merge rounds; the replay, as the kernel, runs only
// those (each of three phases: store, split, gather + merge) and leaves the
// tile sorted. Whole-sort replays are in cf_merge_sort_test.cpp.
#include "sim/algorithms/merge/cf_sort_replay.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "sim/algorithms/block_recorder.hpp"

namespace cf_sort_replay_test {

using namespace bankcheck;

namespace {
struct Less {
  bool operator()(int a, int b) const { return a < b; }
};

/// The phases in which the replay issued a shared-memory access.
struct Phases final : InstructionListener {
  void instruction(const InstructionInfo& info, const WarpRequest&) override { seen.insert(info.phase); }
  std::set<unsigned> seen;
};

/// Rounds that merge `runs` sorted runs pairwise into one: ceil(log2(runs)).
int merge_levels(int runs) {
  int levels = 0;
  while ((1 << levels) < runs) ++levels;
  return levels;
}
}  // namespace

TEST_CASE("CfSortTileAlgo: a partial tile runs the rounds its runs need and ends sorted") {
  constexpr int kU = 64, kE = 16;
  std::mt19937 g(7);
  for (int valid : {1, 15, 16, 17, 33, 48, 53, 100, 257, 511, 512, 513, 1000, kU * kE - 1, kU * kE}) {
    CAPTURE(valid);
    std::vector<int> keys(kU * kE), splits(kU);
    for (int p = 0; p < valid; ++p) keys[p] = static_cast<int>(g() % 1000);
    const std::vector<int> input(keys.begin(), keys.begin() + valid);
    for (int t = 0; t * kE < valid; ++t)  // each thread's keys sorted, as the kernel's thread sort leaves them
      std::sort(keys.begin() + t * kE, keys.begin() + std::min(valid, (t + 1) * kE));
    CfSortTileAlgo<int, CfNoValue, kU, kE, Less> algo;
    algo.valid = valid;
    algo.keys = keys.data();
    algo.splits = splits.data();
    BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
    Phases phases;
    recorder.run(algo, kU, 32, phases, 0);
    const int rounds = merge_levels((valid + kE - 1) / kE);
    CHECK(phases.seen.size() == static_cast<std::size_t>(3 * rounds));
    CHECK((phases.seen.empty() || *phases.seen.rbegin() == static_cast<unsigned>(3 * rounds - 1)));
    std::vector<int> want = input;
    std::sort(want.begin(), want.end());
    CHECK(std::vector<int>(keys.begin(), keys.begin() + valid) == want);
  }
}

}  // namespace cf_sort_replay_test
