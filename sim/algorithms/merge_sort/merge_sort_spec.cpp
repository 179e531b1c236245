// Registry entry `merge-sort` (sim/algorithms/algorithm_registry.hpp): the whole
// pairwise merge sort of sim/algorithms/merge_sort/merge_sort.hpp (CUB DeviceMergeSort's tile
// kernel, then global passes over runs of 1, 2, 4, ... tiles), baseline (CUB
// SerialMerge) or CF-Merge, on n keys.
//
//   bankcheck run merge-sort E=17 u=256 n=N --input worst|random|FILE [--per-round]
//
// Kernels run one after the other through the same listener, so each one's
// phases are numbered after the previous kernel's: the tile kernel has phases
// 0 .. 2 + log2(u) (baseline: phase 2 + r is in-block merge round r, groups
// of m = 2^(r+1) threads; cf: two phases per round), then global pass i
// (runs of 2^(i-1) tiles) has 3 phases (cf: 4) of which the second is the
// merge. `--per-round` lists the SerialMerge reads (init_a, init_b,
// merge_read) of each pass under its phase.
//
// --input worst is the whole-sort adversary (sim/inputs/merge_sort_adversary.hpp;
// its searched passes capped by iterations, so the input is the same on every
// run for a seed), and the prediction is the adversary's own per-pass count
// of those reads, summed (exact: the replay must equal it).
#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <utility>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/algorithms/merge_sort/merge_sort.hpp"
#include "sim/algorithms/merge_sort/merge_sort_recording.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {

namespace {

constexpr int kMaxItems = 32;  // E is a template parameter of sim/algorithms/merge_sort/merge_sort.hpp: 1..32 are compiled

using namespace spec_support;

/// Renumbers phases so that kernels run one after another keep distinct
/// phases, and site ids so that the pass kernel's sites (the same enum as the
/// tile kernel's) are counted under their own names.
class PhaseOffset final : public InstructionListener {
 public:
  explicit PhaseOffset(InstructionListener& out) : out_(out) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    InstructionInfo shifted = info;
    shifted.phase += offset;
    shifted.site += site_offset;
    out_.instruction(shifted, request);
  }
  unsigned offset = 0;
  unsigned site_offset = 0;

 private:
  InstructionListener& out_;
};

/// n, with 0 meaning four tiles.
std::int64_t sort_keys(const Params& p) {
  const std::int64_t n = param(p, "n");
  return n == 0 ? 4 * param(p, "u") * param(p, "E") : n;
}

void validate_merge_sort(const Params& p) {
  const auto w = param(p, "w"), E = param(p, "E"), u = param(p, "u"), n = sort_keys(p), v = param(p, "variant");
  require(w >= 1 && w <= 1024, "w must be in 1..1024 (got " + num(w) + ")");
  require(E >= 1 && E <= kMaxItems, "E (items per thread) must be in 1.." + num(kMaxItems) + " (got " + num(E) + ")");
  require(u >= 1 && u <= 4096 && std::has_single_bit(static_cast<std::uint64_t>(u)) && u % w == 0,
          "u (threads per block) must be a power of two in 1..4096 and a multiple of w = " + num(w) + " (got " +
              num(u) + ")");
  require(v == 0 || v == 1, "variant must be 0 (baseline, CUB SerialMerge) or 1 (CF-Merge) (got " + num(v) + ")");
  require(param(p, "wide") == 0 || param(p, "wide") == 1, "wide must be 0 or 1 (got " + num(param(p, "wide")) + ")");
  const std::int64_t T = u * E;
  require(n >= T && n % T == 0 && std::has_single_bit(static_cast<std::uint64_t>(n / T)),
          "n must be 0 (4 tiles) or the tile u*E = " + num(T) + " times a power of two, in " + num(T) +
              "..2^31-1 (got " + num(n) + ")");
  require(n <= std::numeric_limits<std::int32_t>::max(),
          "n must be in " + num(T) + "..2^31-1 (4-byte keys) (got " + num(n) + ")");
}

/// The input keys: a random permutation, the adversary's permutation, or a file.
std::vector<std::int32_t> sort_input(const Params& p, const InputChoice& in,
                                     std::optional<inputs::MergeSortAdversary>& adversary) {
  const auto w = static_cast<unsigned>(param(p, "w")), E = static_cast<unsigned>(param(p, "E")),
             u = static_cast<unsigned>(param(p, "u"));
  const auto n = static_cast<std::size_t>(sort_keys(p));
  std::vector<std::int32_t> keys;
  switch (in.kind) {
    case InputChoice::Kind::random: {
      keys.resize(n);
      std::iota(keys.begin(), keys.end(), 0);
      inputs::Random rng(in.seed);
      std::shuffle(keys.begin(), keys.end(), rng);
      break;
    }
    case InputChoice::Kind::worst: {
      const inputs::MergeSortShape shape{u, E, w, n};
      adversary.emplace(shape, inputs::SearchBudget{3600, in.seed, inputs::kMergeSortWorstIterations},
                        param(p, "wide") == 1 ? inputs::MergeSortAdversary::WidePasses::warp_search
                                              : inputs::MergeSortAdversary::WidePasses::section4);
      keys.resize(n);
      adversary->generate(std::span<std::int32_t>(keys));
      break;
    }
    case InputChoice::Kind::file: {
      for (std::int64_t v : input_integers(in)) {
        require(v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max(),
                in.path + ": key " + num(v) + " does not fit 4 bytes");
        keys.push_back(static_cast<std::int32_t>(v));
      }
      const std::int64_t T = static_cast<std::int64_t>(u) * E, m = static_cast<std::int64_t>(keys.size());
      require(m >= T && m % T == 0 && std::has_single_bit(static_cast<std::uint64_t>(m / T)),
              in.path + ": holds " + num(m) + " keys; the sort needs the tile u*E = " + num(T) +
                  " times a power of two (n is taken from the file)");
      break;
    }
  }
  return keys;
}

