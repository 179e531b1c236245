#include "sim/algorithms/algorithm_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "model/analytic.hpp"
#include "sim/inputs/merge_adversary.hpp"
#include "sim/algorithms/extra_algorithms.hpp"
#include "sim/algorithms/merge_sort/merge_sort_spec.hpp"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/pairwise_merge.hpp"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/algorithms/select.hpp"

namespace bankcheck {

// ---------------------------------------------------------------- helpers

InputChoice InputChoice::parse(std::string_view text, std::uint64_t seed) {
  InputChoice in;
  in.seed = seed;
  if (text == "random") in.kind = Kind::random;
  else if (text == "worst") in.kind = Kind::worst;
  else if (text.empty()) throw std::invalid_argument("--input must be random, worst or a file name");
  else {
    in.kind = Kind::file;
    in.path = std::string(text);
  }
  return in;
}

std::string InputChoice::describe() const {
  switch (kind) {
    case Kind::random: return "random (seed " + std::to_string(seed) + ")";
    case Kind::worst: return "worst";
    case Kind::file: return "file " + path;
  }
  return "?";
}

std::int64_t param(const Params& p, std::string_view name) {
  auto it = p.find(name);
  if (it == p.end()) throw std::invalid_argument("missing parameter " + std::string(name));
  return it->second;
}

std::vector<std::int64_t> read_integers(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot open input file " + path);
  std::vector<std::int64_t> values;
  std::string line;
  for (std::size_t lineno = 1; std::getline(f, line); ++lineno) {
    // Control bytes mean a binary file (raw keys): say so instead of printing them.
    for (std::size_t col = 0; col < line.size(); ++col) {
      const auto byte = static_cast<unsigned char>(line[col]);
      if ((byte < 0x20 && byte != '\t' && byte != '\r' && byte != '\v' && byte != '\f') || byte == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", byte);
        throw std::invalid_argument(path + ":" + std::to_string(lineno) + ": binary data (byte " + hex + " at column " +
                                    std::to_string(col + 1) +
                                    "); expected whitespace-separated decimal integers (what `bankcheck adversary` "
                                    "writes unless asked for --format bin)");
      }
    }
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    std::string word;
    while (in >> word) {
      std::size_t used = 0;
      std::int64_t v = 0;
      try {
        v = std::stoll(word, &used, 10);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size()) {
        std::string shown;  // bytes outside printable ASCII as \xNN
        for (const char c : word.substr(0, 40)) {
          const auto byte = static_cast<unsigned char>(c);
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02x", byte);
          shown += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : std::string(hex);
        }
        throw std::invalid_argument(path + ":" + std::to_string(lineno) + ": '" + shown + "' is not a 64-bit integer");
      }
      values.push_back(v);
    }
  }
  return values;
}

std::vector<std::int64_t> input_integers(const InputChoice& input) {
  return input.values ? *input.values : read_integers(input.path);
}

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

std::string num(std::int64_t v) { return std::to_string(v); }

// Uniform integers in [0, n) from a seed: SplitMix64 (Steele, Lea, Flood,
// OOPSLA 2014) mapped by Lemire's multiply-shift (bias below n / 2^64).
// std::mt19937_64 + uniform_int_distribution was a tenth of `run pbs`'s time;
// random inputs only need a fixed sequence per seed.
class SeededUniform {
 public:
  SeededUniform(std::uint64_t seed, std::uint64_t n) : state_(seed), n_(n) {}
  std::uint64_t operator()() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(z) * n_) >> 64);
  }

 private:
  std::uint64_t state_, n_;
};

// ---------------------------------------------------------------- PBS family

