// Claims that run the algorithm code through the bank model: HiPC 2015
// (PBS, PBS-CF, PBS-CL) and the Aho-Corasick SM-2 staging. Expected counts
// are the papers' formulas, written here from the text.
#include "proofs/algorithm_claims.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/claims_registry.hpp"
#include "proofs/number_theory.hpp"
#include "sim/algorithms/aho_corasick/aho_corasick.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/inputs/pbs_adversary.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::proofs {
namespace {

using std::int64_t;
using std::uint64_t;
using std::to_string;

/// One priced warp instruction.
struct Priced {
  unsigned phase = 0, site = 0, warp = 0;
  uint64_t k = 0;
  RequestCost cost;
};

class PricingListener final : public InstructionListener {
 public:
  explicit PricingListener(const BankModel& model) : model_(model) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    rows.push_back({info.phase, info.site, info.warp_index, info.k, model_.cost(request)});
  }
  std::vector<Priced> rows;

 private:
  const BankModel& model_;
};

Counterexample cx(const std::string& id, const Point& p, const CheckOptions& o, std::string detail) {
  return Counterexample{p, std::move(detail), reproduce_command(id, p, o)};
}

std::string list_text(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ",") + to_string(x);
  return s;
}

/// Re-run a failing input into a text trace next to the JSON certificate;
/// returns the replay command line ("" when no artifact directory is set).
template <class Algo>
std::string trace_counterexample(const CheckOptions& o, const std::string& id, const Point& p, const Algo& algo,
                                 std::size_t shared_bytes, unsigned threads) {
  if (o.artifact_dir.empty()) return {};
  const std::string path =
      o.artifact_dir + "/" + id + "-w" + to_string(p.w) + "-E" + to_string(p.E) + ".trace";
  auto sink = create_trace(path, TraceFormat::text);
  sink->begin(static_cast<unsigned>(p.w));
  BlockRecorder recorder(shared_bytes);
  SinkListener listener(*sink);
  recorder.run(algo, threads, static_cast<unsigned>(p.w), listener);
  sink->end();
  return "bankcheck replay " + path + " --model " + o.model + " --per-instruction";
}

// ---------------------------------------------------------------- PBS ----
// Keys K[i] = i (distinct); a query's path depends only on its predecessor,
// so queries in [-1, K] cover every behaviour of a lane.

template <class Key, PbsVariant V>
struct PbsRun {
  std::vector<Priced> rows;
  std::vector<long> answers;
};

template <class Key, PbsVariant V>
PbsRun<Key, V> run_pbs(unsigned w, long K, const std::vector<int>& queries, const BankModel& model,
                       int offset_stride = 1) {
  std::vector<Key> keys(static_cast<std::size_t>(K)), q(queries.begin(), queries.end());
  std::iota(keys.begin(), keys.end(), Key{0});
  PbsRun<Key, V> run;
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
  BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
  PricingListener listener(model);
  recorder.run(algo, w, w, listener);
  run.rows = std::move(listener.rows);
  return run;
}

long predecessor(long K, int q) { return q < 0 ? -1 : std::min<long>(q, K - 1); }

std::string wrong_answer(long K, const std::vector<int>& queries, const std::vector<long>& answers) {
  for (std::size_t i = 0; i < queries.size(); ++i)
    if (answers[i] != predecessor(K, queries[i]))
      return "lane " + to_string(i) + " answers " + to_string(answers[i]) + " for query " + to_string(queries[i]) +
             " (predecessor " + to_string(predecessor(K, queries[i])) + ")";
  return {};
}

