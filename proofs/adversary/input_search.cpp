#include "proofs/adversary/input_search.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "proofs/adversary/construction_params.hpp"
#include "sim/inputs/adversary_search.hpp"
#include "sim/inputs/merge_adversary.hpp"
#include "sim/inputs/splitmix64.hpp"
#include "sim/parallel/cluster.hpp"

namespace bankcheck::proofs {
namespace {

using namespace bankcheck::inputs;

/// Iterations, seed and the optional time limit, as sim/inputs wants them.
SearchBudget budget_of(const InputSearchRequest& r) {
  return SearchBudget{r.time_limit > 0 ? r.time_limit : 1e300, r.seed, r.iterations};
}

/// Counts the candidates and reports progress; `space` is the planned count.
struct Counter {
  const InputSearchRequest& request;
  std::uint64_t planned = 0, done = 0;
  void tick() {
    ++done;
    if (request.progress && (done & 63) == 0) request.progress(std::min(done, planned), planned);
  }
};

std::uint64_t planned_of(std::uint64_t lanes, std::uint64_t range, std::uint64_t iterations) {
  const double space = std::pow(static_cast<double>(range), static_cast<double>(lanes));
  return space <= static_cast<double>(iterations) ? static_cast<std::uint64_t>(space) : iterations;
}

using VectorCost = std::function<std::uint64_t(const std::vector<std::uint64_t>&)>;

/// search_vectors as `r.chains` independent chains, split over the ranks of
/// r.cluster; every rank returns the best chain's result (the lowest chain
/// of equal cost), its iterations the sum over the chains. A space no larger
/// than the iterations is enumerated once, whatever the chains.
VectorSearchResult search_in_chains(unsigned lanes, std::uint64_t range, const VectorCost& cost,
                                    const InputSearchRequest& r) {
  const bool exhaustive =
      std::pow(static_cast<double>(range), static_cast<double>(lanes)) <= static_cast<double>(r.iterations);
  const std::uint64_t chains = exhaustive ? 1 : std::min(r.chains, r.iterations);
  const int rank = r.cluster ? r.cluster->rank() : 0, ranks = r.cluster ? r.cluster->size() : 1;
  const Shard mine = shard_of(chains, rank, ranks);
  nlohmann::json found_here = nullptr;  // this rank's best: [chain, cost, values], and its iterations
  std::uint64_t iterations_here = 0;
  ShardOutcome outcome;
  try {
    for (std::size_t c = mine.begin; c < mine.end; ++c) {
      SearchBudget budget = budget_of(r);
      budget.seconds /= static_cast<double>(mine.size());
      // Chain 0 is the single search's stream, so --chains 1 is the search without chains.
      budget.seed = c == 0 ? r.seed : inputs::SplitMix64::hash(r.seed + c);
      budget.max_iterations = r.iterations / chains + (c < r.iterations % chains ? 1 : 0);
      const VectorSearchResult f =
          search_vectors(lanes, range, cost, budget, exhaustive ? r.iterations : budget.max_iterations);
      iterations_here += f.iterations;
      if (found_here.is_null() || f.cost > found_here[1].get<std::uint64_t>())
        found_here = {c, f.cost, f.values, f.exhaustive};
    }
    outcome.payload = nlohmann::json{found_here, iterations_here}.dump();
  } catch (const std::exception& e) {
    outcome = {false, e.what()};
  }
  const auto merge = [](const std::vector<std::string>& parts) {
    nlohmann::json best = nullptr;
    std::uint64_t iterations = 0;
    for (const std::string& part : parts) {  // ranks hold ascending chains: keep the first of the highest cost
      const nlohmann::json j = nlohmann::json::parse(part);
      iterations += j[1].get<std::uint64_t>();
      if (!j[0].is_null() && (best.is_null() || j[0][1].get<std::uint64_t>() > best[1].get<std::uint64_t>()))
        best = j[0];
    }
    return nlohmann::json{best, iterations}.dump();
  };
  if (!r.cluster && !outcome.ok) throw std::runtime_error(outcome.payload);
  const std::string all = r.cluster ? r.cluster->reduce(outcome, merge) : merge({outcome.payload});
  const nlohmann::json j = nlohmann::json::parse(all);
  VectorSearchResult result;
  result.values = j[0][2].get<std::vector<std::uint64_t>>();
  result.cost = j[0][1];
  result.exhaustive = j[0][3];
  result.iterations = j[1];
  return result;
}

void finish(InputSearchReport& report, const InputSearchRequest& r, const VectorSearchResult& found,
            const std::chrono::steady_clock::time_point start) {
  report.best.assign(found.values.begin(), found.values.end());
  report.best_cost = found.cost;
  report.tried = found.iterations;
  report.exhaustive = found.exhaustive;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.time_limited = r.time_limit > 0 && !found.exhaustive && found.iterations < r.iterations && secs >= r.time_limit;
}

std::string how_found(const InputSearchReport& report, const InputSearchRequest& r) {
  if (report.exhaustive) return " (exhaustive: the maximum)";
  std::string s = " (annealing, seed " + std::to_string(r.seed) +
                  (r.chains > 1 ? ", " + std::to_string(r.chains) + " chains" : "") + ")";
  if (report.time_limited)
    s += " -- stopped by --time-limit " + std::to_string(r.time_limit) + " s: the result depends on the machine's speed";
  return s;
}

InputSearchReport search_merge_warp(const InputSearchRequest& r) {
  const Params p = resolve_construction_params(*find_construction("merge-warp"), r.params);
  const unsigned w = static_cast<unsigned>(p.at("w")), E = static_cast<unsigned>(p.at("E"));
  const Section4Parameters s4 = section4_parameters(w, E);
  const auto built = labels_from_splits(worst_warp_splits(s4, true), w);
  const BankModel model = make_preset("dmm", w);
  // Every labeling of the warp's wE outputs (any |A|), A then B in shared memory.
  auto cost_of = [&](const std::vector<std::uint8_t>& l) {
    std::uint64_t na = 0;
    for (auto x : l) na += x == 0;
    return merge_warp_cost(model, {l, E, 0, na}, 4, MergeReads::paper_steps).total_wavefronts;
  };
  Counter counter{r, planned_of(std::uint64_t{w} * E, 2, r.iterations)};
  const auto start = std::chrono::steady_clock::now();
  const VectorSearchResult found = search_in_chains(
      w * E, 2,
      [&](const std::vector<std::uint64_t>& v) {
        counter.tick();
        return cost_of(std::vector<std::uint8_t>(v.begin(), v.end()));
      },
      r);
  InputSearchReport report;
  finish(report, r, found, start);
  // The file holds the lists A then B whose merge follows the best labeling.
  const MergeLists lists = merge_lists_from_labels(std::vector<std::uint8_t>(found.values.begin(), found.values.end()));
  report.best = lists.a;
  report.best.insert(report.best.end(), lists.b.begin(), lists.b.end());
  // The registry's CUB-style merge of one warp replays the lists (its reads are SerialMerge's, not the paper's steps).
  report.replay = "merge --model dmm w=" + std::to_string(w) + " E=" + std::to_string(E) + " u=" + std::to_string(w) +
                  " a_size=" + std::to_string(lists.a.size());
  std::ostringstream s;
  s << "search merge-warp (one warp's merge labeling, any split, paper-step wavefronts, dmm): w = " << w
    << ", E = " << E << "\n  best found    " << found.cost << how_found(report, r) << " after " << found.iterations
    << " labelings\n  construction  " << cost_of(built) << " (SPAA'25 Section 4)\n  bound         "
    << analytic::merge_worst_conflicts_per_warp(s4.warp, s4.items)
    << " (Theorem 8); every step at most E-way: E^2 = " << E * E << "\n";
  report.text = s.str();
  return report;
}

/// What the search maximizes: the quantity and sites of the paper's formula
/// for the algorithm when the registry states one (so the best input, the
/// construction and the bound are the same count), else total wavefronts.
struct SearchObjective {
  std::string quantity = "wavefronts";
  std::vector<std::string> sites;  ///< empty: every site
  std::string describe() const {
    std::string s = quantity + " of ";
    if (sites.empty()) return s + "every site";
    for (std::size_t i = 0; i < sites.size(); ++i) s += (i ? ", " : "") + sites[i];
    return s;
  }
  std::uint64_t of(const AlgorithmReport& r) const {
    std::uint64_t v = 0;
    for (const auto& site : r.sites) {
      if (!sites.empty() && std::find(sites.begin(), sites.end(), site.site) == sites.end()) continue;
      v += quantity == "conflicts" ? site.cost.conflicts() : site.cost.wavefronts;
    }
    return v;
  }
};

std::string bound_text(const Prediction& pr) {
  const bool conflict_free = pr.quantity == "conflicts" && pr.value == 0;
  const char* kind = pr.relation == Prediction::Relation::at_most    ? " (upper bound: "
                     : pr.relation == Prediction::Relation::at_least ? " (what the construction must reach: "
                     : conflict_free                                 ? " (claimed for every input: "
                                                                     : " (exact for the construction: ";
  return pr.value.str() + kind + pr.formula + ")";
}

/// A search over a registered algorithm's file inputs (the registry's
/// `--input FILE`), on the DMM: the length its inputs take, then the search.
class RegistrySearch {
 public:
  explicit RegistrySearch(const InputSearchRequest& r)
      : r_(r),
        params_(resolve_params(find_algorithm(r.algorithm), r.params)),
        model_(make_preset("dmm", static_cast<unsigned>(param_or("w", 32)))),
        // A merge's input is A then B: unless a_size is given, searched inputs split in half.
        half_split_(params_.count("a_size") && params_.at("a_size") == -1) {}

