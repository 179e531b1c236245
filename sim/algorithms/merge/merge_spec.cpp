// Registry entries merge and cf-merge (sim/algorithms/merge/pairwise_merge.hpp,
// sim/algorithms/merge/cf_merge.hpp): one block-wide pairwise merge per tile of
// A (sorted) then B (sorted), on random tiles, SPAA 2025 Section 4's
// worst-case tile (sim/inputs/merge_adversary.hpp) or a file; the merged
// output (merge) or the gathered items and splits (cf-merge) are checked.
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/analytic.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/pairwise_merge.hpp"
#include "sim/algorithms/select.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/merge_adversary.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

// cf_merge.hpp is also C++17 (kernels/cf_merge_sort.cuh): the protocol check lives here.
static_assert(BlockAlgorithm<CfMerge<std::int32_t>>);

std::vector<ParamSpec> merge_params(bool cf) {
  std::vector<ParamSpec> v = {
      {"w", 32, "warp size = banks, 1..1024"},
      {"E", 15, "items per thread, 1..256"},
      {"u", 256, cf ? "threads per block, a multiple of w (SPAA 2025 Section 3)" : "threads per block, >= 1"},
      {"key_bytes", 4, "key size in bytes: 4 or 8"},
      {"blocks", 1, "independent block tiles, 1..2^32 (ignored with --input FILE)"},
      {"a_size", -1, "|A| per block in 0..u*E; -1 = uniformly random per block"}};
  if (cf) {
    v.push_back({"reverse_b", 1, "1 = store B reversed (π, the paper); 0 = mutation"});
    v.push_back({"circular_shift", 1, "1 = circular shift ρ when gcd(w,E) > 1 (the paper); 0 = mutation"});
    v.push_back({"scatter", 0, "1 = also run the inverse scatter (footnote 5)"});
    v.push_back({"random_splits", 0, "1 = gather for random valid splits instead of merge-path splits"});
  }
  return v;
}

void validate_merge(const Params& p, bool cf) {
  const auto w = param(p, "w"), E = param(p, "E"), u = param(p, "u"), kb = param(p, "key_bytes"),
             blocks = param(p, "blocks"), a = param(p, "a_size");
  require(w >= 1 && w <= 1024, "w must be in 1..1024 (got " + num(w) + ")");
  require(E >= 1 && E <= 256, "E (items per thread) must be in 1..256 (got " + num(E) + ")");
  require(u >= 1 && u <= 4096, "u (threads per block) must be in 1..4096 (got " + num(u) + ")");
  if (cf) require(u % w == 0, "CF-Merge needs u a multiple of w (got u = " + num(u) + ", w = " + num(w) + ")");
  require(kb == 4 || kb == 8, "key_bytes must be 4 or 8 (got " + num(kb) + ")");
  require(blocks >= 1 && blocks <= (std::int64_t{1} << 32), "blocks must be in 1..2^32 (got " + num(blocks) + ")");
  require(a == -1 || (a >= 0 && a <= u * E), "a_size must be -1 or in 0..u*E = " + num(u * E) + " (got " + num(a) + ")");
  if (cf)
    for (const char* flag : {"reverse_b", "circular_shift", "scatter", "random_splits"})
      require(param(p, flag) == 0 || param(p, flag) == 1, std::string(flag) + " must be 0 or 1");
}

// One block's input: A (sorted) then B (sorted), with |A| = a_count.
template <class Key>
struct MergeTile {
  std::vector<Key> keys;
  long a_count = 0;
};

// SPAA 2025 Section 4 worst case for one block: every warp gets the
// sequence T of Theorem 8 (sim/inputs/merge_adversary.hpp), warps alternating the
// A-major and B-major forms; each warp takes whole bank columns of A and of
// B, so with A then B in shared memory every warp starts at a column boundary
// as the construction assumes. Output k of the merge has key k.
inputs::MergeLists worst_merge_tile(const Params& p) {
  const auto w = param(p, "w"), E = param(p, "E"), u = param(p, "u");
  require(u % w == 0, "--input worst (SPAA 2025 Section 4) needs whole warps: u a multiple of w (got u = " + num(u) +
                          ", w = " + num(w) + ")");
  require(param(p, "a_size") == -1, "--input worst sets |A| itself (Section 4 construction): leave a_size at -1");
  inputs::Section4Parameters s4;
  try {
    s4 = inputs::section4_parameters(static_cast<unsigned>(w), static_cast<unsigned>(E));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--input worst: ") + e.what());
  }
  std::vector<std::uint8_t> labels;
  for (std::int64_t v = 0; v < u / w; ++v) {
    const auto warp_labels = inputs::labels_from_splits(inputs::worst_warp_splits(s4, v % 2 == 0), s4.warp);
    labels.insert(labels.end(), warp_labels.begin(), warp_labels.end());
  }
  return inputs::merge_lists_from_labels(labels);
}