/// Query sets for a point: every one when few, else structured ones and a seeded sample.
std::vector<std::vector<int>> pbs_inputs(const Point& p, const CheckOptions& o) {
  const uint64_t w = p.w;
  const long K = static_cast<long>(p.E);
  std::vector<std::vector<int>> sets;
  const BigCount all = boost::multiprecision::pow(BigCount(K + 2), static_cast<unsigned>(w));
  if (o.mode == Mode::exhaustive || (o.mode == Mode::automatic && all <= o.inputs_limit)) {
    std::vector<int> q(w, -1);
    for (;;) {
      sets.push_back(q);
      std::size_t i = 0;
      while (i < w && q[i] == K) q[i++] = -1;
      if (i == w) break;
      ++q[i];
    }
    return sets;
  }
  std::vector<int> same(w, static_cast<int>(K / 2)), spread(w), stride(w);
  for (uint64_t i = 0; i < w; ++i) {
    spread[i] = static_cast<int>(i * K / w);
    stride[i] = static_cast<int>((i * (K / static_cast<long>(w) + 1)) % (K + 1));
  }
  sets = {same, spread, stride};
  std::mt19937_64 rng(point_seed(o.seed, p));
  for (uint64_t s = 0; s < o.inputs; ++s) {
    std::vector<int> q(w);
    for (auto& x : q) x = static_cast<int>(rng() % (K + 2)) - 1;
    sets.push_back(q);
  }
  return sets;
}

BigCount pbs_exhaustive(const Point& p) { return boost::multiprecision::pow(BigCount(p.E + 2), static_cast<unsigned>(p.w)); }

Region pbs_region(const Point& p) {
  return nt::is_power_of_two(p.w) && p.E >= 2 * p.w * p.w && p.w >= 2 ? Region::within : Region::beyond;
}

template <class Key>
Claim pbs_cf_claim_for(int offset_stride, const std::string& id, const std::string& key_text) {
  Claim c;
  c.id = id;
  c.paper = "HiPC 2015";
  c.lemma = "Section IV-B, PBS-CF (Algorithms 2-3)";
  c.statement = "PBS-CF makes no bank conflict in its search, for every query set (" + key_text +
                " keys; point = (w, K keys); answers checked against the predecessor)";
  c.hypotheses = "w a power of two, K >= 2w^2 (the paper's setting, Lemma 4.2)";
  c.category = "algorithm";
  c.domain = Domain{2, 8, 1, 160, false};
  c.region = pbs_region;
  c.exhaustive_cases = pbs_exhaustive;
  c.planned_cases = [](const Point& p, const CheckOptions& o) {
    const BigCount all = pbs_exhaustive(p);
    return o.mode == Mode::automatic && all <= o.inputs_limit ? all : BigCount(o.inputs + 3);
  };
  c.check = [id, offset_stride](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      const auto run = run_pbs<Key, PbsVariant::cf>(static_cast<unsigned>(p.w), K, q, model, offset_stride);
      for (const Priced& r : run.rows)
        if (r.phase >= 1 && r.cost.conflicts > 0) {
          res.counterexample = cx(id, p, o,
                                  "queries " + list_text(q) + ": site " + PbsSearch<Key, PbsVariant::cf>::kSiteNames[r.site] +
                                      " round " + to_string(r.k) + " is " + to_string(r.cost.degree) + "-way (" +
                                      to_string(r.cost.conflicts) + " conflicts)");
          return res;
        }
    }
    return res;
  };
  return c;
}

/// PBS-CF / PBS-CL return the predecessor (the paper's Algorithms 2-3 and Section IV-C).
template <PbsVariant V>
Claim pbs_correct_claim(const std::string& id, const std::string& name) {
  Claim c;
  c.id = id;
  c.paper = "HiPC 2015";
  c.lemma = "Section IV-B/C, " + name + " answers";
  c.statement = name + " returns the predecessor (largest i with K[i] <= q, -1 below K[0]) for every query set "
                "(keys 0..K-1, queries -1..K; point = (w, K))";
  c.hypotheses = "w a power of two, K >= 2w^2";
  c.category = "algorithm";
  c.domain = Domain{2, 8, 1, 160, false};
  c.region = pbs_region;
  c.exhaustive_cases = pbs_exhaustive;
  c.planned_cases = [](const Point& p, const CheckOptions& o) {
    const BigCount all = pbs_exhaustive(p);
    return o.mode == Mode::automatic && all <= o.inputs_limit ? all : BigCount(o.inputs + 3);
  };
  c.check = [id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      const auto run = run_pbs<int, V>(static_cast<unsigned>(p.w), K, q, model);
      if (std::string bad = wrong_answer(K, q, run.answers); !bad.empty()) {
        res.counterexample = cx(id, p, o, "queries " + list_text(q) + ": " + bad);
        return res;
      }
    }
    return res;
  };
  return c;
}