  InputSearchReport run() {
    const std::int64_t range = params_.count("K") ? 2 * params_.at("K") + 2 : 1024;
    const std::vector<std::uint64_t> lengths = input_lengths();
    std::string rejected;
    const std::uint64_t lanes = accepted_length(lengths, rejected);
    std::optional<AlgorithmReport> worst;
    try {
      worst = run_algorithm(r_.algorithm, params_, InputChoice{InputChoice::Kind::worst, r_.seed, ""}, model_);
    } catch (const std::invalid_argument&) {
    }
    std::string bound = "none stated for this algorithm and input (every lane its own wavefront is the trivial one)";
    if (worst && worst->outcome.prediction) {
      objective_.quantity = worst->outcome.prediction->quantity;
      objective_.sites = worst->outcome.prediction->sites;
      bound = bound_text(*worst->outcome.prediction);
    }
    const AlgorithmReport random =
        run_algorithm(r_.algorithm, params_, InputChoice{InputChoice::Kind::random, r_.seed, ""}, model_);
    InputSearchReport report;
    std::ostringstream s;
    s << "search " << r_.algorithm << " (dmm, w = " << model_.geometry().warp << "), maximizing "
      << objective_.describe() << "\n";
    if (lanes == 0)
      s << "  no search: an input of " << lengths.front() << " integers was rejected (" << rejected
        << "); set the length with --length\n";
    else
      search(lanes, static_cast<std::uint64_t>(range), report, s);
    s << "  random input  " << objective_.of(random) << "\n"
      << "  construction  " << (worst ? std::to_string(objective_.of(*worst)) + " (--input worst)" : "none")
      << "\n  bound         " << bound << "\n";
    report.text = s.str();
    return report;
  }

