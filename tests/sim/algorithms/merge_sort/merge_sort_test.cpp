// The full pairwise merge sort (sim/algorithms/merge_sort/merge_sort.hpp) run block by block through
// BlockRecorder, both variants, for several (w, E, u) including E not coprime
// with w: every stage's output equals std::sort of the input's chunks (the
// independent reference); CF-Merge's gather is conflict free in the DMM in
// every round and pass (SPAA 2025 Theorem 1 / Section 3.3); on the
// adversary's permutation (sim/inputs/merge_sort_adversary.hpp) the baseline's
// SerialMerge reads reach Theorem 8's per-warp count (model/analytic.hpp) in
// every pass the adversary builds by Section 4, and CF-Merge's gather stays at
// one wavefront per request.
#include "sim/algorithms/merge_sort/merge_sort.hpp"
#include "sim/algorithms/merge_sort/merge_sort_recording.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "model/analytic.hpp"
#include "model/bank_model.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/algorithms/block_recorder.hpp"

using namespace bankcheck;

namespace {

/// DMM cost per (stage, phase, site); stage 0 = tile kernel, k >= 1 = global pass k.
struct Cost {
  std::uint64_t instructions = 0, wavefronts = 0, conflicts = 0;
};
struct StageListener final : InstructionListener {
  explicit StageListener(const BankModel& m) : model(m) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    const RequestCost c = model.cost(request);
    Cost& t = costs[{stage, info.phase, std::string(info.name)}];
    ++t.instructions;
    t.wavefronts += c.wavefronts;
    t.conflicts += c.conflicts();
  }
  Cost site(unsigned s, unsigned phase, const std::string& name) const {
    auto it = costs.find({s, phase, name});
    return it == costs.end() ? Cost{} : it->second;
  }
  Cost site_all(const std::string& name) const {  // every stage and phase
    Cost t;
    for (const auto& [k, c] : costs)
      if (std::get<2>(k) == name) {
        t.instructions += c.instructions;
        t.wavefronts += c.wavefronts;
        t.conflicts += c.conflicts;
      }
    return t;
  }
  const BankModel& model;
  unsigned stage = 0;
  std::map<std::tuple<unsigned, unsigned, std::string>, Cost> costs;
};

struct SortRun {
  std::vector<std::vector<std::int32_t>> stages;  ///< output after the tile kernel and each pass
  std::vector<int> merge_phase;                   ///< tile: phase of merge round r (index r)
};

/// The whole sort on the CPU, block by block, the way the kernels run it.
template <int E>
SortRun sort_on_cpu(MergeSortVariant v, int w, int u, const std::vector<std::int32_t>& input, StageListener& out) {
  SortRun r;
  MergeSortTile<std::int32_t, E> tile;
  tile.set_shape(w, u);
  for (int k = 0; k < tile.rounds(); ++k) r.merge_phase.push_back(tile.merge_phase(k));
  MergeSortStageHooks hooks;
  hooks.before = [&out](int stage, int) { out.stage = static_cast<unsigned>(stage); };
  hooks.after = [&r](const std::vector<std::int32_t>& keys) { r.stages.push_back(keys); };
  std::uint64_t blocks = 0;
  record_merge_sort<E>(v, w, u, input, out, hooks, blocks);
  return r;
}

/// Independent reference: the input with every chunk of `chunk` keys sorted.
std::vector<std::int32_t> chunk_sorted(std::vector<std::int32_t> v, long chunk) {
  for (std::size_t i = 0; i < v.size(); i += chunk) std::sort(v.begin() + i, v.begin() + i + chunk);
  return v;
}

std::vector<std::int32_t> random_permutation(long n, unsigned seed) {
  std::vector<std::int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  std::mt19937 gen(seed);
  std::shuffle(v.begin(), v.end(), gen);
  return v;
}

struct Shape {
  int w, u;
  long tiles;
};

/// The CF variant: its gathers conflict-free, one wavefront each, and no baseline read left.
void check_cf_run(StageListener& costs) {
  const Cost g = costs.site_all("merge-sort-tile.gather"), gp = costs.site_all("merge-sort-pass.gather");
  CHECK(g.instructions > 0);
  CHECK(g.conflicts == 0);
  CHECK(gp.conflicts == 0);
  CHECK(g.wavefronts == g.instructions);  // one wavefront per gather request
  // The baseline's reads are absent from the CF run and vice versa.
  CHECK(costs.site_all("merge-sort-tile.merge_read").instructions == 0);
}