/// The worst-case queries of Corollary 4.1: q_i = K[i K/w + C] (sim/inputs/pbs_adversary.hpp).
std::vector<int> corollary_queries(uint64_t w, long K, long C) {
  std::vector<int> q(w);
  for (uint64_t i = 0; i < w; ++i)
    q[i] = static_cast<int>(inputs::corollary41_index(static_cast<std::uint64_t>(K), static_cast<unsigned>(w),
                                                      static_cast<unsigned>(i), static_cast<std::uint64_t>(C)));
  return q;
}

Region corollary_region(const Point& p) {
  if (p.w < 2 || p.E < p.w * p.w || p.E % (p.w * p.w) != 0) return Region::skip;
  return nt::is_power_of_two(p.w) && nt::is_power_of_two(p.E) ? Region::within : Region::beyond;
}

std::vector<long> corollary_offsets(const Point& p, const CheckOptions& o) {
  const long span = static_cast<long>(p.E / p.w);
  std::vector<long> cs;
  if (o.mode == Mode::exhaustive || static_cast<uint64_t>(span) <= o.inputs_limit) {
    for (long C = 0; C < span; ++C) cs.push_back(C);
  } else {
    std::mt19937_64 rng(point_seed(o.seed, p));
    cs = {0, span - 1};
    for (uint64_t s = 0; s < o.inputs; ++s) cs.push_back(static_cast<long>(rng() % static_cast<uint64_t>(span)));
  }
  return cs;
}

/// Probe accesses per round (the `probe` site of Algorithm 1, phase 1).
std::vector<uint64_t> probe_degrees(const std::vector<Priced>& rows) {
  std::vector<uint64_t> deg;
  for (const Priced& r : rows)
    if (r.phase == 1 && r.site == PbsSearch<int, PbsVariant::pbs>::probe) {
      if (deg.size() <= r.k) deg.resize(r.k + 1, 0);
      deg[r.k] += r.cost.wavefronts;
    }
  return deg;
}

Claim corollary41() {
  Claim c;
  c.id = "hipc.corollary4.1";
  c.paper = "HiPC 2015";
  c.lemma = "Corollary 4.1";
  c.statement = "for K = 0 mod w^2, the queries q_i = K[i K/w + C] make PBS's probe round i (1-based) min(2^(i-1), w)-way, "
                "so w-way from round log w + 1 on (point = (w, K))";
  c.hypotheses = "w a power of two, K a power of two, K >= w^2 (K = 0 mod w^2); every C in [0, K/w)";
  c.category = "algorithm";
  c.domain = Domain{2, 16, 4, 1024, false};
  c.region = corollary_region;
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.E / p.w); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    for (long C : corollary_offsets(p, o)) {
      ++res.cases;
      const auto q = corollary_queries(p.w, K, C);
      const auto run = run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, q, model);
      const auto deg = probe_degrees(run.rows);
      for (std::size_t i = 0; i < deg.size(); ++i) {
        const uint64_t want = std::min<uint64_t>(uint64_t{1} << std::min<std::size_t>(i, 63), p.w);
        if (deg[i] != want) {
          res.counterexample = cx(id, p, o,
                                  "C=" + to_string(C) + ": probe round " + to_string(i + 1) + " costs " + to_string(deg[i]) +
                                      " accesses, expected min(2^" + to_string(i) + ", w) = " + to_string(want));
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
  Claim c;
  c.id = "hipc.lemma4.2";
  c.paper = "HiPC 2015";
  c.lemma = "Lemma 4.2";
  c.statement = "for K >= 2w^2 some w queries make every PBS probe round from 2 log w + 1 on a w-way conflict "
                "(found by the proof's pigeonhole over the real search paths; point = (w, K))";
  c.hypotheses = "w a power of two >= 2, K >= 2w^2";
  c.category = "worst case";
  c.domain = Domain{2, 16, 8, 1024, false};
  c.region = [](const Point& p) {
    if (p.w < 2 || p.E < 2 * p.w * p.w) return Region::skip;
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
      res.counterexample = cx(id, p, o, "no w queries share a bank with distinct addresses at round 2 log w + 1 and stay together");
      return res;
    }
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const auto deg = probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, chosen, model).rows);
    for (std::size_t k = r; k < deg.size(); ++k)
      if (deg[k] != p.w) {
        res.counterexample = cx(id, p, o,
                                "queries " + list_text(chosen) + ": probe round " + to_string(k + 1) + " costs " +
                                    to_string(deg[k]) + " accesses, not w");
        return res;
      }
    return res;
  };
  return c;
}