template <class Key>
class MergeInputs {
 public:
  MergeInputs(const Params& p, const InputChoice& in) : in_(in), rng_(in.seed) {
    n_ = param(p, "u") * param(p, "E");
    a_size_ = param(p, "a_size");
    blocks_ = param(p, "blocks");
    if (in.kind == InputChoice::Kind::worst) worst_ = worst_merge_tile(p);
    if (in.kind == InputChoice::Kind::file) {
      file_ = input_integers(in);
      require(static_cast<long>(file_.size()) == n_,
              in.path + ": a merge file holds one tile of u*E = " + num(n_) + " integers (A then B), got " +
                  num(static_cast<std::int64_t>(file_.size())));
      require(a_size_ >= 0, "with --input FILE give a_size (the length of A at the start of the file)");
      blocks_ = 1;
    }
  }
  std::int64_t blocks() const { return blocks_; }
  /// The next block's tile (valid until the next call: one buffer, reused).
  const MergeTile<Key>& next() {
    MergeTile<Key>& t = tile_;
    // |A| through the standard distribution, so that the random-input counts
    // in docs/adversaries.md reproduce (libstdc++'s mapping).
    t.a_count = a_size_ >= 0 ? a_size_ : std::uniform_int_distribution<long>(0, n_)(rng_);
    if (in_.kind == InputChoice::Kind::worst) {  // the same Section 4 tile in every block
      t.a_count = static_cast<long>(worst_.a.size());
      t.keys.clear();
      for (auto k : worst_.a) t.keys.push_back(static_cast<Key>(k));
      for (auto k : worst_.b) t.keys.push_back(static_cast<Key>(k));
      return t;
    }
    t.keys.resize(n_);
    if (in_.kind == InputChoice::Kind::file) {
      for (long i = 0; i < n_; ++i) t.keys[i] = static_cast<Key>(file_[i]);
    } else {
      // Sorted by construction: running sums of random steps 0..7 (ties
      // included), 21 three-bit steps per 64-bit draw (a draw per key would
      // make the generator a quarter of `run merge`'s time).
      std::uint64_t bits = 0;
      int left = 0;
      auto step = [&] {
        if (left == 0) {
          bits = rng_();
          left = 21;
        }
        const auto s = static_cast<std::int64_t>(bits & 7);
        bits >>= 3;
        --left;
        return s;
      };
      std::int64_t a = 0, b = 0;
      for (long i = 0; i < t.a_count; ++i) t.keys[i] = static_cast<Key>(a += step());
      for (long i = t.a_count; i < n_; ++i) t.keys[i] = static_cast<Key>(b += step());
      return t;
    }
    std::sort(t.keys.begin(), t.keys.begin() + t.a_count);
    std::sort(t.keys.begin() + t.a_count, t.keys.end());
    return t;
  }
  inputs::Random& rng() { return rng_; }

 private:
  InputChoice in_;
  inputs::Random rng_;
  long n_ = 0, a_size_ = -1;
  std::int64_t blocks_ = 1;
  std::vector<std::int64_t> file_;
  inputs::MergeLists worst_;
  MergeTile<Key> tile_;
};

// Reference split: how many of A are among the first diag of the stable merge.
template <class Key>
std::vector<long> reference_splits(const MergeTile<Key>& t, long E, long u) {
  std::vector<long> a_at(u + 1);
  long a = 0, b = 0;
  const long na = t.a_count, n = static_cast<long>(t.keys.size());
  for (long pos = 0; pos <= n; ++pos) {
    if (pos % E == 0 && pos / E <= u) a_at[pos / E] = a;
    if (pos == n) break;
    const bool take_b = b < n - na && (a >= na || t.keys[na + b] < t.keys[a]);
    take_b ? ++b : ++a;
  }
  return a_at;
}

// The stable merge of sorted a and b (ties from a), as std::merge, with
// selects instead of a data-dependent branch per item (sim/algorithms/select.hpp): the
// reference check of every merged tile is on `run merge`'s hot path (1.35 ns
// per key against std::merge's 1.9 on the development machine).
template <class Key>
void reference_merge(const Key* a, long na, const Key* b, long nb, Key* out) {
  long i = 0, j = 0;
  while (i < na && j < nb) {
    const bool take_b = b[j] < a[i];
    *out++ = select<Key>(take_b, b[j], a[i]);
    j += take_b;
    i += !take_b;
  }
  out = std::copy(a + i, a + na, out);
  std::copy(b + j, b + nb, out);
}