std::vector<ParamSpec> pbs_params(bool cf_or_cl) {
  std::vector<ParamSpec> v = {
      {"w", 32, cf_or_cl ? "warp size = banks, >= 1 (printed PBS-CL: >= 2)" : "warp size = banks, >= 1"},
      {"K", 1024, cf_or_cl ? "keys in shared memory, >= 1 (printed=1: >= w)" : "keys in shared memory, >= 1"},
      {"key_bytes", 4, "key size in bytes: 4 or 8"},
      {"queries", 4096, "queries Q, >= 1 (ignored with --input FILE: one query per integer)"},
      {"u", 256, "threads per block, >= 1"},
      {"per_thread", 1, "queries per thread per block (one phase each), >= 1"}};
  if (cf_or_cl) {
    v.push_back({"offset_stride", 1,
                 "lane offset multiplier: offset = (m * lane) mod w; 1 = the paper, 0 = no offset (mutation)"});
    v.push_back({"printed", 0,
                 "0 = corrected stage 1 (right predecessor for every query and K); 1 = Algorithm 2 as printed in "
                 "HiPC 2015 (wrong below the lane offset and for K not a power of two)"});
  }
  return v;
}

// The variant a registry entry runs: pbs, or PBS-CF/CL printed or corrected.
PbsVariant pbs_variant(const Params& p, PbsVariant family) {
  if (family == PbsVariant::pbs) return family;
  const bool printed = param(p, "printed") == 1;
  if (pbs_is_cl(family)) return printed ? PbsVariant::cl : PbsVariant::cl_corrected;
  return printed ? PbsVariant::cf : PbsVariant::cf_corrected;
}

void validate_pbs(const Params& p, PbsVariant family) {
  const auto w = param(p, "w"), K = param(p, "K"), kb = param(p, "key_bytes"), Q = param(p, "queries"),
             u = param(p, "u"), per = param(p, "per_thread");
  require(w >= 1 && w <= 1024, "w must be in 1..1024 (got " + num(w) + ")");
  require(K >= 1 && K <= (std::int64_t{1} << 30), "K must be in 1..2^30 (got " + num(K) + ")");
  require(kb == 4 || kb == 8, "key_bytes must be 4 or 8 (got " + num(kb) + ")");
  require(Q >= 1, "queries must be >= 1 (got " + num(Q) + ")");
  require(u >= 1 && u <= 65536, "u (threads per block) must be in 1..65536 (got " + num(u) + ")");
  require(per >= 1 && per <= 65536, "per_thread must be in 1..65536 (got " + num(per) + ")");
  if (kb == 4) require(2 * K + 1 < std::numeric_limits<std::int32_t>::max(), "K too large for 4-byte keys");
  if (family == PbsVariant::pbs) return;
  const auto m = param(p, "offset_stride"), printed = param(p, "printed");
  require(m >= 0 && m <= 1024, "offset_stride must be in 0..1024 (got " + num(m) + ")");
  require(printed == 0 || printed == 1, "printed must be 0 (corrected) or 1 (as printed) (got " + num(printed) + ")");
  if (printed == 1) {
    if (pbs_is_cl(family)) require(w >= 2, "PBS-CL as printed needs w >= 2 (got " + num(w) + ")");
    require(K >= w, "PBS-CF/CL as printed need K >= w (got K = " + num(K) + ", w = " + num(w) + ")");
  }
}