Claim a_pbs() {
  Claim c;
  c.id = "hipc.a_pbs";
  c.paper = "HiPC 2015";
  c.lemma = "Section V-B, A_PBS";
  c.statement = "the worst-case queries cost A_PBS = w(log K - log w + 1) - 1 probe accesses per warp, and no query "
                "set costs more (point = (w, K))";
  c.hypotheses = "w and K powers of two, K >= w^2";
  c.category = "worst case";
  c.domain = Domain{2, 16, 4, 1024, false};
  c.region = corollary_region;
  c.exhaustive_cases = [](const Point& p) { return BigCount(1) + pbs_exhaustive(p); };
  c.planned_cases = [](const Point& p, const CheckOptions& o) {
    const BigCount all = pbs_exhaustive(p);
    return 1 + (o.mode == Mode::automatic && all <= o.inputs_limit ? all : BigCount(o.inputs + 3));
  };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    const uint64_t formula = p.w * (nt::log2_floor(p.E) - nt::log2_floor(p.w) + 1) - 1;
    auto total = [](const std::vector<uint64_t>& deg) { return std::accumulate(deg.begin(), deg.end(), uint64_t{0}); };
    ++res.cases;
    const uint64_t worst =
        total(probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, corollary_queries(p.w, K, 0), model).rows));
    if (worst != formula) {
      res.counterexample = cx(id, p, o,
                              "queries K[iK/w] cost " + to_string(worst) + " probe accesses, A_PBS = " + to_string(formula));
      return res;
    }
    for (const auto& q : pbs_inputs(p, o)) {
      ++res.cases;
      const uint64_t t = total(probe_degrees(run_pbs<int, PbsVariant::pbs>(static_cast<unsigned>(p.w), K, q, model).rows));
      if (t > formula) {
        res.counterexample = cx(id, p, o,
                                "queries " + list_text(q) + " cost " + to_string(t) + " probe accesses, more than A_PBS = " +
                                    to_string(formula));
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
      const long checked = probe.window_check - static_cast<long>(w);   // unpadded index of the window check
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
  Claim c;
  c.id = "hipc.pbs_cl.stage2";
  c.paper = "HiPC 2015";
  c.lemma = "Section IV-C, PBS-CL stage 2";
  c.statement = "PBS-CL's stage-2 binary search costs at most w - 1 accesses per warp for every query set, and some "
                "query set reaches w - 1 (point = (w, K))";
  c.hypotheses = "w a power of two >= 2, K a power of two >= w^2";
  c.category = "algorithm";
  c.domain = Domain{2, 16, 4, 256, false};
  c.region = [](const Point& p) {
    if (p.w < 2 || p.E < p.w) return Region::skip;
    return nt::is_power_of_two(p.w) && nt::is_power_of_two(p.E) && p.E >= p.w * p.w ? Region::within : Region::beyond;
  };
  c.exhaustive_cases = [](const Point& p) { return BigCount(1) + pbs_exhaustive(p); };
  c.planned_cases = [](const Point& p, const CheckOptions& o) {
    const BigCount all = pbs_exhaustive(p);
    return 1 + (o.mode == Mode::automatic && all <= o.inputs_limit ? all : BigCount(o.inputs + 3));
  };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const long K = static_cast<long>(p.E);
    const uint64_t bound = p.w - 1;
    uint64_t best = 0;
    std::vector<int> best_q;
    auto consider = [&](const std::vector<int>& q) -> bool {
      ++res.cases;
      const auto run = run_pbs<int, PbsVariant::cl>(static_cast<unsigned>(p.w), K, q, model);
      const uint64_t t = cl_stage2(run.rows);
      if (t > best) best = t, best_q = q;
      if (t > bound) {
        res.counterexample = cx(id, p, o,
                                "queries " + list_text(q) + ": stage 2 costs " + to_string(t) + " accesses, more than w - 1 = " +
                                    to_string(bound));
        return false;
      }
      return true;
    };
    if (const auto q = cl_worst_queries(p.w, K, 0); !q.empty() && !consider(q)) return res;
    for (const auto& q : pbs_inputs(p, o))
      if (!consider(q)) return res;
    if (best < bound)
      res.counterexample = cx(id, p, o,
                              "no query set tried reaches w - 1 = " + to_string(bound) + "; the most was " + to_string(best) +
                                  (best_q.empty() ? "" : " (queries " + list_text(best_q) + ")"));
    return res;
  };
  return c;
}

