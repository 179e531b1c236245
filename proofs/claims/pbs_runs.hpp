#pragma once
// Running HiPC 2015's parallel binary searches (sim/algorithms/pbs/pbs.hpp)
// for the claims: one warp of w queries over the keys K[i] = i (distinct).
// A query's path depends only on its predecessor, so queries in [-1, K]
// cover every behaviour of a lane. Point = (w, K).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/claims/input_plan.hpp"
#include "proofs/claims/priced_run.hpp"
#include "proofs/number_theory.hpp"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/inputs/pbs_adversary.hpp"

namespace bankcheck::proofs {

/// The priced instructions and the answers of one warp's search.
struct PbsRun {
  std::vector<Priced> rows;
  std::vector<long> answers;
};

/// `offset_stride` is PbsSearch's lane-offset knob (1 = the paper's offset).
template <class Key, PbsVariant V>
PbsRun run_pbs(unsigned w, long K, const std::vector<int>& queries, const BankModel& model, int offset_stride = 1) {
  std::vector<Key> keys(static_cast<std::size_t>(K)), q(queries.begin(), queries.end());
  std::iota(keys.begin(), keys.end(), Key{0});
  PbsRun run;
  run.answers.assign(queries.size(), -2);
  PbsSearch<Key, V> algo;
  algo.w = static_cast<int>(w);
  algo.K = K;
  algo.threads = static_cast<int>(w);
  algo.per_thread = 1;
  algo.valid = static_cast<long>(queries.size());
  algo.offset_stride = offset_stride;
  algo.keys = keys.data();
  algo.queries = q.data();
  algo.answers = run.answers.data();
  run.rows = price_block(algo, static_cast<std::size_t>(algo.shared_bytes()), w, w, model);
  return run;
}

/// Query sets of a point: every one of [-1, K]^w when few, else the same
/// query everywhere, an even spread, a strided one and a seeded sample.
inline std::vector<std::vector<int>> pbs_inputs(const Point& p, const CheckOptions& o) {
  const std::uint64_t w = p.w;
  const long K = static_cast<long>(p.E);
  std::vector<long> same(w, K / 2), spread(w), stride(w);
  for (std::uint64_t i = 0; i < w; ++i) {
    spread[i] = static_cast<long>(i * K / w);
    stride[i] = static_cast<long>((i * (K / static_cast<long>(w) + 1)) % (K + 1));
  }
  std::vector<std::vector<int>> sets;
  for (const auto& v : vectors_or_sample(w, -1, K, p, o, {same, spread, stride}))
    sets.emplace_back(v.begin(), v.end());
  return sets;
}

inline BigCount pbs_exhaustive(const Point& p) {
  return boost::multiprecision::pow(BigCount(p.E + 2), static_cast<unsigned>(p.w));
}

/// Cases of a claim that runs pbs_inputs (plus `extra` fixed query sets).
inline BigCount pbs_planned(const Point& p, const CheckOptions& o, std::uint64_t extra = 0) {
  return extra + planned_inputs(pbs_exhaustive(p), o, 3);
}

/// The largest i with K[i] <= q, -1 below K[0] (keys 0..K-1).
inline long predecessor(long K, int q) { return q < 0 ? -1 : std::min<long>(q, K - 1); }

/// The first lane whose answer is not the predecessor, described ("" if none).
inline std::string wrong_answer(long K, const std::vector<int>& queries, const std::vector<long>& answers) {
  for (std::size_t i = 0; i < queries.size(); ++i)
    if (answers[i] != predecessor(K, queries[i]))
      return "lane " + std::to_string(i) + " answers " + std::to_string(answers[i]) + " for query " +
             std::to_string(queries[i]) + " (predecessor " + std::to_string(predecessor(K, queries[i])) + ")";
  return {};
}

/// The worst-case queries of Corollary 4.1: q_i = K[i K/w + C].
inline std::vector<int> corollary_queries(std::uint64_t w, long K, long C) {
  std::vector<int> q(w);
  for (std::uint64_t i = 0; i < w; ++i)
    q[i] = static_cast<int>(inputs::corollary41_index(static_cast<std::uint64_t>(K), static_cast<unsigned>(w),
                                                      static_cast<unsigned>(i), static_cast<std::uint64_t>(C)));
  return q;
}

/// Corollary 4.1 and A_PBS: stated for w and K powers of two with K = 0 mod w^2.
inline Region corollary_region(const Point& p) {
  if (p.w < 2 || p.E < p.w * p.w || p.E % (p.w * p.w) != 0) return Region::outside;
  return nt::is_power_of_two(p.w) && nt::is_power_of_two(p.E) ? Region::within : Region::beyond;
}

/// Wavefronts of PBS's probe per round (the `probe` site of Algorithm 1, phase 1).
inline std::vector<std::uint64_t> probe_degrees(const std::vector<Priced>& rows) {
  std::vector<std::uint64_t> deg;
  for (const Priced& r : rows)
    if (r.phase == 1 && r.site == PbsSearch<int, PbsVariant::pbs>::probe) {
      if (deg.size() <= r.k) deg.resize(r.k + 1, 0);
      deg[r.k] += r.cost.wavefronts;
    }
  return deg;
}

}  // namespace bankcheck::proofs
