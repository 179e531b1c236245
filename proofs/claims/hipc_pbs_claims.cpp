// HiPC 2015 (Karsin, Weichert, Casanova, Iacono, Sitchinava): PBS-CF
// (Section IV-B, Algorithms 2-3) is conflict-free, PBS-CF and PBS-CL
// (Section IV-C) return predecessors, and PBS-CL's stage-2 binary search
// costs at most w - 1 accesses per warp. The claims run
// sim/algorithms/pbs/pbs.hpp; the expected counts are the paper's.
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/claims/pbs_runs.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

/// PBS-CF and PBS-CL are stated for w a power of two and K >= 2w^2 (Lemma 4.2's setting).
Region pbs_region(const Point& p) {
  return nt::is_power_of_two(p.w) && p.E >= 2 * p.w * p.w && p.w >= 2 ? Region::within : Region::beyond;
}

Claim pbs_claim(const std::string& id, std::string lemma, std::string statement, std::string hypotheses) {
  Claim c;
  c.id = id;
  c.paper = "HiPC 2015";
  c.lemma = std::move(lemma);
  c.statement = std::move(statement);
  c.hypotheses = std::move(hypotheses);
  c.category = "algorithm";
  c.domain = Domain{2, 8, 1, 160, false};
  c.region = pbs_region;
  c.exhaustive_cases = pbs_exhaustive;
  c.planned_cases = [](const Point& p, const CheckOptions& o) { return pbs_planned(p, o); };
  return c;
}

template <class Key>
Claim pbs_cf_claim_for(int offset_stride, const std::string& id, const std::string& key_text) {
  Claim c = pbs_claim(id, "Section IV-B, PBS-CF (Algorithms 2-3)",
                      "PBS-CF makes no bank conflict in its search, for every query set (" + key_text +
                          " keys; point = (w, K keys); answers checked against the predecessor)",
                      "w a power of two, K >= 2w^2 (the paper's setting, Lemma 4.2)");
  // The paper's DMM; the H100; Kepler in the bank mode of the key width, where HiPC measured.
  c.models = {"dmm", "sm90", sizeof(Key) == 4 ? "kepler-4B" : "kepler-8B"};
  c.check = [id, offset_stride](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      const auto run = run_pbs<Key, PbsVariant::cf>(static_cast<unsigned>(p.w), K, q, model, offset_stride);
      for (const Priced& r : run.rows)
        if (r.phase >= 1 && r.cost.conflicts() > 0) {
          res.counterexample = counterexample_at(
              id, p, o,
              "queries " + list_text(q) + ": site " + PbsSearch<Key, PbsVariant::cf>::kSiteNames[r.site] + " round " +
                  to_string(r.k) + " is " + to_string(r.cost.degree) + "-way (" + to_string(r.cost.conflicts()) +
                  " conflicts)");
          return res;
        }
    }
    return res;
  };
  return c;
}

/// PBS-CF / PBS-CL return the predecessor (Algorithms 2-3 and Section IV-C).
template <PbsVariant V>
Claim pbs_correct_claim(const std::string& id, const std::string& name) {
  Claim c = pbs_claim(id, "Section IV-B/C, " + name + " answers",
                      name + " returns the predecessor (largest i with K[i] <= q, -1 below K[0]) for every query set "
                             "(keys 0..K-1, queries -1..K; point = (w, K))",
                      "w a power of two, K >= 2w^2");
  c.models = {};  // answers do not depend on a bank model
  c.check = [id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset("dmm", static_cast<unsigned>(p.w));  // prices nothing the claim reads
    const long K = static_cast<long>(p.E);
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      const auto run = run_pbs<int, V>(static_cast<unsigned>(p.w), K, q, model);
      if (std::string bad = wrong_answer(K, q, run.answers); !bad.empty()) {
        res.counterexample = counterexample_at(id, p, o, "queries " + list_text(q) + ": " + bad);
        return res;
      }
    }
    return res;
  };
  return c;
}

/// Wavefronts of PBS-CL's stage-2 binary search (site `binary`).
uint64_t cl_stage2(const std::vector<Priced>& rows) {
  uint64_t t = 0;
  for (const Priced& r : rows)
    if (r.phase == 1 && r.site == PbsSearch<int, PbsVariant::cl>::binary) t += r.cost.wavefronts;
  return t;
}

/// Host accessor over the padded keys that remembers the window check, so
/// the real search code tells where a query's stage-2 window starts.
struct WindowProbe {
  const std::vector<int>* padded;
  mutable long window_check = -1;
  template <class T>
  T load(int site, std::size_t index) const {
    if (site == PbsSearch<int, PbsVariant::cl>::window_check) window_check = static_cast<long>(index);
    return static_cast<T>((*padded)[index]);
  }
};