template <class Key, PbsVariant V>
AlgorithmOutcome drive_pbs(const Params& p, const InputChoice& in, InstructionListener& out) {
  using Algo = PbsSearch<Key, V>;
  Algo algo;
  algo.w = static_cast<int>(param(p, "w"));
  algo.K = param(p, "K");
  algo.threads = static_cast<int>(param(p, "u"));
  algo.per_thread = static_cast<int>(param(p, "per_thread"));
  if constexpr (V != PbsVariant::pbs) algo.offset_stride = static_cast<int>(param(p, "offset_stride"));
  const long w = algo.w, K = algo.K;

  // Keys 1, 3, 5, ...: queries can fall before, on and between keys.
  std::vector<Key> keys(K);
  for (long i = 0; i < K; ++i) keys[i] = static_cast<Key>(2 * i + 1);
  algo.keys = keys.data();

  std::vector<Key> file_queries;
  std::int64_t Q = param(p, "queries");
  if (in.kind == InputChoice::Kind::file) {
    for (std::int64_t v : input_integers(in)) {
      require(v > std::numeric_limits<Key>::lowest() && v < std::numeric_limits<Key>::max(),
              in.path + ": query " + num(v) + " does not fit strictly inside the " + num(sizeof(Key)) +
                  "-byte key range (the extremes are the padding)");
      file_queries.push_back(static_cast<Key>(v));
    }
    require(!file_queries.empty(), in.path + ": no queries");
    Q = static_cast<std::int64_t>(file_queries.size());
  }
  if (in.kind == InputChoice::Kind::worst)
    require(K % w == 0, "the worst-case queries q_i = K[i·K/w] (HiPC V-B) need K ≡ 0 (mod w) (got K = " + num(K) +
                            ", w = " + num(w) + ")");

  SeededUniform pick(in.seed, static_cast<std::uint64_t>(2 * K + 2));  // queries 0 .. 2K+1
  const std::int64_t chunk = static_cast<std::int64_t>(algo.threads) * algo.per_thread;
  std::vector<Key> queries(chunk);
  std::vector<long> answers(chunk);
  BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
  AlgorithmOutcome outcome;
  outcome.output_checked = true;
  outcome.output_ok = true;
  outcome.check = "every answer == std::upper_bound(K, q) - K - 1";
  outcome.items = static_cast<std::uint64_t>(Q);
  for (std::int64_t first = 0, b = 0; first < Q; first += chunk, ++b) {
    const std::int64_t valid = std::min(chunk, Q - first);
    for (std::int64_t i = 0; i < valid; ++i) {
      const std::int64_t j = first + i;
      switch (in.kind) {
        case InputChoice::Kind::random: queries[i] = static_cast<Key>(pick()); break;
        case InputChoice::Kind::worst: queries[i] = keys[(j % w) * (K / w)]; break;
        case InputChoice::Kind::file: queries[i] = file_queries[j]; break;
      }
    }
    algo.queries = queries.data();
    algo.answers = answers.data();
    algo.valid = valid;
    recorder.run(algo, static_cast<unsigned>(algo.threads), static_cast<unsigned>(w), out,
                 static_cast<std::uint64_t>(b));
    ++outcome.blocks;
    for (std::int64_t i = 0; i < valid; ++i) {
      // Keys are 2i+1, so K[i] <= q iff i <= (q-1)/2: the predecessor in O(1)
      // (the same as std::upper_bound(K, q) - K - 1, without the log K cost).
      const std::int64_t qv = static_cast<std::int64_t>(queries[i]);
      const long expect = qv < 1 ? -1L : static_cast<long>(std::min<std::int64_t>((qv - 1) / 2, K - 1));
      if (answers[i] == expect) continue;
      outcome.output_ok = false;
      if (outcome.wrong++ == 0)
        outcome.first_wrong = "query #" + num(first + i) + " (thread " + num(i % algo.threads) + ", q = " +
                              num(static_cast<std::int64_t>(queries[i])) + "): answer " + num(answers[i]) +
                              ", predecessor " + num(expect);
    }
  }

  // The papers' predictions, in the DMM.
  const bool full_warps = algo.threads % w == 0 && Q % w == 0;
  const auto warp_batches = static_cast<std::uint64_t>(Q / w);
  using analytic::is_power_of_two;
  if constexpr (V == PbsVariant::pbs) {
    if (in.kind == InputChoice::Kind::worst && full_warps && is_power_of_two(w) && is_power_of_two(K) && K >= w) {
      Prediction pr;
      const bool exact = K % (w * w) == 0;
      pr.formula = exact ? "A_PBS = w(log K - log w + 1) - 1 accesses per warp (HiPC 2015 V-B), times Q/w"
                         : "sum_{i<log K} min(2^i, w, K/w) per warp (HiPC 2015 V-B, K < w² cap), times Q/w";
      pr.quantity = "wavefronts";
      pr.sites = {"pbs.probe"};
      pr.value = analytic::pbs_worst_accesses_capped_per_warp(w, K) * warp_batches;
      pr.model = "dmm";
      outcome.prediction = pr;
    }
  } else if constexpr (!pbs_is_cl(V)) {
    if (algo.offset_stride == 1 && K >= w) {  // IV-B states it for K >= w
      Prediction pr;
      pr.formula = V == PbsVariant::cf ? "PBS-CF is bank-conflict free (HiPC 2015 IV-B, Algorithms 2 and 3)"
                                       : "PBS-CF is bank-conflict free (HiPC 2015 IV-B; stage 1 corrected, "
                                         "every probe of a lane in its offset's bank)";
      pr.quantity = "conflicts";
      pr.sites = {"pbs-cf.probe", "pbs-cf.window_check", "pbs-cf.scan"};
      pr.value = analytic::pbs_cf_conflicts(w, K);
      pr.model = "dmm";
      outcome.prediction = pr;
    }
  } else {
    if (algo.offset_stride == 1 && full_warps && is_power_of_two(w)) {
      Prediction pr;
      pr.formula = "PBS-CL stage 2 <= w - 1 accesses per warp (HiPC 2015 IV-C), times Q/w";  // both variants
      pr.quantity = "wavefronts";
      pr.sites = {"pbs-cl.binary"};
      pr.value = analytic::pbs_cl_stage2_bound_per_warp(w) * warp_batches;
      pr.model = "dmm";
      pr.relation = Prediction::Relation::at_most;
      outcome.prediction = pr;
    }
  }
  return outcome;
}