// ------------------------------------------------------- Aho-Corasick ----

Claim ac_claim_for(const char* staging_name) {
  const TextStaging staging = parse_text_staging(staging_name);
  Claim c;
  c.id = std::string("ac.") + staging_name + ".scan_conflict_free";
  c.paper = "Aho-Corasick SM (KIPS)";
  c.lemma = "Section 2, Figures 3-4";
  c.statement = std::string("with the ") + staging_name +
                " staging every lane scans its own bank: the match phase makes no bank conflict, for every chunk size "
                "(point = (w, chunk in 4-byte words), 2w threads; match counts checked)";
  c.hypotheses = "chunk a multiple of 4 bytes up to 4096; threads a multiple of w";
  c.category = "algorithm";
  c.domain = Domain{1, 32, 1, 64, false};
  c.region = [](const Point& p) { return p.E <= 1024 ? Region::within : Region::skip; };
  c.exhaustive_cases = [](const Point&) { return BigCount(1); };
  c.check = [id = c.id, staging](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const std::vector<std::string> patterns = {"he", "she", "his", "hers", "abab"};
    const AcAutomaton automaton = build_aho_corasick(patterns);
    AhoCorasick algo;
    algo.threads = static_cast<unsigned>(2 * p.w);
    algo.chunk = static_cast<unsigned>(4 * p.E);
    algo.staging = staging;
    algo.validate();
    std::mt19937_64 rng(point_seed(o.seed, p));
    const char alphabet[] = "abehirs";
    std::string text(algo.words() * 4, 'a');
    for (char& ch : text) ch = alphabet[rng() % 7];
    std::vector<std::uint32_t> words(algo.words());
    std::memcpy(words.data(), text.data(), text.size());
    std::vector<std::uint32_t> matches(algo.threads, 0);
    algo.text = words.data();
    algo.next = automaton.next.data();
    algo.out_begin = automaton.out_begin.data();
    algo.out_length = automaton.out_length.data();
    algo.longest = automaton.longest;
    algo.matches = matches.data();
    BlockRecorder recorder(algo.shared_bytes());
    PricingListener listener(model);
    recorder.run(algo, algo.threads, static_cast<unsigned>(p.w), listener);
    for (const Priced& r : listener.rows) {
      if (r.phase != 1) continue;
      ++res.cases;
      if (r.cost.conflicts > 0) {
        res.counterexample = cx(id, p, o,
                                "warp " + to_string(r.warp) + " scan round " + to_string(r.k) + " is " +
                                    to_string(r.cost.degree) + "-way");
        return res;
      }
    }
    uint64_t naive = 0;
    for (const auto& pat : patterns)
      for (std::size_t at = text.find(pat); at != std::string::npos; at = text.find(pat, at + 1)) ++naive;
    const uint64_t counted = std::accumulate(matches.begin(), matches.end(), uint64_t{0});
    if (counted != naive)
      res.counterexample = cx(id, p, o, "the threads count " + to_string(counted) + " matches, the text has " + to_string(naive));
    return res;
  };
  return c;
}

// ------------------------------------------------------ CF-Merge gather ----

