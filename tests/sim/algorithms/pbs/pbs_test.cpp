// PBS, PBS-CF, PBS-CL (HiPC 2015) replayed in the DMM: answers against
// std::upper_bound (checked inside the driver, reported as output_ok, and
// directly here for the corrected variants on random keys with duplicates),
// PBS's worst case against A_PBS computed here from the paper's text, PBS-CF
// conflict-free on every input, PBS-CL's stage 2 within w - 1 per warp.
// PBS-CF/CL run the corrected stage 1 by default; printed=1 is the paper's.
#include "sim/algorithms/pbs/pbs.hpp"

#include <doctest/doctest.h>

#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/block_recorder.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <tuple>
#include "tests/scratch.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace pbs_test {

using namespace bankcheck;

namespace {
std::int64_t log2i(std::int64_t n) {
  std::int64_t r = 0;
  while ((std::int64_t{1} << r) < n) ++r;
  return r;
}
AlgorithmReport run(const std::string& algo, Params p, const std::string& input, std::uint64_t seed = 7) {
  const auto model = make_preset("dmm", static_cast<unsigned>(p.at("w")));
  return run_algorithm(algo, p, InputChoice::parse(input, seed), model);
}
const SiteCost* site(const AlgorithmReport& r, const std::string& name) {
  for (const auto& s : r.sites)
    if (s.site == name) return &s;
  return nullptr;
}
}  // namespace

TEST_CASE("PBS (Algorithm 1) finds the predecessor everywhere (powers of two and not, 4- and 8-byte keys)") {
  for (std::int64_t w : {4, 8, 12, 32})
    for (std::int64_t K : std::initializer_list<std::int64_t>{1, 2, 3, w, w + 1, 3 * w - 1, w * w, w * w + 7, 1000})
      for (std::int64_t kb : {4, 8})
        for (const char* input : {"random", "worst"}) {
          if (std::string(input) == "worst" && K % w != 0) continue;
          const std::string in = input;
          CAPTURE(w); CAPTURE(K); CAPTURE(kb); CAPTURE(in);
          auto r = run("pbs", {{"w", w}, {"K", K}, {"key_bytes", kb}, {"queries", 3 * w * 5 + 3}, {"u", 2 * w}},
                       input);
          CHECK(r.outcome.output_checked);
          CHECK(r.outcome.output_ok);
        }
}

namespace {
// Queries q with K[w-1] <= q <= 2K+1 (keys are 1, 3, 5, ...): every lane's
// predecessor is at or right of its PBS-CF offset (see formula-findings.md).
std::string away_from_low_end(std::int64_t w, std::int64_t K, int count, unsigned seed) {
  const std::string path = bankcheck::test::scratch("pbs_test_" + std::to_string(w) + "_" + std::to_string(K) + ".txt");
  std::ofstream f(path);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(2 * w - 1, 2 * K + 1);
  for (int i = 0; i < count; ++i) f << pick(rng) << "\n";
  return path;
}
}  // namespace

TEST_CASE("PBS-CF/CL (printed and corrected) find the predecessor for K a power of two >= w right of the lane offset") {
  for (const char* algo : {"pbs-cf", "pbs-cl"})
    for (std::int64_t printed : {0, 1})
    for (std::int64_t w : {4, 8, 16, 32})
      for (std::int64_t K = w; K <= 64 * w; K *= 2)
        for (std::int64_t kb : {4, 8}) {
          const std::string name = algo;
          CAPTURE(name); CAPTURE(printed); CAPTURE(w); CAPTURE(K); CAPTURE(kb);
          const Params p{{"w", w}, {"K", K}, {"key_bytes", kb}, {"queries", 16 * w}, {"u", 2 * w}, {"printed", printed}};
          auto worst = run(algo, p, "worst");
          CHECK(worst.outcome.output_ok);
          auto file = run(algo, p, away_from_low_end(w, K, 40 * static_cast<int>(w), 5));
          CHECK(file.outcome.output_ok);
        }
}