/// Queries whose stage-2 targets are t_l = (c - l) mod w in pairwise distinct
/// windows: then round i of the binary search is 2^i-way (our construction,
/// see docs/claims.md). Empty if none is found.
std::vector<int> cl_worst_queries(uint64_t w, long K, uint64_t c) {
  PbsSearch<int, PbsVariant::cl> algo;
  algo.w = static_cast<int>(w);
  algo.K = K;
  std::vector<int> padded(static_cast<std::size_t>(K + 2 * static_cast<long>(w)));
  for (std::size_t i = 0; i < padded.size(); ++i)
    padded[i] = i < w ? std::numeric_limits<int>::lowest()
                      : static_cast<long>(i) >= K + static_cast<long>(w) ? std::numeric_limits<int>::max()
                                                                           : static_cast<int>(i - w);
  WindowProbe probe{&padded};
  std::set<long> used;
  std::vector<int> queries;
  for (uint64_t l = 0; l < w; ++l) {
    bool found = false;
    for (int q = 0; q < K && !found; ++q) {
      probe.window_check = -1;
      const long answer = algo.search(static_cast<int>(l), q, probe);
      if (probe.window_check < 0) continue;
      const long checked = probe.window_check - static_cast<long>(w);  // unpadded index of the window check
      const long start = q < checked ? checked - static_cast<long>(w) : checked;
      const long target = answer - start;
      if (target == static_cast<long>((c + w - l % w) % w) && !used.count(start)) {
        used.insert(start);
        queries.push_back(q);
        found = true;
      }
    }
    if (!found) return {};
  }
  return queries;
}

Claim cl_stage2_claim() {
  Claim c = pbs_claim("hipc.pbs_cl.stage2", "Section IV-C, PBS-CL stage 2",
                      "PBS-CL's stage-2 binary search costs at most w - 1 accesses per warp for every query set, and "
                      "some query set reaches w - 1 (point = (w, K))",
                      "w a power of two >= 2, K a power of two >= w^2");
  c.domain = Domain{2, 16, 4, 256, false};
  c.region = [](const Point& p) {
    if (p.w < 2 || p.E < p.w) return Region::outside;
    return nt::is_power_of_two(p.w) && nt::is_power_of_two(p.E) && p.E >= p.w * p.w ? Region::within : Region::beyond;
  };
  c.exhaustive_cases = [](const Point& p) { return BigCount(1) + pbs_exhaustive(p); };
  c.planned_cases = [](const Point& p, const CheckOptions& o) { return pbs_planned(p, o, 1); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    const uint64_t bound = p.w - 1;
    uint64_t best = 0;
    std::vector<int> best_q;
    auto consider = [&](const std::vector<int>& q) -> bool {
      ++res.cases;
      const uint64_t t = cl_stage2(run_pbs<int, PbsVariant::cl>(static_cast<unsigned>(p.w), K, q, model).rows);
      if (t > best) best = t, best_q = q;
      if (t > bound) {
        res.counterexample = counterexample_at(id, p, o,
                                               "queries " + list_text(q) + ": stage 2 costs " + to_string(t) +
                                                   " accesses, more than w - 1 = " + to_string(bound));
        return false;
      }
      return true;
    };
    if (const auto q = cl_worst_queries(p.w, K, 0); !q.empty() && !consider(q)) return res;
    for (const auto& q : pbs_inputs(p, o))
      if (!consider(q)) return res;
    if (best < bound)
      res.counterexample = counterexample_at(id, p, o,
                                             "no query set tried reaches w - 1 = " + to_string(bound) + "; the most was " +
                                                 to_string(best) + (best_q.empty() ? "" : " (queries " + list_text(best_q) + ")"));
    return res;
  };
  return c;
}

}  // namespace

Claim pbs_cf_conflict_free_claim(int offset_stride) {
  return pbs_cf_claim_for<int>(offset_stride,
                               offset_stride == 1 ? "hipc.pbs_cf.conflict_free" : "hipc.pbs_cf.offset_stride_" + to_string(offset_stride),
                               "4-byte");
}

std::vector<Claim> hipc_pbs_claims() {
  Claim eight = pbs_cf_claim_for<std::int64_t>(1, "hipc.pbs_cf.conflict_free_8B", "8-byte");
  eight.asserted = false;  // the paper measured 8-byte keys in 8-byte bank mode; other presets are our question
  return {pbs_cf_conflict_free_claim(1), std::move(eight), cl_stage2_claim(),
          pbs_correct_claim<PbsVariant::cf>("hipc.pbs_cf.correct", "PBS-CF"),
          pbs_correct_claim<PbsVariant::cl>("hipc.pbs_cl.correct", "PBS-CL")};
}

}  // namespace bankcheck::proofs