// `family` is pbs, cf or cl; PBS-CF/CL run the corrected stage 1 unless printed=1.
AlgorithmSpec pbs_spec(PbsVariant family, std::string name, std::string description) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.description = std::move(description);
  s.params = pbs_params(family != PbsVariant::pbs);
  s.worst_case = "HiPC 2015 V-B / Corollary 4.1: lane i of every warp queries K[i·K/w] (needs w | K)";
  s.validate = [family](const Params& p) { validate_pbs(p, family); };
  s.drive = [family](const Params& p, const InputChoice& in, InstructionListener& out) {
    const bool four = param(p, "key_bytes") == 4;
    switch (pbs_variant(p, family)) {
      case PbsVariant::pbs: return four ? drive_pbs<std::int32_t, PbsVariant::pbs>(p, in, out)
                                        : drive_pbs<std::int64_t, PbsVariant::pbs>(p, in, out);
      case PbsVariant::cf: return four ? drive_pbs<std::int32_t, PbsVariant::cf>(p, in, out)
                                       : drive_pbs<std::int64_t, PbsVariant::cf>(p, in, out);
      case PbsVariant::cl: return four ? drive_pbs<std::int32_t, PbsVariant::cl>(p, in, out)
                                       : drive_pbs<std::int64_t, PbsVariant::cl>(p, in, out);
      case PbsVariant::cf_corrected: return four ? drive_pbs<std::int32_t, PbsVariant::cf_corrected>(p, in, out)
                                                 : drive_pbs<std::int64_t, PbsVariant::cf_corrected>(p, in, out);
      case PbsVariant::cl_corrected: return four ? drive_pbs<std::int32_t, PbsVariant::cl_corrected>(p, in, out)
                                                 : drive_pbs<std::int64_t, PbsVariant::cl_corrected>(p, in, out);
    }
    throw std::logic_error("unknown PBS variant");
  };
  return s;
}

// ---------------------------------------------------------------- merges