/// The baseline's reads per adversary pass: on random keys they are recorded in
/// `random_reads`; on the worst case every pass built by Section 4 reaches
/// Theorem 8 in every warp, and costs more than the same pass on random keys.
template <int E>
void check_baseline_passes(const inputs::MergeSortAdversary& adversary, const SortRun& r, StageListener& costs,
                           bool is_worst, std::map<std::string, std::uint64_t>& random_reads,
                           std::uint64_t warps_per_pass, std::uint64_t theorem8) {
  unsigned block_round = 0, global_pass = 0;
  for (const auto& plan : adversary.passes()) {
    CAPTURE(plan.name);
    Cost c;
    const std::string prefix = plan.global ? "merge-sort-pass." : "merge-sort-tile.";
    const unsigned stage = plan.global ? ++global_pass : 0;
    const unsigned phase = plan.global ? 1 : static_cast<unsigned>(r.merge_phase.at(block_round++));
    for (const char* site : {"init_a", "init_b", "merge_read"}) {
      const Cost x = costs.site(stage, phase, prefix + site);
      c.wavefronts += x.wavefronts;
      c.instructions += x.instructions;
    }
    CHECK(c.instructions == warps_per_pass * (E + 1));
    if (!is_worst) {
      random_reads[plan.name] = c.wavefronts;
      continue;
    }
    if (plan.source == "section-4") {
      CHECK(c.wavefronts >= theorem8);
      CHECK(c.wavefronts > random_reads.at(plan.name));
    }
    CHECK(c.wavefronts <= warps_per_pass * (static_cast<std::uint64_t>(E) * E + 2 * E));
    MESSAGE(plan.name << " (" << plan.source << "): SerialMerge reads " << c.wavefronts
                      << " DMM wavefronts, random keys " << random_reads.at(plan.name) << ", Theorem 8 " << theorem8);
  }
}

/// The checks of one shape, both variants, random and worst-case inputs.
template <int E>
void check_shape(Shape s) {
  CAPTURE(s.w);
  CAPTURE(E);
  CAPTURE(s.u);
  const long T = static_cast<long>(s.u) * E, n = T * s.tiles;
  const BankModel dmm = make_preset("dmm", static_cast<unsigned>(s.w));
  const inputs::MergeSortShape shape{static_cast<unsigned>(s.u), E, static_cast<unsigned>(s.w),
                                     static_cast<std::uint64_t>(n)};
  const inputs::MergeSortAdversary adversary(shape, inputs::SearchBudget{0.05, 7, 20000});
  std::vector<std::int32_t> worst(n);
  adversary.generate(std::span<std::int32_t>(worst));
  const std::vector<std::int32_t> random = random_permutation(n, 17u * E + static_cast<unsigned>(s.u));
  const std::uint64_t warps_per_pass = static_cast<std::uint64_t>(n) / (static_cast<std::uint64_t>(s.w) * E);
  const std::uint64_t theorem8 =
      static_cast<std::uint64_t>(analytic::merge_worst_conflicts_per_warp(s.w, E)) * warps_per_pass;

  std::map<std::string, std::uint64_t> random_reads;  // baseline, per adversary pass
  const std::vector<std::int32_t>* inputs[] = {&random, &worst};
  for (const std::vector<std::int32_t>* input : inputs)
    for (MergeSortVariant v : {MergeSortVariant::baseline, MergeSortVariant::cf}) {
      const bool is_worst = input == &worst;
      CAPTURE(is_worst);
      CAPTURE(static_cast<int>(v));
      StageListener costs(dmm);
      const SortRun r = sort_on_cpu<E>(v, s.w, s.u, *input, costs);
      // Sorted: every stage equals std::sort of the input's chunks of T * 2^stage keys.
      for (std::size_t k = 0; k < r.stages.size(); ++k) {
        CAPTURE(k);
        CHECK(r.stages[k] == chunk_sorted(*input, T << k));
      }
      if (v == MergeSortVariant::cf) {
        check_cf_run(costs);
        continue;
      }
      CHECK(costs.site_all("merge-sort-tile.gather").instructions == 0);
      check_baseline_passes<E>(adversary, r, costs, is_worst, random_reads, warps_per_pass, theorem8);
    }
}

}  // namespace

TEST_CASE("merge sort: sorted output, conflict-free CF gather, baseline worst case reaches Theorem 8") {
  SUBCASE("w=8 E=3 u=16 (coprime)") { check_shape<3>({8, 16, 4}); }
  SUBCASE("w=8 E=4 u=16 (d=4)") { check_shape<4>({8, 16, 4}); }
  SUBCASE("w=8 E=6 u=32 (d=2)") { check_shape<6>({8, 32, 4}); }
  SUBCASE("w=32 E=15 u=64") { check_shape<15>({32, 64, 4}); }
  SUBCASE("w=32 E=17 u=64") { check_shape<17>({32, 64, 2}); }
  SUBCASE("w=32 E=16 u=64 (d=16)") { check_shape<16>({32, 64, 2}); }
  SUBCASE("w=32 E=12 u=128 (d=4)") { check_shape<12>({32, 128, 2}); }
}

TEST_CASE("hand-computed: w = 4, E = 2, u = 4, one tile sorted by both variants") {
  // 8 keys; each thread sorts its 2, then rounds of 2 and 4 threads.
  const std::vector<std::int32_t> input = {7, 3, 0, 5, 6, 1, 4, 2};
  for (MergeSortVariant v : {MergeSortVariant::baseline, MergeSortVariant::cf}) {
    const BankModel dmm = make_preset("dmm", 4);
    StageListener costs(dmm);
    const SortRun r = sort_on_cpu<2>(v, 4, 4, input, costs);
    CHECK(r.stages.back() == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    // Staging: one warp, 2 warp-striped stores of 4 consecutive keys: 1 wavefront each.
    CHECK(costs.site(0, 0, "merge-sort-tile.stage").wavefronts == 2);
    // Blocked read at stride E = 2 over 4 banks: lanes 0 and 2 share a bank, 2 wavefronts per read, 2 reads.
    CHECK(costs.site(0, 1, "merge-sort-tile.load_blocked").wavefronts == 4);
  }
}