template <class Key>
AlgorithmOutcome drive_merge(const Params& p, const InputChoice& in, InstructionListener& out) {
  PairwiseMerge<Key> algo;
  algo.E = static_cast<int>(param(p, "E"));
  algo.threads = static_cast<int>(param(p, "u"));
  const auto w = static_cast<unsigned>(param(p, "w"));
  MergeInputs<Key> inputs(p, in);
  BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
  std::vector<Key> merged(algo.tile_size()), expect(algo.tile_size());
  AlgorithmOutcome outcome;
  outcome.output_checked = true;
  outcome.output_ok = true;
  outcome.check = "merged tile == std::merge(A, B)";
  for (std::int64_t b = 0; b < inputs.blocks(); ++b) {
    const MergeTile<Key>& t = inputs.next();
    algo.a_count = t.a_count;
    algo.tile = t.keys.data();
    algo.out = merged.data();
    recorder.run(algo, static_cast<unsigned>(algo.threads), w, out, static_cast<std::uint64_t>(b));
    reference_merge(t.keys.data(), t.a_count, t.keys.data() + t.a_count, algo.tile_size() - t.a_count, expect.data());
    for (long i = 0; i < algo.tile_size(); ++i)
      if (merged[i] != expect[i]) {
        outcome.output_ok = false;
        if (outcome.wrong++ == 0)
          outcome.first_wrong = "block " + num(b) + " position " + num(i) + ": " +
                                num(static_cast<std::int64_t>(merged[i])) + " instead of " +
                                num(static_cast<std::int64_t>(expect[i]));
      }
    ++outcome.blocks;
    outcome.items += static_cast<std::uint64_t>(algo.tile_size());
  }
  if (in.kind == InputChoice::Kind::worst) {
    // Theorem 8 counts the E merge steps of each warp (every merged item read
    // once); CUB's SerialMerge reads those same items in its two initial loads
    // and E - 1 refills (plus one unconsumed head), so its replayed reads must
    // reach at least Theorem 8 on this input (docs/formula-findings.md, item 12).
    Prediction pr;
    pr.formula = "Theorem 8 (SPAA 2025 Section 4): E^2 per warp if E <= w/2, else (E^2 + 2Er + Ed - r^2 - rd)/2, "
                 "times u/w warps per block";
    pr.quantity = "wavefronts";
    pr.sites = {"merge.init_a", "merge.init_b", "merge.merge_read"};
    const auto warps = static_cast<std::uint64_t>(algo.threads / static_cast<long>(w)) * outcome.blocks;
    pr.value = analytic::merge_worst_conflicts_per_warp(w, static_cast<std::uint64_t>(algo.E)) * warps;
    pr.model = "dmm";
    pr.relation = Prediction::Relation::at_least;
    outcome.prediction = pr;
  }
  return outcome;
}

/// random_splits=1: a random interleaving of |A| a's and |B| b's; its prefix
/// counts are a valid split. Fills `given` (one per thread) and returns them
/// with |A| appended, as the reference.
template <class Key, class Rng>
std::vector<long> random_splits_of(const MergeTile<Key>& t, long n, long E, std::vector<long>& given, Rng& rng) {
  std::vector<char> from_a(n, 0);
  std::fill(from_a.begin(), from_a.begin() + t.a_count, 1);
  std::shuffle(from_a.begin(), from_a.end(), rng);
  long a = 0;
  for (long pos = 0; pos < n; ++pos) {
    if (pos % E == 0) given[pos / E] = a;
    a += from_a[pos];
  }
  std::vector<long> ref(given.begin(), given.end());
  ref.push_back(t.a_count);
  return ref;
}