std::vector<ParamSpec> merge_params(bool cf) {
  std::vector<ParamSpec> v = {
      {"w", 32, "warp size = banks, >= 1"},
      {"E", 15, "items per thread, 1..256"},
      {"u", 256, cf ? "threads per block, a multiple of w (SPAA 2025 Section 3)" : "threads per block, >= 1"},
      {"key_bytes", 4, "key size in bytes: 4 or 8"},
      {"blocks", 1, "independent block tiles, >= 1 (ignored with --input FILE)"},
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
  require(blocks >= 1, "blocks must be >= 1 (got " + num(blocks) + ")");
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
      // included), 21 three-bit steps per 64-bit draw (one draw per key made
      // the generator a quarter of `run merge`'s time).
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
  std::mt19937_64& rng() { return rng_; }

 private:
  InputChoice in_;
  std::mt19937_64 rng_;
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
// per key against std::merge's 1.9 here; a two-ended version was slower).
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
      // A random interleaving of |A| a's and |B| b's: its prefix counts are a valid split.
      std::vector<char> from_a(n, 0);
      std::fill(from_a.begin(), from_a.begin() + t.a_count, 1);
      std::shuffle(from_a.begin(), from_a.end(), inputs.rng());
      long a = 0;
      for (long pos = 0; pos < n; ++pos) {
        if (pos % E == 0) given[pos / E] = a;
        a += from_a[pos];
      }
      ref.assign(given.begin(), given.end());
      ref.push_back(t.a_count);
      algo.splits = given.data();
    }
    algo.tile = t.keys.data();
    algo.split_buf = split_buf.data();
    algo.out = gathered.data();
    recorder.run(algo, static_cast<unsigned>(u), static_cast<unsigned>(L.w), out, static_cast<std::uint64_t>(b));
    for (long i = 0; i < u; ++i) {
      std::vector<Key> got(gathered.begin() + i * E, gathered.begin() + (i + 1) * E), want;
      for (long x = ref[i]; x < ref[i + 1]; ++x) want.push_back(t.keys[x]);
      const long b_i = i * E - ref[i], b_len = E - (ref[i + 1] - ref[i]);
      for (long y = b_i; y < b_i + b_len; ++y) want.push_back(t.keys[t.a_count + y]);
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      if (split_buf[i] != ref[i] || got != want) {
        outcome.output_ok = false;
        if (outcome.wrong++ == 0)
          outcome.first_wrong = "block " + num(b) + " thread " + num(i) + ": split " + num(split_buf[i]) +
                                " (reference " + num(ref[i]) + ")" + (got != want ? ", wrong items" : "");
      }
    }
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

std::vector<AlgorithmSpec> all_algorithms() {
  std::vector<AlgorithmSpec> v;
  v.push_back(pbs_spec(PbsVariant::pbs, "pbs", "batched predecessor search, HiPC 2015 Algorithm 1"));
  v.push_back(pbs_spec(PbsVariant::cf, "pbs-cf",
                       "conflict-free batched search, HiPC 2015 Algorithms 2+3 (stage 1 corrected; printed=1: as printed)"));
  v.push_back(pbs_spec(PbsVariant::cl, "pbs-cl",
                       "conflict-limited batched search, HiPC 2015 Section IV-C (stage 1 corrected; printed=1: as printed)"));
  for (auto& spec : extra_algorithm_specs()) v.push_back(std::move(spec));  // sim/algorithms/extra_algorithms.cpp
  v.push_back(merge_spec());
  v.push_back(cf_merge_spec());
  v.push_back(merge_sort_spec());  // sim/algorithms/merge_sort/merge_sort_spec.cpp
  return v;
}

// ---------------------------------------------------------------- replay listener

class CostListener final : public InstructionListener {
 public:
  CostListener(const BankModel& model, TraceSink* also) : model_(model), also_(also) {}

  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    const RequestCost c = model_.cost(request);
    total.add(info.active, c);
    if (info.site >= sites.size()) sites.resize(info.site + 1);
    auto& site = sites[info.site];
    if (site.site.empty()) {
      site.site = std::string(info.name);
      order.push_back(info.site);
    }
    site.cost.add(info.active, c);
    // rounds[phase][site][k]: flat vectors, no lookup by key per instruction
    if (info.phase >= rounds.size()) rounds.resize(info.phase + 1);
    auto& by_site = rounds[info.phase];
    if (info.site >= by_site.size()) by_site.resize(info.site + 1);
    auto& by_k = by_site[info.site];
    if (info.k >= by_k.size()) by_k.resize(info.k + 1);
    by_k[info.k].add(info.active, c);
    if (also_) also_->record(info.name, request);
  }

  CostTotals total;
  std::vector<SiteCost> sites;  // by site id
  std::vector<unsigned> order;  // site ids in first-issue order
  std::vector<std::vector<std::vector<CostTotals>>> rounds;  // [phase][site][k]

 private:
  const BankModel& model_;
  TraceSink* also_;
};

}  // namespace