/// Per-thread |A_t| in [0, E]^threads: all of them when few, else structured
/// splits (all A, all B, alternating, ramps) and a seeded sample.
std::vector<std::vector<long>> gather_inputs(const Point& p, unsigned threads, const CheckOptions& o) {
  const long E = static_cast<long>(p.E);
  std::vector<std::vector<long>> sets;
  const BigCount all = boost::multiprecision::pow(BigCount(E + 1), threads);
  if (o.mode == Mode::exhaustive || (o.mode == Mode::automatic && all <= o.inputs_limit)) {
    std::vector<long> len(threads, 0);
    for (;;) {
      sets.push_back(len);
      unsigned i = 0;
      while (i < threads && len[i] == E) len[i++] = 0;
      if (i == threads) break;
      ++len[i];
    }
    return sets;
  }
  std::vector<long> a(threads, E), b(threads, 0), alt(threads), ramp(threads);
  for (unsigned t = 0; t < threads; ++t) {
    alt[t] = t % 2 ? 0 : E;
    ramp[t] = static_cast<long>(t % (p.E + 1));
  }
  sets = {a, b, alt, ramp};
  std::mt19937_64 rng(point_seed(o.seed, p));
  for (uint64_t s = 0; s < o.inputs; ++s) {
    std::vector<long> len(threads);
    for (auto& x : len) x = static_cast<long>(rng() % (p.E + 1));
    sets.push_back(len);
  }
  return sets;
}

BigCount gather_exhaustive(const Point& p, unsigned warps) {
  return boost::multiprecision::pow(BigCount(p.E + 1), static_cast<unsigned>(warps * p.w));
}

template <class Key>
Claim gather_claim_for(const std::string& id, unsigned warps, bool reverse_b, bool circular_shift) {
  Claim c;
  c.id = id;
  c.paper = "SPAA 2025";
  c.lemma = warps == 1 ? "Algorithm 1 (Sections 3.1-3.2), end to end" : "Algorithm 1 with Section 3.3, end to end";
  c.statement = "sim/algorithms/merge/cf_merge.hpp's dual subsequence gather and its inverse scatter make no bank conflict for every "
                "split of A and B across " + std::string(warps == 1 ? "the warp" : "a block of " + to_string(warps) + " warps") +
                " (gathered items checked; " + to_string(sizeof(Key)) + "-byte keys)" + (reverse_b && circular_shift ? "" : std::string(" [mutation:") +
                (reverse_b ? "" : " no B reversal") + (circular_shift ? "" : " no circular shift") + "]");
  c.hypotheses = "E <= w; |A_t| in [0, E] for every thread t";
  c.category = "algorithm";
  c.domain = Domain{1, warps == 1 ? 64u : 16u, 1, warps == 1 ? 64u : 16u};
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::beyond; };
  c.exhaustive_cases = [warps](const Point& p) { return gather_exhaustive(p, warps); };
  c.planned_cases = [warps](const Point& p, const CheckOptions& o) {
    const BigCount all = gather_exhaustive(p, warps);
    return o.mode == Mode::automatic && all <= o.inputs_limit ? all : BigCount(o.inputs + 4);
  };
  c.check = [id, warps, reverse_b, circular_shift](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const unsigned threads = warps * static_cast<unsigned>(p.w);
    const long E = static_cast<long>(p.E), n = static_cast<long>(threads) * E;
    for (const auto& len : gather_inputs(p, threads, o)) {
      ++res.cases;
      std::vector<long> splits(threads + 1, 0);
      for (unsigned t = 0; t < threads; ++t) splits[t + 1] = splits[t] + len[t];
      const long a_count = splits[threads];
      // A holds even values, B odd ones: each gathered item names its source.
      std::vector<Key> tile(static_cast<std::size_t>(n));
      for (long x = 0; x < a_count; ++x) tile[x] = static_cast<Key>(2 * x);
      for (long y = 0; y < n - a_count; ++y) tile[a_count + y] = static_cast<Key>(2 * y + 1);
      std::vector<long> split_buf(threads + 1);
      std::vector<Key> out(static_cast<std::size_t>(n), -1);
      CfMerge<Key> algo;
      algo.layout.w = static_cast<int>(p.w);
      algo.layout.E = static_cast<int>(p.E);
      algo.layout.threads = static_cast<int>(threads);
      algo.layout.a_count = a_count;
      algo.layout.reverse_b = reverse_b;
      algo.layout.circular_shift = circular_shift;
      algo.scatter = true;
      algo.tile = tile.data();
      algo.splits = splits.data();
      algo.split_buf = split_buf.data();
      algo.out = out.data();
      BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
      PricingListener listener(model);
      recorder.run(algo, threads, static_cast<unsigned>(p.w), listener);
      std::string lens;
      for (long x : len) lens += (lens.empty() ? "" : ",") + to_string(x);
      for (const Priced& r : listener.rows)
        if (r.phase >= 2 && r.cost.conflicts > 0) {
          res.counterexample = cx(id, p, o,
                                  "|A_t| = " + lens + ": " + (r.phase == 2 ? "gather" : "scatter") + " warp " +
                                      to_string(r.warp) + " round " + to_string(r.k) + " is " + to_string(r.cost.degree) +
                                      "-way");
          if (std::string replay = trace_counterexample(o, id, p, algo, static_cast<std::size_t>(algo.shared_bytes()), threads);
              !replay.empty())
            res.counterexample->reproduce = replay + "   # or: " + res.counterexample->reproduce;
          return res;
        }
      for (unsigned t = 0; t < threads; ++t) {
        std::vector<Key> got(out.begin() + t * E, out.begin() + (t + 1) * E), want;
        for (long x = splits[t]; x < splits[t + 1]; ++x) want.push_back(static_cast<Key>(2 * x));
        const long b_i = static_cast<long>(t) * E - splits[t];
        for (long y = b_i; y < b_i + E - len[t]; ++y) want.push_back(static_cast<Key>(2 * y + 1));
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        if (got != want) {
          res.counterexample = cx(id, p, o, "|A_t| = " + lens + ": thread " + to_string(t) + " gathered the wrong items");
          return res;
        }
      }
    }
    return res;
  };
  return c;
}

}  // namespace