TEST_CASE("PBS-CF/CL as printed fail below the lane offset and for K not a power of two (formula-findings.md)") {
  for (const char* algo : {"pbs-cf", "pbs-cl"}) {
    const std::string name = algo;
    CAPTURE(name);
    // q = 0 < K[0] on lane 3: the predecessor -1 is left of every reachable window.
    const std::string low = bankcheck::test::scratch("pbs_low.txt");
    std::ofstream(low) << "0 0 0 0\n";
    auto r = run(algo, {{"w", 4}, {"K", 16}, {"queries", 4}, {"u", 4}, {"printed", 1}}, low);
    // Lanes 1..3 end in windows starting at their offset > 0. Lane 0's window
    // is [0, w): PBS-CF's scan finds no key <= 0 and falls back to index - 1
    // = -1 (right by luck); PBS-CL's binary lifting assumes K[index] <= q and
    // answers 0.
    CHECK(r.outcome.wrong == (name == "pbs-cf" ? 3u : 4u));
    auto k1000 = run(algo, {{"w", 32}, {"K", 1000}, {"queries", 3200}, {"u", 64}, {"printed", 1}}, "random");
    CHECK(k1000.outcome.wrong > 1000);  // δ rounded down to multiples of w no longer covers [0, K)
    // The corrected stage 1 (the default) answers both right.
    CHECK(run(algo, {{"w", 4}, {"K", 16}, {"queries", 4}, {"u", 4}}, low).outcome.wrong == 0);
    CHECK(run(algo, {{"w", 32}, {"K", 1000}, {"queries", 3200}, {"u", 64}}, "random").outcome.wrong == 0);
  }
}

TEST_CASE("PBS worst case equals A_PBS = w(log K - log w + 1) - 1 per warp when K is a multiple of w²") {
  for (std::int64_t w : {2, 4, 8, 16, 32})
    for (std::int64_t m : {1, 2, 4, 16})
      for (std::int64_t kb : {4, 8}) {
        const std::int64_t K = w * w * m, Q = 4 * w;
        CAPTURE(w); CAPTURE(K); CAPTURE(kb);
        auto r = run("pbs", {{"w", w}, {"K", K}, {"key_bytes", kb}, {"queries", Q}, {"u", w}}, "worst");
        const std::int64_t a_pbs = w * (log2i(K) - log2i(w) + 1) - 1;  // HiPC 2015 V-B
        const auto* probe = site(r, "pbs.probe");
        REQUIRE(probe);
        CHECK(probe->cost.wavefronts == static_cast<std::uint64_t>(a_pbs * (Q / w)));
        CHECK(probe->cost.conflicts() == static_cast<std::uint64_t>((a_pbs - log2i(K)) * (Q / w)));
        REQUIRE(r.outcome.prediction);
        CHECK(r.replayed_for_prediction == static_cast<std::uint64_t>(a_pbs * (Q / w)));
      }
}

TEST_CASE("PBS worst case below w²: each probe round costs min(2^i, K/w)") {
  for (std::int64_t w : {4, 8, 32})
    for (std::int64_t K = w; K < w * w; K *= 2) {
      CAPTURE(w); CAPTURE(K);
      auto r = run("pbs", {{"w", w}, {"K", K}, {"queries", w}, {"u", w}}, "worst");
      std::int64_t expect = 0;
      for (std::int64_t i = 0; i < log2i(K); ++i) expect += std::min<std::int64_t>(std::int64_t{1} << i, K / w);
      CHECK(site(r, "pbs.probe")->cost.wavefronts == static_cast<std::uint64_t>(expect));
    }
}

