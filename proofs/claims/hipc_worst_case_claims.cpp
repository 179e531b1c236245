// HiPC 2015 worst cases of plain PBS (Algorithm 1): Corollary 4.1's query set,
// Lemma 4.2's pigeonhole construction and A_PBS (Section V-B). The searches
// run sim/algorithms/pbs/pbs.hpp and are priced on the paper's DMM; the
// expected counts are the paper's formulas.
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/claims/pbs_runs.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

/// The offsets C in [0, K/w) of Corollary 4.1: all of them up to
/// inputs_limit, else both ends and a seeded sample.
std::vector<long> corollary_offsets(const Point& p, const CheckOptions& o) {
  const long span = static_cast<long>(p.E / p.w);
  std::vector<long> cs;
  if (o.mode == Mode::exhaustive || static_cast<uint64_t>(span) <= o.inputs_limit) {
    for (long C = 0; C < span; ++C) cs.push_back(C);
  } else {
    std::mt19937_64 rng = point_rng(p, o);
    cs = {0, span - 1};
    for (uint64_t s = 0; s < o.inputs; ++s) cs.push_back(static_cast<long>(rng() % static_cast<uint64_t>(span)));
  }
  return cs;
}

Claim worst_case_claim(std::string id, std::string lemma, std::string statement, std::string hypotheses) {
  Claim c;
  c.id = std::move(id);
  c.paper = "HiPC 2015";
  c.lemma = std::move(lemma);
  c.statement = std::move(statement);
  c.hypotheses = std::move(hypotheses);
  c.category = "worst case";
  c.domain = Domain{2, 16, 4, 1024, false};
  c.region = corollary_region;
  return c;
}

Claim corollary41() {
  Claim c = worst_case_claim(
      "hipc.corollary4.1", "Corollary 4.1",
      "for K = 0 mod w^2, the queries q_i = K[i K/w + C] make PBS's probe round i (1-based) min(2^(i-1), w)-way, "
      "so w-way from round log w + 1 on (point = (w, K))",
      "w a power of two, K a power of two, K >= w^2 (K = 0 mod w^2); every C in [0, K/w)");
  c.category = "algorithm";
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.E / p.w); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    for (long C : corollary_offsets(p, o)) {
      ++res.cases;
      const auto q = corollary_queries(p.w, K, C);
      const auto deg = probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, q, model).rows);
      for (std::size_t i = 0; i < deg.size(); ++i) {
        const uint64_t want = std::min<uint64_t>(uint64_t{1} << std::min<std::size_t>(i, 63), p.w);
        if (deg[i] != want) {
          res.counterexample = counterexample_at(id, p, o,
                                                 "C=" + to_string(C) + ": probe round " + to_string(i + 1) + " costs " +
                                                     to_string(deg[i]) + " accesses, expected min(2^" + to_string(i) +
                                                     ", w) = " + to_string(want));
          return res;
        }
      }
    }
    return res;
  };
  return c;
}

/// Host accessor over the keys K[i] = i (padded) that logs the probe indices,
/// so the real search code tells the path of a query.
struct PathProbe {
  long w;
  mutable std::vector<long> probes;
  template <class T>
  T load(int site, std::size_t index) const {
    const long i = static_cast<long>(index) - w;
    if (site == PbsSearch<int, PbsVariant::pbs>::probe) probes.push_back(i);
    return static_cast<T>(i);  // K[i] = i; clamps keep 0 <= i < K
  }
};

