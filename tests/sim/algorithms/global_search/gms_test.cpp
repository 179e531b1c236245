// GMS (Karsin 2015, 4.2.2): answers against std::upper_bound for K of every
// kind, and its instructions against counts from the definition: each query
// makes the halving loop's probes (their number depends on K alone) and one
// final check; the coalesced query loads and answer stores cost w*4/32 and
// w*8/32 sectors; a warp whose lanes all search one query costs one sector
// per probe.
#include "sim/algorithms/global_search/gms.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "model/global_access.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/inputs/random.hpp"

using namespace bankcheck;

namespace {

using Gms = GmsSearch<int, RecordingGlobal<int>, RecordingGlobal<int>, RecordingGlobal<long>>;

struct Sectors final : InstructionListener {
  std::vector<std::uint64_t> instructions = std::vector<std::uint64_t>(4), sectors = std::vector<std::uint64_t>(4);
  void instruction(const InstructionInfo& i, const WarpRequest& r) override {
    ++instructions[i.site];
    sectors[i.site] += global_cost(GlobalGeometry{32, 128, 32}, r).sectors;
  }
};

/// Halvings of the loop by its own recurrence: n -> n - n/2 while n > 1.
long halvings(long K) {
  long count = 0;
  for (long n = K; n > 1; n -= n / 2) ++count;
  return count;
}

Sectors run(long K, std::vector<int>& queries, std::vector<long>& answers, const std::vector<int>& keys) {
  BlockRecorder recorder(0);
  Gms g;
  g.K = K;
  g.threads = 64;
  g.per_thread = static_cast<int>(queries.size() / 64);
  g.valid = static_cast<long>(queries.size());
  g.keys = recorder.global(const_cast<int*>(keys.data()), keys.size(), 1 << 20);
  g.queries = recorder.global(queries.data(), queries.size(), 2 << 20);
  g.answers = recorder.global(answers.data(), answers.size(), 3 << 20);
  Sectors s;
  recorder.run(g, 32, s);
  return s;
}

}  // namespace

TEST_CASE("gms answers are std::upper_bound - 1 and its probes are ceil-halvings of K") {
  inputs::Random random(7);
  for (long K : {1L, 2L, 3L, 31L, 32L, 33L, 1000L, 4096L, 65536L}) {
    CAPTURE(K);
    std::vector<int> keys(K);
    for (long i = 0; i < K; ++i) keys[i] = static_cast<int>(3 * i + 1);
    std::vector<int> queries(128);
    for (int& q : queries) q = static_cast<int>(random.below(3 * K + 3));
    queries[0] = 0;                        // below every key
    queries[1] = keys.back();              // the last key
    queries[2] = static_cast<int>(3 * K);  // above every key
    std::vector<long> answers(queries.size(), -7);
    const Sectors s = run(K, queries, answers, keys);
    for (std::size_t i = 0; i < queries.size(); ++i)
      CHECK(answers[i] == std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin() - 1);
    const std::uint64_t warps = 128 / 32;
    CHECK(s.instructions[Gms::probe] == warps * static_cast<std::uint64_t>(halvings(K)));
    CHECK(s.instructions[Gms::final_check] == warps);
    CHECK(s.sectors[Gms::load_query] == warps * 32 * 4 / 32);
    CHECK(s.sectors[Gms::store_answer] == warps * 32 * 8 / 32);
  }
  CHECK(halvings(65536) == 16);
  CHECK(halvings(1000) == 10);
}

TEST_CASE("gms: lanes searching one query touch one sector per probe") {
  const long K = 4096;
  std::vector<int> keys(K);
  for (long i = 0; i < K; ++i) keys[i] = static_cast<int>(i);
  std::vector<int> queries(64, 1234);
  std::vector<long> answers(64);
  const Sectors s = run(K, queries, answers, keys);
  CHECK(s.sectors[Gms::probe] == s.instructions[Gms::probe]);
  CHECK(answers[5] == 1234);
}

TEST_CASE("gms worst case (spread queries): probe i touches min(2^(i-1), w) sectors, more than random queries") {
  // The registry's entry (global_search_spec.cpp): one warp of 32 lanes, K = 65536: 16 probes.
  auto probe_sectors = [](const char* input) {
    const AlgorithmReport r = run_algorithm("gms", {{"w", 32}, {"K", 65536}, {"u", 32}, {"q", 1}, {"blocks", 1}},
                                            InputChoice::parse(input, 5), make_preset("sm90"));
    CHECK(r.outcome.output_ok);
    for (const auto& s : r.sites)
      if (s.site == "gms.probe") return s.global.sectors;
    return std::uint64_t{0};
  };
  std::uint64_t bound = 0;
  for (int i = 1; i <= 16; ++i) bound += std::min<std::uint64_t>(std::uint64_t{1} << (i - 1), 32);
  CHECK(bound == 383);
  CHECK(probe_sectors("worst") == bound);
  CHECK(probe_sectors("random") < bound);
}