TEST_CASE("PBS-CF is conflict free in the DMM on every input tried; the offset mutation breaks it") {
  for (std::int64_t printed : {0, 1})
  for (std::int64_t w : {4, 8, 12, 16, 32})
    for (std::int64_t K : std::initializer_list<std::int64_t>{w, 2 * w + 3, w * w, 3 * w * w + 5, 4096})
      for (std::int64_t kb : {4, 8})
        for (std::uint64_t seed : {1u, 2u, 3u}) {
          CAPTURE(printed); CAPTURE(w); CAPTURE(K); CAPTURE(kb); CAPTURE(seed);
          auto r = run("pbs-cf", {{"w", w}, {"K", K}, {"key_bytes", kb}, {"queries", 8 * w}, {"u", 4 * w},
                                  {"printed", printed}},
                       "random", seed);
          CHECK(r.total.conflicts() == 0);
          CHECK(r.replayed_for_prediction == 0u);
          if (printed == 0) CHECK(r.outcome.output_ok);
        }
  // Without the per-lane offset, the worst-case queries pile onto one bank in stage 1.
  for (std::int64_t printed : {0, 1}) {
    auto r = run("pbs-cf", {{"w", 32}, {"K", 32 * 32 * 4}, {"queries", 32}, {"u", 32}, {"offset_stride", 0},
                            {"printed", printed}}, "worst");
    CHECK(site(r, "pbs-cf.probe")->cost.conflicts() > 0);
    CHECK(r.outcome.output_ok);
  }
}

TEST_CASE("PBS-CL: stage 1 conflict free, stage 2 within w - 1 accesses per warp") {
  for (std::int64_t printed : {0, 1})
  for (std::int64_t w : {4, 8, 16, 32})
    for (std::int64_t K : std::initializer_list<std::int64_t>{w, w * w, 4 * w * w, 1000})
      for (const char* input : {"random", "worst"}) {
        if (std::string(input) == "worst" && K % w != 0) continue;
        const std::string in = input;
        CAPTURE(printed); CAPTURE(w); CAPTURE(K); CAPTURE(in);
        const std::int64_t Q = 16 * w;
        auto r = run("pbs-cl", {{"w", w}, {"K", K}, {"queries", Q}, {"u", 2 * w}, {"printed", printed}}, input);
        const auto* probe = site(r, "pbs-cl.probe");
        if (probe) CHECK(probe->cost.conflicts() == 0);
        if (const auto* check = site(r, "pbs-cl.window_check")) CHECK(check->cost.conflicts() == 0);
        if (printed == 0 || (in == "worst" && (K & (K - 1)) == 0)) CHECK(r.outcome.output_ok);  // printed: see above
        REQUIRE(r.replayed_for_prediction);
        CHECK(*r.replayed_for_prediction <= static_cast<std::uint64_t>((w - 1) * (Q / w)));
      }
}