 private:
  std::uint64_t param_or(const char* k, std::uint64_t fallback) const {
    return params_.count(k) ? static_cast<std::uint64_t>(params_.at(k)) : fallback;
  }

  std::uint64_t run_on(const std::vector<std::uint64_t>& v) const {
    InputChoice in{InputChoice::Kind::file, 1, "(searched input)"};
    in.values = std::make_shared<const std::vector<std::int64_t>>(v.begin(), v.end());
    return objective_.of(run_algorithm(r_.algorithm, file_params_, in, model_));
  }

  /// Input length: the request's, else the first of w, n, u, u*per_thread, u*E the algorithm accepts.
  std::vector<std::uint64_t> input_lengths() const {
    std::vector<std::uint64_t> lengths = {r_.length ? r_.length : param_or("w", 32)};
    if (!r_.length)
      for (std::uint64_t len : {param_or("n", 0), param_or("u", 0), param_or("u", 0) * param_or("per_thread", 0),
                                param_or("u", 0) * param_or("E", 0)})
        if (len) lengths.push_back(len);
    return lengths;
  }

  /// The first length whose all-ones input the algorithm accepts (0: none; `rejected` says why the last failed).
  std::uint64_t accepted_length(const std::vector<std::uint64_t>& lengths, std::string& rejected) {
    file_params_ = params_;
    for (std::uint64_t len : lengths) {
      if (params_.count("queries")) params_["queries"] = static_cast<std::int64_t>(len);
      file_params_ = params_;
      if (half_split_) file_params_["a_size"] = static_cast<std::int64_t>(len / 2);
      try {
        run_on(std::vector<std::uint64_t>(len, 1));
        return len;
      } catch (const std::invalid_argument& e) {
        rejected = e.what();
      }
    }
    return 0;
  }