/// Checks that each thread i gathered exactly A[ref_i, ref_i+1) and its part of B, and found split ref_i.
template <class Key>
void check_gathers(const MergeTile<Key>& t, const std::vector<long>& ref, const std::vector<long>& split_buf,
                   const std::vector<Key>& gathered, long E, long u, std::int64_t b, AlgorithmOutcome& outcome) {
  for (long i = 0; i < u; ++i) {
    std::vector<Key> got(gathered.begin() + i * E, gathered.begin() + (i + 1) * E), want;
    for (long x = ref[i]; x < ref[i + 1]; ++x) want.push_back(t.keys[x]);
    const long b_i = i * E - ref[i], b_len = E - (ref[i + 1] - ref[i]);
    for (long y = b_i; y < b_i + b_len; ++y) want.push_back(t.keys[t.a_count + y]);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    if (split_buf[i] == ref[i] && got == want) continue;
    outcome.output_ok = false;
    if (outcome.wrong++ == 0)
      outcome.first_wrong = "block " + num(b) + " thread " + num(i) + ": split " + num(split_buf[i]) +
                            " (reference " + num(ref[i]) + ")" + (got != want ? ", wrong items" : "");
  }
}

template <class Key>
AlgorithmOutcome drive_cf_merge(const Params& p, const InputChoice& in, InstructionListener& out) {
  CfMerge<Key> algo;
  CfLayout& L = algo.layout;
  L.w = static_cast<int>(param(p, "w"));
  L.E = static_cast<int>(param(p, "E"));
  L.threads = static_cast<int>(param(p, "u"));
  L.reverse_b = param(p, "reverse_b") == 1;
  L.circular_shift = param(p, "circular_shift") == 1;
  algo.scatter = param(p, "scatter") == 1;
  const bool random_splits = param(p, "random_splits") == 1;
  const long n = L.size(), E = L.E, u = L.threads;
  MergeInputs<Key> inputs(p, in);
  BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
  std::vector<Key> gathered(n);
  std::vector<long> split_buf(u + 1), given(u);
  AlgorithmOutcome outcome;
  outcome.output_checked = true;
  outcome.output_ok = true;
  outcome.check = random_splits ? "each thread gathers exactly A[a_t, a_t+|A_t|) and B[b_t, b_t+|B_t|)"
                                : "splits == stable merge path and each thread gathers exactly its A_t and B_t";
  for (std::int64_t b = 0; b < inputs.blocks(); ++b) {
    const MergeTile<Key>& t = inputs.next();
    L.a_count = t.a_count;
    std::vector<long> ref = reference_splits(t, E, u);
    if (random_splits) {
      ref = random_splits_of(t, n, E, given, inputs.rng());
      algo.splits = given.data();
    }
    algo.tile = t.keys.data();
    algo.split_buf = split_buf.data();
    algo.out = gathered.data();
    recorder.run(algo, static_cast<unsigned>(u), static_cast<unsigned>(L.w), out, static_cast<std::uint64_t>(b));
    check_gathers(t, ref, split_buf, gathered, E, u, b, outcome);
    ++outcome.blocks;
    outcome.items += static_cast<std::uint64_t>(n);
  }
  if (L.reverse_b && L.circular_shift) {
    Prediction pr;
    pr.formula = "CF-Merge's dual subsequence gather is bank-conflict free (SPAA 2025 Section 3, Algorithm 1)";
    pr.quantity = "conflicts";
    pr.sites = {"cf-merge.gather", "cf-merge.scatter"};
    pr.value = 0;
    pr.model = "dmm";
    outcome.prediction = pr;
  }
  return outcome;
}

AlgorithmSpec merge_spec() {
  AlgorithmSpec s;
  s.name = "merge";
  s.description = "CUB-style block pairwise merge: blocked store, merge path, serial merge (SPAA 2025 Section 2)";
  s.params = merge_params(false);
  s.worst_case = "SPAA 2025 Section 4: the sequence T of Theorem 8 in every warp (needs 1 < E <= w, w | u)";
  s.validate = [](const Params& p) { validate_merge(p, false); };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    return param(p, "key_bytes") == 4 ? drive_merge<std::int32_t>(p, in, out) : drive_merge<std::int64_t>(p, in, out);
  };
  return s;
}

AlgorithmSpec cf_merge_spec() {
  AlgorithmSpec s;
  s.name = "cf-merge";
  s.description = "CF-Merge load-balanced dual subsequence gather (SPAA 2025 Algorithm 1, Section 3.3 layout)";
  s.params = merge_params(true);
  s.worst_case = "the CUB merge's worst case, SPAA 2025 Section 4 (needs 1 < E <= w, w | u); the gather stays "
                 "conflict free on every input (Section 3)";
  s.validate = [](const Params& p) { validate_merge(p, true); };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    return param(p, "key_bytes") == 4 ? drive_cf_merge<std::int32_t>(p, in, out)
                                      : drive_cf_merge<std::int64_t>(p, in, out);
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> merge_specs() { return {merge_spec(), cf_merge_spec()}; }

}  // namespace bankcheck