TEST_CASE("domain violations name the constraint") {
  const auto model = make_preset("dmm", 32);
  const auto in = InputChoice::parse("random", 1);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs-cf", {{"K", 16}, {"printed", 1}}, in, model), doctest::Contains("K >= w"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs-cl", {{"printed", 2}}, in, model), doctest::Contains("printed must be 0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"printed", 1}}, in, model), doctest::Contains("no parameter"),
                       std::invalid_argument);
  CHECK(run_algorithm("pbs-cf", {{"K", 16}}, in, model).outcome.output_ok);  // corrected: any K >= 1
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"key_bytes", 2}}, in, model), doctest::Contains("key_bytes"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"queries", 0}}, in, model), doctest::Contains("queries"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"E", 3}}, in, model), doctest::Contains("no parameter"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"K", 100}}, InputChoice::parse("worst", 1), model),
                       doctest::Contains("K ≡ 0 (mod w)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_algorithm("pbs", {{"w", 16}}, in, model), doctest::Contains("warp"),
                       std::invalid_argument);
  CHECK_THROWS_AS(run_algorithm("nope", {}, in, model), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// The corrected variants, run directly (no registry): random sorted keys with
// duplicates, queries around and on them, answers against std::upper_bound
// computed here, and costs through the DMM per instruction.
namespace {

struct DirectRun {
  std::vector<long> answers;
  std::map<std::string, CostTotals> sites;
  std::uint64_t max_binary_per_warp = 0;  ///< PBS-CL stage 2 wavefronts of one warp's query phase
  std::uint64_t probe_instructions_per_warp = 0;  ///< the largest, over warps and phases
};

class DirectListener final : public InstructionListener {
 public:
  explicit DirectListener(const BankModel& m) : model_(m) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    const RequestCost c = model_.cost(request);
    run.sites[std::string(info.name)].add(info.active, c);
    const auto key = std::make_tuple(info.block, info.warp_index, info.phase);
    if (info.name.ends_with(".binary")) binary_[key] += c.wavefronts;
    if (info.name.ends_with(".probe")) ++probes_[key];
  }
  DirectRun finish() {
    for (const auto& [k, v] : binary_) run.max_binary_per_warp = std::max(run.max_binary_per_warp, v);
    for (const auto& [k, v] : probes_) run.probe_instructions_per_warp = std::max(run.probe_instructions_per_warp, v);
    return std::move(run);
  }
  DirectRun run;

 private:
  const BankModel& model_;
  std::map<std::tuple<std::uint64_t, unsigned, unsigned>, std::uint64_t> binary_, probes_;
};

template <class Key, PbsVariant V>
DirectRun run_direct(int w, const std::vector<Key>& keys, const std::vector<Key>& queries, int u) {
  PbsSearch<Key, V> algo;
  algo.w = w;
  algo.K = static_cast<long>(keys.size());
  algo.threads = u;
  algo.per_thread = 2;
  algo.keys = keys.data();
  const auto model = make_preset("dmm", static_cast<unsigned>(w));
  DirectListener listener(model);
  listener.run.answers.assign(queries.size(), -7);
  const long chunk = 2L * u;
  for (long first = 0, b = 0; first < static_cast<long>(queries.size()); first += chunk, ++b) {
    algo.queries = queries.data() + first;
    algo.answers = listener.run.answers.data() + first;
    algo.valid = std::min(chunk, static_cast<long>(queries.size()) - first);
    BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
    recorder.run(algo, static_cast<unsigned>(u), static_cast<unsigned>(w), listener, static_cast<std::uint64_t>(b));
  }
  return listener.finish();
}

template <class Key, PbsVariant V>
void check_corrected(int w, long K, std::mt19937_64& rng) {
  // Sorted keys with duplicates: steps 0..3 from a random start.
  std::vector<Key> keys(static_cast<std::size_t>(K));
  std::int64_t v = static_cast<std::int64_t>(rng() % 100) - 50;
  for (auto& k : keys) k = static_cast<Key>(v += static_cast<std::int64_t>(rng() % 4));
  const int u = 2 * w;
  std::vector<Key> queries(static_cast<std::size_t>(6 * u + 5));  // the last block partial
  const std::int64_t lo = static_cast<std::int64_t>(keys.front()) - 3, hi = static_cast<std::int64_t>(keys.back()) + 3;
  for (std::size_t i = 0; i < queries.size(); ++i)
    queries[i] = i % 3 == 0 ? keys[rng() % keys.size()] : static_cast<Key>(lo + static_cast<std::int64_t>(rng() % (hi - lo + 1)));
  const DirectRun r = run_direct<Key, V>(w, keys, queries, u);
  long wrong = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const long expect = static_cast<long>(std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin()) - 1;
    if (r.answers[i] != expect && wrong++ == 0)
      FAIL_CHECK("query " << i << " = " << static_cast<std::int64_t>(queries[i]) << " (thread " << i % u << "): answer "
                          << r.answers[i] << ", upper_bound - 1 = " << expect);
  }
  CHECK(wrong == 0);
  // Conflict free in the DMM: every site (stage 1 lanes in their offset's
  // bank, the scan's step i in bank offset + i).
  for (const auto& [name, cost] : r.sites) {
    CAPTURE(name);
    if (name.ends_with(".binary")) continue;
    CHECK(cost.conflicts() == 0);
  }
  // Stage 1 searches the K/w + 1 windows of a lane (w | K; one more window
  // otherwise): ceil(log2(windows)) probes per query, one wavefront each.
  const std::uint64_t windows = static_cast<std::uint64_t>((K - 1) / w + 2);
  CHECK(r.probe_instructions_per_warp <= log2_ceil(windows));
  if (K % w == 0) CHECK(r.probe_instructions_per_warp == log2_ceil(static_cast<std::uint64_t>(K / w + 1)));
  // HiPC IV-C: stage 2 of PBS-CL costs at most Σ_{i<log w} 2^i = w - 1 per warp (w a power of two).
  if constexpr (pbs_is_cl(V))
    if ((w & (w - 1)) == 0) CHECK(r.max_binary_per_warp <= static_cast<std::uint64_t>(w - 1));
}

}  // namespace