  void search(std::uint64_t lanes, std::uint64_t range, InputSearchReport& report, std::ostringstream& s) const {
    Counter counter{r_, planned_of(lanes, range, r_.iterations)};
    const auto start = std::chrono::steady_clock::now();
    const VectorSearchResult found = search_in_chains(
        static_cast<unsigned>(lanes), range,
        [&](const std::vector<std::uint64_t>& v) {
          counter.tick();
          return run_on(v);
        },
        r_);
    finish(report, r_, found, start);
    // The search costs on the DMM; `run` defaults to sm90, so the replay says which model.
    report.replay = r_.algorithm + " --model dmm";
    for (const auto& [name, value] : file_params_) report.replay += " " + name + "=" + std::to_string(value);
    s << "  best found    " << found.cost << how_found(report, r_) << " after " << found.iterations << " inputs of "
      << lanes << " integers in [0, " << range << ")\n";
  }

  const InputSearchRequest& r_;
  Params params_;
  const BankModel model_;
  const bool half_split_;
  Params file_params_;
  SearchObjective objective_;
};

InputSearchReport search_registry(const InputSearchRequest& r) { return RegistrySearch(r).run(); }

}  // namespace

InputSearchReport search_worst_input(const InputSearchRequest& r) {
  if (r.algorithm == "cub-merge-sort" || r.algorithm == "spaa-merge-sort")
    throw std::invalid_argument("'" + r.algorithm + "' names a construction, not an algorithm: --search takes merge-warp "
                                "or an algorithm of `bankcheck run --list` (for the sort: merge-sort " +
                                (r.algorithm == "cub-merge-sort" ? "E=17 u=256" : "E=15 u=512") + " --search)");
  if (r.iterations == 0) throw std::invalid_argument("--iterations must be at least 1");
  if (r.chains == 0) throw std::invalid_argument("--chains must be at least 1");
  InputSearchReport report = r.algorithm == "merge-warp" ? search_merge_warp(r) : search_registry(r);
  const bool writes = !r.cluster || r.cluster->root();  // under MPI rank 0 alone writes
  if (writes && !r.output.empty() && !report.best.empty()) {
    std::int64_t lo = 0, hi = 0;
    for (std::int64_t v : report.best) lo = std::min(lo, v), hi = std::max(hi, v);
    check_key_fits(r.key_bytes, lo, hi);
    KeyFileWriter out(r.output, r.format, r.key_bytes);
    out.append(report.best);
    out.commit();
    report.text += "  best input -> " + r.output + " (" + key_format_name(r.format) + ", " +
                   std::to_string(report.best.size()) + " integers; `bankcheck run " + report.replay +
                   " --input " + r.output + "` replays it)\n";
  }
  return report;
}

}  // namespace bankcheck::proofs