template <int E>
AlgorithmOutcome drive_merge_sort(const Params& p, const InputChoice& in, InstructionListener& listener) {
  const int w = static_cast<int>(param(p, "w")), u = static_cast<int>(param(p, "u"));
  const auto variant = param(p, "variant") == 1 ? MergeSortVariant::cf : MergeSortVariant::baseline;
  std::optional<inputs::MergeSortAdversary> adversary;
  const std::vector<std::int32_t> input = sort_input(p, in, adversary);
  const long n = static_cast<long>(input.size());
  PhaseOffset out(listener);
  AlgorithmOutcome outcome;

  MergeSortStageHooks hooks;
  hooks.before = [&out](int stage, int previous_phases) {
    out.offset += static_cast<unsigned>(previous_phases);  // phases of later kernels follow the earlier ones'
    if (stage == 1) out.site_offset = static_cast<unsigned>(std::size(MergeSortSites::kSiteNames));
  };
  const std::vector<std::int32_t> cur = record_merge_sort<E>(variant, w, u, input, out, hooks, outcome.blocks);

  std::vector<std::int32_t> expect = input;
  std::sort(expect.begin(), expect.end());
  outcome.output_checked = true;
  outcome.check = "sorted output == std::sort(input)";
  outcome.items = static_cast<std::uint64_t>(n);
  for (long i = 0; i < n; ++i)
    if (cur[i] != expect[i]) {
      if (outcome.wrong++ == 0)
        outcome.first_wrong = "position " + num(i) + ": " + num(cur[i]) + " instead of " + num(expect[i]);
    }
  outcome.output_ok = outcome.wrong == 0;

  Prediction pr;
  pr.model = "dmm";
  if (variant == MergeSortVariant::cf) {
    pr.formula = "CF-Merge's dual subsequence gather is bank-conflict free in every round and pass (SPAA 2025 "
                 "Section 3, Algorithm 1)";
    pr.quantity = "conflicts";
    pr.sites = {"merge-sort-tile.gather", "merge-sort-pass.gather"};
    pr.value = 0;
    outcome.prediction = pr;
  } else if (adversary) {
    boost::multiprecision::cpp_int planned = 0;
    for (const auto& c : adversary->pass_costs()) planned += c.serial_merge_wavefronts;
    pr.formula = "the adversary's planned SerialMerge reads, summed over its passes (proofs/merge_sort_adversary: "
                 "Theorem 8 per warp in every pass of >= 2 warps per merge, SPAA 2025 Section 4)";
    pr.quantity = "wavefronts";
    pr.sites = {"merge-sort-tile.init_a", "merge-sort-tile.init_b", "merge-sort-tile.merge_read",
                "merge-sort-pass.init_a", "merge-sort-pass.init_b", "merge-sort-pass.merge_read"};
    pr.value = planned;
    outcome.prediction = pr;
  }
  return outcome;
}

using Driver = AlgorithmOutcome (*)(const Params&, const InputChoice&, InstructionListener&);

template <int... I>
constexpr std::array<Driver, sizeof...(I)> drivers(std::integer_sequence<int, I...>) {
  return {&drive_merge_sort<I + 1>...};
}

AlgorithmSpec merge_sort_spec() {
  AlgorithmSpec s;
  s.name = "merge-sort";
  s.description = "whole pairwise merge sort, CUB DeviceMergeSort's kernels (tile sort, global passes), baseline or "
                  "CF-Merge (SPAA 2025 Sections 2, 3.3, 5)";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"E", 17, "items per thread, 1..32 (CUB sm_90: 17; SPAA: 15)"},
              {"u", 256, "threads per block, a power of two, a multiple of w (CUB sm_90: 256; SPAA: 512)"},
              {"n", 0, "keys: the tile u*E times a power of two; 0 = 4 tiles (ignored with --input FILE)"},
              {"variant", 0, "0 = baseline (CUB SerialMerge), 1 = CF-Merge"},
              {"wide", 0, "--input worst, passes of >= 2 warps per merge: 0 = SPAA 2025 Section 4 (Theorem 8), "
                          "1 = the searched warp labeling (beyond Theorem 8 for w = 32, E = 15, 17)"}};
  s.worst_case = "the whole-sort adversary (proofs/merge_sort_adversary): every in-block and global pass meets the "
                 "planned worst-case splits in every warp (SPAA 2025 Section 4 for merges of >= 2 warps); needs "
                 "1 < E <= w, w a power of two, u >= 2w";
  s.validate = validate_merge_sort;
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    static constexpr auto table = drivers(std::make_integer_sequence<int, kMaxItems>{});
    return table[static_cast<std::size_t>(param(p, "E") - 1)](p, in, out);
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> merge_sort_specs() { return {merge_sort_spec()}; }

}  // namespace bankcheck