Claim lemma42() {
  Claim c = worst_case_claim("hipc.lemma4.2", "Lemma 4.2",
                             "for K >= 2w^2 some w queries make every PBS probe round from 2 log w + 1 on a w-way "
                             "conflict (found by the proof's pigeonhole over the real search paths; point = (w, K))",
                             "w a power of two >= 2, K >= 2w^2");
  c.domain = Domain{2, 16, 8, 1024, false};
  c.region = [](const Point& p) {
    if (p.w < 2 || p.E < 2 * p.w * p.w) return Region::outside;
    return nt::is_power_of_two(p.w) ? Region::within : Region::beyond;
  };
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.E); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const long K = static_cast<long>(p.E), w = static_cast<long>(p.w);
    const std::size_t r = 2 * nt::log2_floor(p.w);  // 0-based index of round 2 log w + 1
    PbsSearch<int, PbsVariant::pbs> algo;
    algo.w = static_cast<int>(w);
    algo.K = K;
    // Group queries by (bank at round r, offsets of the later probes from it):
    // queries of one group stay in one bank from round r on.
    std::map<std::vector<long>, std::map<long, int>> groups;  // key -> (round-r address -> query)
    for (int q = 0; q < K; ++q) {
      ++res.cases;
      PathProbe probe{w, {}};
      algo.search(0, q, probe);
      if (probe.probes.size() <= r) break;  // fewer rounds than 2 log w + 1: nothing to find
      std::vector<long> key{probe.probes[r] % w};
      for (std::size_t k = r + 1; k < probe.probes.size(); ++k) key.push_back(probe.probes[k] - probe.probes[r]);
      groups[key].emplace(probe.probes[r], q);
    }
    std::vector<int> chosen;
    for (const auto& [key, addrs] : groups)
      if (addrs.size() >= static_cast<std::size_t>(w)) {
        for (const auto& [addr, q] : addrs) {
          if (chosen.size() == static_cast<std::size_t>(w)) break;
          chosen.push_back(q);
        }
        break;
      }
    if (chosen.empty()) {
      res.counterexample = counterexample_at(
          id, p, o, "no w queries share a bank with distinct addresses at round 2 log w + 1 and stay together");
      return res;
    }
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const auto deg = probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, chosen, model).rows);
    for (std::size_t k = r; k < deg.size(); ++k)
      if (deg[k] != p.w) {
        res.counterexample = counterexample_at(id, p, o,
                                               "queries " + list_text(chosen) + ": probe round " + to_string(k + 1) +
                                                   " costs " + to_string(deg[k]) + " accesses, not w");
        return res;
      }
    return res;
  };
  return c;
}

Claim a_pbs() {
  Claim c = worst_case_claim("hipc.a_pbs", "Section V-B, A_PBS",
                             "the worst-case queries cost A_PBS = w(log K - log w + 1) - 1 probe accesses per warp, and "
                             "no query set costs more (point = (w, K))",
                             "w and K powers of two, K >= w^2");
  c.exhaustive_cases = [](const Point& p) { return BigCount(1) + pbs_exhaustive(p); };
  c.planned_cases = [](const Point& p, const CheckOptions& o) { return pbs_planned(p, o, 1); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    const uint64_t formula = p.w * (nt::log2_floor(p.E) - nt::log2_floor(p.w) + 1) - 1;
    auto probes = [&](const std::vector<int>& q) {
      const auto deg = probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, q, model).rows);
      return std::accumulate(deg.begin(), deg.end(), uint64_t{0});
    };
    ++res.cases;
    if (const uint64_t worst = probes(corollary_queries(p.w, K, 0)); worst != formula) {
      res.counterexample = counterexample_at(id, p, o,
                                             "queries K[iK/w] cost " + to_string(worst) + " probe accesses, A_PBS = " +
                                                 to_string(formula));
      return res;
    }
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      if (const uint64_t t = probes(q); t > formula) {
        res.counterexample = counterexample_at(id, p, o,
                                               "queries " + list_text(q) + " cost " + to_string(t) +
                                                   " probe accesses, more than A_PBS = " + to_string(formula));
        return res;
      }
    }
    return res;
  };
  return c;
}

}  // namespace

std::vector<Claim> hipc_worst_case_claims() { return {lemma42(), corollary41(), a_pbs()}; }

}  // namespace bankcheck::proofs
