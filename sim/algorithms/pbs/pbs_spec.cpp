// Registry entries pbs, pbs-cf and pbs-cl (sim/algorithms/pbs/pbs.hpp): HiPC
// 2015's batched predecessor search over the keys 1, 3, 5, ..., 2K-1, with
// random, worst-case (Corollary 4.1, sim/inputs/pbs_adversary.hpp) or file
// queries, each answer checked, and the paper's counts as predictions.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/analytic.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/pbs_adversary.hpp"
#include "sim/inputs/splitmix64.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

std::vector<ParamSpec> pbs_params(bool cf_or_cl) {
  std::vector<ParamSpec> v = {
      {"w", 32, cf_or_cl ? "warp size = banks, 1..1024 (printed PBS-CL: >= 2)" : "warp size = banks, 1..1024"},
      {"K", 1024, cf_or_cl ? "keys in shared memory, >= 1 (printed=1: >= w)" : "keys in shared memory, >= 1"},
      {"key_bytes", 4, "key size in bytes: 4 or 8"},
      {"queries", 4096, "queries Q, 1..2^40 (ignored with --input FILE: one query per integer)"},
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
  require(Q >= 1 && Q <= (std::int64_t{1} << 40), "queries must be in 1..2^40 (got " + num(Q) + ")");
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

/// The queries of --input FILE, each strictly inside Key's range (the extremes are the padding).
template <class Key>
std::vector<Key> file_queries(const InputChoice& in) {
  std::vector<Key> queries;
  for (std::int64_t v : input_integers(in)) {
    require(v > std::numeric_limits<Key>::lowest() && v < std::numeric_limits<Key>::max(),
            in.path + ": query " + num(v) + " does not fit strictly inside the " + num(sizeof(Key)) +
                "-byte key range (the extremes are the padding)");
    queries.push_back(static_cast<Key>(v));
  }
  require(!queries.empty(), in.path + ": no queries");
  return queries;
}

/// Checks a block's answers against the predecessor; the first wrong one is described.
template <class Key>
void check_answers(const std::vector<Key>& queries, const std::vector<long>& answers, std::int64_t valid,
                   std::int64_t first, int threads, long K, AlgorithmOutcome& outcome) {
  for (std::int64_t i = 0; i < valid; ++i) {
    // Keys are 2i+1, so K[i] <= q iff i <= (q-1)/2: the predecessor in O(1)
    // (the same as std::upper_bound(K, q) - K - 1, without the log K cost).
    const std::int64_t qv = static_cast<std::int64_t>(queries[i]);
    const long expect = qv < 1 ? -1L : static_cast<long>(std::min<std::int64_t>((qv - 1) / 2, K - 1));
    if (answers[i] == expect) continue;
    outcome.output_ok = false;
    if (outcome.wrong++ == 0)
      outcome.first_wrong = "query #" + num(first + i) + " (thread " + num(i % threads) + ", q = " +
                            num(static_cast<std::int64_t>(queries[i])) + "): answer " + num(answers[i]) +
                            ", predecessor " + num(expect);
  }
}

/// The papers' predictions for variant V, in the DMM, where they are stated.
template <PbsVariant V>
std::optional<Prediction> pbs_prediction(const InputChoice& in, long w, long K, int threads, int offset_stride,
                                         std::int64_t Q) {
  const bool full_warps = threads % w == 0 && Q % w == 0;
  const auto warp_batches = static_cast<std::uint64_t>(Q / w);
  using analytic::is_power_of_two;
  Prediction pr;
  pr.model = "dmm";
  if constexpr (V == PbsVariant::pbs) {
    if (in.kind != InputChoice::Kind::worst || !full_warps || !is_power_of_two(w) || !is_power_of_two(K) || K < w)
      return std::nullopt;
    const bool exact = K % (w * w) == 0;
    pr.formula = exact ? "A_PBS = w(log K - log w + 1) - 1 accesses per warp (HiPC 2015 V-B), times Q/w"
                       : "sum_{i<log K} min(2^i, w, K/w) per warp (HiPC 2015 V-B, K < w² cap), times Q/w";
    pr.quantity = "wavefronts";
    pr.sites = {"pbs.probe"};
    pr.value = analytic::pbs_worst_accesses_capped_per_warp(w, K) * warp_batches;
  } else if constexpr (!pbs_is_cl(V)) {
    if (offset_stride != 1 || K < w) return std::nullopt;  // IV-B states it for K >= w
    pr.formula = V == PbsVariant::cf ? "PBS-CF is bank-conflict free (HiPC 2015 IV-B, Algorithms 2 and 3)"
                                     : "PBS-CF is bank-conflict free (HiPC 2015 IV-B; stage 1 corrected, "
                                       "every probe of a lane in its offset's bank)";
    pr.quantity = "conflicts";
    pr.sites = {"pbs-cf.probe", "pbs-cf.window_check", "pbs-cf.scan"};
    pr.value = analytic::pbs_cf_conflicts(w, K);
  } else {
    if (offset_stride != 1 || !full_warps || !is_power_of_two(w)) return std::nullopt;
    pr.formula = "PBS-CL stage 2 <= w - 1 accesses per warp (HiPC 2015 IV-C), times Q/w";  // both variants
    pr.quantity = "wavefronts";
    pr.sites = {"pbs-cl.binary"};
    pr.value = analytic::pbs_cl_stage2_bound_per_warp(w) * warp_batches;
    pr.relation = Prediction::Relation::at_most;
  }
  return pr;
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
  const std::vector<Key> from_file = in.kind == InputChoice::Kind::file ? file_queries<Key>(in) : std::vector<Key>{};
  const std::int64_t Q = in.kind == InputChoice::Kind::file ? static_cast<std::int64_t>(from_file.size())
                                                            : param(p, "queries");
  if (in.kind == InputChoice::Kind::worst)
    require(K % w == 0, "the worst-case queries q_i = K[i·K/w] (HiPC V-B) need K ≡ 0 (mod w) (got K = " + num(K) +
                            ", w = " + num(w) + ")");

  inputs::SplitMix64 pick(in.seed);  // queries 0 .. 2K+1: pick.below(2K + 2)
  const auto query_range = static_cast<std::uint64_t>(2 * K + 2);
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
    for (std::int64_t i = 0, j = first; i < valid; ++i, ++j)
      queries[i] = in.kind == InputChoice::Kind::random ? static_cast<Key>(pick.below(query_range))
                   : in.kind == InputChoice::Kind::file
                       ? from_file[j]
                       : keys[inputs::corollary41_index(static_cast<std::uint64_t>(K), static_cast<unsigned>(w),
                                                        static_cast<unsigned>(j % w), 0)];
    algo.queries = queries.data();
    algo.answers = answers.data();
    algo.valid = valid;
    recorder.run(algo, static_cast<unsigned>(algo.threads), static_cast<unsigned>(w), out,
                 static_cast<std::uint64_t>(b));
    ++outcome.blocks;
    check_answers(queries, answers, valid, first, algo.threads, K, outcome);
  }
  int offset_stride = 1;
  if constexpr (V != PbsVariant::pbs) offset_stride = algo.offset_stride;
  outcome.prediction = pbs_prediction<V>(in, w, K, algo.threads, offset_stride, Q);
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

}  // namespace

std::vector<AlgorithmSpec> pbs_specs() {
  return {pbs_spec(PbsVariant::pbs, "pbs", "batched predecessor search, HiPC 2015 Algorithm 1"),
          pbs_spec(PbsVariant::cf, "pbs-cf",
                   "conflict-free batched search, HiPC 2015 Algorithms 2+3 (stage 1 corrected; printed=1: as printed)"),
          pbs_spec(PbsVariant::cl, "pbs-cl",
                   "conflict-limited batched search, HiPC 2015 Section IV-C (stage 1 corrected; printed=1: as printed)")};
}

}  // namespace bankcheck