// ---------------------------------------------------------------- registry

const std::vector<AlgorithmSpec>& algorithms() {
  static const std::vector<AlgorithmSpec> all = all_algorithms();
  return all;
}

const AlgorithmSpec& find_algorithm(std::string_view name) {
  for (const auto& a : algorithms())
    if (a.name == name) return a;
  std::string known;
  for (const auto& a : algorithms()) known += (known.empty() ? "" : ", ") + a.name;
  throw std::invalid_argument("unknown algorithm '" + std::string(name) + "' (known: " + known + ")");
}

void require_worst_case(const AlgorithmSpec& spec, const InputChoice& input) {
  if (input.kind == InputChoice::Kind::worst && spec.worst_case.empty())
    throw std::invalid_argument(spec.name + " has no published or searched worst-case input; use --input random or a "
                                "file (or `bankcheck adversary " + spec.name + " --search`)");
}

Params resolve_params(const AlgorithmSpec& spec, const Params& given) {
  Params p;
  for (const auto& ps : spec.params) p[ps.name] = ps.default_value;
  for (const auto& [name, value] : given) {
    if (!p.contains(name)) {
      std::string allowed;
      for (const auto& ps : spec.params) allowed += (allowed.empty() ? "" : ", ") + ps.name;
      throw std::invalid_argument(spec.name + " has no parameter '" + name + "' (parameters: " + allowed + ")");
    }
    p[name] = value;
  }
  spec.validate(p);
  return p;
}

AlgorithmReport run_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                              const BankModel& model, TraceSink* also) {
  const AlgorithmSpec& spec = find_algorithm(name);
  AlgorithmReport report;
  report.algorithm = spec.name;
  report.params = resolve_params(spec, params);
  report.input = input.describe();
  require_worst_case(spec, input);
  if (input.kind == InputChoice::Kind::worst) report.worst_case = spec.worst_case;
  report.model = model.name();
  const auto w = param(report.params, "w");
  if (static_cast<std::int64_t>(model.geometry().warp) != w)
    throw std::invalid_argument("model " + model.name() + " has warp " + std::to_string(model.geometry().warp) +
                                " but the algorithm runs with w = " + std::to_string(w) +
                                " (use a model with the same warp size)");
  CostListener listener(model, also);
  if (also) also->begin(static_cast<unsigned>(w));
  report.outcome = spec.drive(report.params, input, listener);
  if (also) also->end();
  report.total = listener.total;
  for (unsigned id : listener.order) report.sites.push_back(listener.sites[id]);
  for (std::size_t phase = 0; phase < listener.rounds.size(); ++phase)
    for (std::size_t site = 0; site < listener.rounds[phase].size(); ++site) {
      const auto& ks = listener.rounds[phase][site];
      for (std::size_t k = 0; k < ks.size(); ++k)
        if (ks[k].instructions > 0)
          report.rounds.push_back({static_cast<unsigned>(phase), k, listener.sites[site].site, ks[k]});
    }
  if (report.outcome.prediction) {
    const Prediction& pr = *report.outcome.prediction;
    CostTotals covered;
    for (const auto& s : report.sites) {
      if (!pr.sites.empty() && std::find(pr.sites.begin(), pr.sites.end(), s.site) == pr.sites.end()) continue;
      covered.wavefronts += s.cost.wavefronts;
      covered.conflicts += s.cost.conflicts;
    }
    report.replayed_for_prediction = pr.quantity == "conflicts" ? covered.conflicts : covered.wavefronts;
  }
  return report;
}


AlgorithmOutcome trace_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                                 TraceSink& sink) {
  const AlgorithmSpec& spec = find_algorithm(name);
  const Params p = resolve_params(spec, params);
  require_worst_case(spec, input);
  SinkListener listener(sink);
  sink.begin(static_cast<unsigned>(param(p, "w")));
  AlgorithmOutcome outcome = spec.drive(p, input, listener);
  sink.end();
  return outcome;
}

}  // namespace bankcheck