Claim spaa_gather_claim(unsigned warps, bool reverse_b, bool circular_shift) {
  std::string id = warps == 1 ? "spaa.gather.warp" : "spaa.gather.block";
  if (!reverse_b) id += ".no_reversal";
  if (!circular_shift) id += ".no_shift";
  return gather_claim_for<std::int32_t>(id, warps, reverse_b, circular_shift);
}

Claim pbs_cf_conflict_free_claim(int offset_stride) {
  return pbs_cf_claim_for<int>(offset_stride, offset_stride == 1 ? "hipc.pbs_cf.conflict_free"
                                                                 : "hipc.pbs_cf.offset_stride_" + to_string(offset_stride),
                               "4-byte");
}

Claim ac_scan_conflict_free_claim(const char* staging) { return ac_claim_for(staging); }

std::vector<Claim> algorithm_claims() {
  return {spaa_gather_claim(1, true, true),
          spaa_gather_claim(2, true, true),
          [] {
            Claim c = gather_claim_for<std::int64_t>("spaa.gather.warp_8B", 1, true, true);
            c.domain = Domain{1, 32, 1, 32};  // the 8-byte question is about sm90's w = 32
            c.asserted = false;  // the paper's model holds one element per bank: 8-byte words are our question
            return c;
          }(),
          pbs_cf_conflict_free_claim(1),
          [] {
            Claim c = pbs_cf_claim_for<std::int64_t>(1, "hipc.pbs_cf.conflict_free_8B", "8-byte");
            c.asserted = false;  // the paper measured 8-byte keys in 8-byte bank mode; other presets are our question
            return c;
          }(),
          lemma42(),
          corollary41(),
          a_pbs(),
          cl_stage2_claim(),
          pbs_correct_claim<PbsVariant::cf>("hipc.pbs_cf.correct", "PBS-CF"),
          pbs_correct_claim<PbsVariant::cl>("hipc.pbs_cl.correct", "PBS-CL"),
          ac_scan_conflict_free_claim("sm2")};
}

}  // namespace bankcheck::proofs