TEST_CASE("corrected PBS-CF/CL: answer == std::upper_bound - 1 for random queries, conflict free, CL within w - 1") {
  std::mt19937_64 rng(2015);
  for (int w : {1, 2, 3, 4, 8, 12, 16, 32})
    for (long K : std::initializer_list<long>{1, 2, w - 1L, w, w + 1L, 3L * w - 1, 100, 1000, 1024, 4096}) {
      if (K < 1) continue;
      CAPTURE(w); CAPTURE(K);
      check_corrected<std::int32_t, PbsVariant::cf_corrected>(w, K, rng);
      check_corrected<std::int64_t, PbsVariant::cf_corrected>(w, K, rng);
      check_corrected<std::int32_t, PbsVariant::cl_corrected>(w, K, rng);
      check_corrected<std::int64_t, PbsVariant::cl_corrected>(w, K, rng);
    }
}

TEST_CASE("the printed PBS-CF/CL fail the same direct check (the test can fail)") {
  std::vector<std::int32_t> keys(1000);
  for (int i = 0; i < 1000; ++i) keys[i] = 2 * i + 1;
  std::vector<std::int32_t> queries(640);
  std::mt19937 rng(3);
  for (auto& q : queries) q = static_cast<std::int32_t>(rng() % 2002);
  for (int variant = 0; variant < 2; ++variant) {
    const DirectRun r = variant == 0 ? run_direct<std::int32_t, PbsVariant::cf>(32, keys, queries, 64)
                                     : run_direct<std::int32_t, PbsVariant::cl>(32, keys, queries, 64);
    long wrong = 0;
    for (std::size_t i = 0; i < queries.size(); ++i)
      wrong += r.answers[i] != static_cast<long>(std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin()) - 1;
    CHECK(wrong > 100);
  }
}

TEST_CASE("the printed PBS-CF/CL end at w = 1 (one bank: every lane at offset 0) and answer a plain binary search") {
  // Stage 1's step halves to w = 1 and, unguarded, (1 + 1) / 2 = 1 forever.
  for (long K : {1L, 2L, 4L, 8L, 64L, 1024L}) {
    CAPTURE(K);
    std::vector<std::int32_t> keys(static_cast<std::size_t>(K));
    for (long i = 0; i < K; ++i) keys[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(3 * i);
    std::vector<std::int32_t> queries;
    for (long q = -2; q <= 3 * K + 1; ++q) queries.push_back(static_cast<std::int32_t>(q));
    for (int variant = 0; variant < 2; ++variant) {
      const DirectRun r = variant == 0 ? run_direct<std::int32_t, PbsVariant::cf>(1, keys, queries, 2)
                                       : run_direct<std::int32_t, PbsVariant::cl>(1, keys, queries, 2);
      for (std::size_t i = 0; i < queries.size(); ++i) {
        // Printed PBS-CL never checks K[index] <= q: below K[0] it answers 0 (docs/claims.md, findings).
        if (variant == 1 && queries[i] < keys.front()) continue;
        CHECK(r.answers[i] == static_cast<long>(std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin()) - 1);
      }
    }
  }
}

TEST_CASE("corrected PBS-CL reaches the w - 1 stage-2 bound on the V-B worst queries") {
  for (std::int64_t w : {8, 32}) {
    const std::int64_t K = 4 * w * w, Q = 4 * w;
    auto r = run("pbs-cl", {{"w", w}, {"K", K}, {"queries", Q}, {"u", w}}, "worst");
    CHECK(r.outcome.output_ok);
    CHECK(site(r, "pbs-cl.binary")->cost.wavefronts == static_cast<std::uint64_t>((w - 1) * (Q / w)));
  }
}

}  // namespace pbs_test
