// `bankcheck adversary ALGO ...`: write a worst-case input and print what the
// model expects it to cost; or, with --search, look for a worse one.
// The constructions live in proofs/ (pbs_adversary, merge_adversary,
// merge_sort_adversary); the search in proofs/adversary_search.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "model/analytic.hpp"
#include "sim/inputs/adversary_search.hpp"
#include "sim/trace/atomic_file.hpp"
#include "sim/inputs/merge_adversary.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/inputs/pbs_adversary.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck::cli {
namespace {

using namespace bankcheck::inputs;

struct Options {
  std::string algo;
  std::uint64_t n = 0;
  std::string output;
  std::string format = "bin";
  unsigned key_bytes = 4;
  unsigned warp = 32;
  std::uint64_t keys = 0;  // PBS: |K|
  std::string construction = "corollary";
  std::uint64_t offset = 0;
  unsigned items = 0;
  unsigned threads = 0;
  bool search = false;
  double budget = 5.0;
  double pass_budget = 1.0;
  std::string wide_passes = "section4";
  std::uint64_t seed = 1;
  std::vector<std::string> params;  // name=value for registry algorithms
};

/// Writes keys in the chosen format, atomically.
class KeyWriter {
 public:
  KeyWriter(const Options& o) : file_(o.output), text_(o.format == "text"), bytes_(o.key_bytes) {
    static_assert(std::endian::native == std::endian::little, "binary output is written in host order");
  }
  void append(std::span<const std::int64_t> keys) {
    if (text_) {
      std::string s;
      for (auto k : keys) s += std::to_string(k) + "\n";
      file_.write(s);
    } else {
      buf_.clear();
      for (auto k : keys) push(k);
      file_.write(std::as_bytes(std::span<const char>(buf_.data(), buf_.size())));
    }
  }
  void commit() { file_.commit(); }

 private:
  void push(std::int64_t k) {
    if (bytes_ == 4) {
      const auto v = static_cast<std::int32_t>(k);
      buf_.append(reinterpret_cast<const char*>(&v), 4);
    } else {
      buf_.append(reinterpret_cast<const char*>(&k), 8);
    }
  }
  AtomicFile file_;
  bool text_;
  unsigned bytes_;
  std::string buf_;
};

void require_output(const Options& o) {
  if (o.output.empty()) throw std::invalid_argument("-o FILE is required (where the input is written)");
  if (o.n == 0) throw std::invalid_argument("--n N is required and must be >= 1");
}

void check_fits(const Options& o, std::int64_t largest) {
  if (o.key_bytes == 4 && largest > INT32_MAX)
    throw std::invalid_argument("keys up to " + std::to_string(largest) +
                                " do not fit 4-byte keys; use --key-bytes 8");
}

// ---- PBS ----
int run_pbs(const Options& o) {
  require_output(o);
  if (o.keys == 0) throw std::invalid_argument("pbs needs --keys K (the sorted array's size), K >= 1");
  const BankModel model = make_preset("dmm", o.warp);
  const PbsQuerySet set = o.construction == "corollary" ? corollary41_queries(o.keys, o.warp, o.n, o.offset)
                          : o.construction == "lemma"
                              ? lemma42_queries(model, o.keys, o.key_bytes, o.n)
                              : throw std::invalid_argument("--construction must be corollary or lemma (got '" +
                                                            o.construction + "')");
  // Values of K = (1, 3, 5, ..., 2K-1), the keys `bankcheck run pbs` searches.
  std::vector<std::int64_t> values(set.queries.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 2 * static_cast<std::int64_t>(set.queries[i]) + 1;
  check_fits(o, 2 * static_cast<std::int64_t>(o.keys) + 1);
  KeyWriter out(o);
  out.append(values);
  out.commit();
  const PbsCost c = pbs_cost(model, o.keys, o.key_bytes, set.queries);
  std::cout << "pbs " << set.construction << ": K = " << o.keys << ", w = " << o.warp << ", " << o.n
            << " queries (values of K = 1, 3, ..., 2K-1) -> " << o.output << "\n"
            << "model dmm (w banks); w-way from round " << set.first_full_round << " by the proof\n"
            << "round  wavefronts (all warps)\n";
  for (std::size_t k = 0; k < c.wavefronts_per_round.size(); ++k)
    std::cout << std::setw(5) << k + 1 << "  " << c.wavefronts_per_round[k] << "\n";
  std::cout << "total wavefronts " << c.total_wavefronts << ", conflicts " << c.total_conflicts << "\n";
  return kOk;
}

// ---- one merge ----
int run_merge(const Options& o) {
  require_output(o);
  const unsigned E = o.items ? o.items : 17;
  const Section4Parameters p = section4_parameters(o.warp, E);
  const std::uint64_t per_warp = std::uint64_t{o.warp} * E;
  if (o.n % (2 * per_warp) != 0) {
    const std::uint64_t down = o.n / (2 * per_warp) * 2 * per_warp, up = down + 2 * per_warp;
    throw std::invalid_argument("merge: n must be a multiple of 2wE = " + std::to_string(2 * per_warp) +
                                " (pairs of warps, A-major then B-major, so |A| = |B|); got " + std::to_string(o.n) +
                                "; nearest valid value: " + std::to_string(down == 0 || o.n - down > up - o.n ? up : down));
  }
  std::vector<std::uint8_t> labels;
  for (std::uint64_t v = 0; v < o.n / per_warp; ++v) {
    const auto l = labels_from_splits(worst_warp_splits(p, v % 2 == 0), o.warp);
    labels.insert(labels.end(), l.begin(), l.end());
  }
  check_fits(o, static_cast<std::int64_t>(o.n));
  const MergeLists lists = merge_lists_from_labels(labels);
  KeyWriter out(o);
  out.append(lists.a);
  out.append(lists.b);
  out.commit();
  const BankModel model = make_preset("dmm", o.warp);
  std::uint64_t paper = 0, cub = 0, a0 = 0, b0 = 0;
  for (std::uint64_t v = 0; v < o.n / per_warp; ++v) {
    const std::span<const std::uint8_t> l(labels.data() + v * per_warp, per_warp);
    const WarpMergeLayout layout{l, E, a0, lists.a.size() + b0};
    paper += merge_warp_cost(model, layout, o.key_bytes, MergeReads::paper_steps).total_wavefronts;
    cub += merge_warp_cost(model, layout, o.key_bytes, MergeReads::cub_serial_merge).total_wavefronts;
    for (auto x : l) (x ? b0 : a0)++;
  }
  const std::uint64_t warps = o.n / per_warp;
  const auto theorem8 = analytic::merge_worst_conflicts_per_warp(p.warp, p.items);
  std::cout << "merge (SPAA'25 Section 4): w = " << o.warp << ", E = " << E << ", d = " << p.d << ", q = " << p.q
            << ", r = " << p.r << "; |A| = " << lists.a.size() << ", |B| = " << lists.b.size()
            << " sorted keys, A then B -> " << o.output << "\n"
            << "model dmm, " << warps << " warps:\n"
            << "  paper-step wavefronts " << paper << " (Theorem 8: " << theorem8 * warps << ", " << theorem8
            << " per warp)\n"
            << "  CUB SerialMerge-read wavefronts " << cub << "\n";
  return kOk;
}

// ---- whole merge sort ----
int run_merge_sort(const Options& o, unsigned threads, unsigned items) {
  require_output(o);
  const MergeSortShape shape{threads, items, o.warp, o.n};
  check_merge_sort_shape(shape);
  check_fits(o, static_cast<std::int64_t>(o.n) - 1);
  const auto t0 = std::chrono::steady_clock::now();
  const MergeSortAdversary adv(shape, SearchBudget{o.pass_budget, o.seed, ~std::uint64_t{0}},
                               o.wide_passes == "warp-search" ? MergeSortAdversary::WidePasses::warp_search
                                                              : MergeSortAdversary::WidePasses::section4);
  const double plan_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string speed;
  if (o.format == "text") {  // streamed tile by tile: memory O(tile), whatever n
    KeyWriter out(o);
    adv.generate_tiles<std::int64_t>([&](std::uint64_t, std::span<const std::int64_t> keys) { out.append(keys); });
    out.commit();
  } else {
    const PermutationFileWrite w = write_permutation_file(adv, o.output, o.key_bytes);
    std::ostringstream s;
    s << std::setprecision(3) << "plan " << plan_secs << " s, generate + write " << w.write_seconds << " s ("
      << static_cast<double>(o.n) / w.write_seconds << " keys/s), fsync + rename " << w.commit_seconds << " s\n";
    speed = s.str();
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "merge sort u = " << threads << ", E = " << items << ", w = " << o.warp << ", n = " << o.n
            << " (a permutation of 0..n-1) -> " << o.output << " in " << std::setprecision(3) << secs << " s\n"
            << speed
            << "model dmm, w banks; wavefronts of the serial-merge reads, all warps of the pass\n"
            << std::left << std::setw(28) << "pass" << std::setw(22) << "labeling" << std::right << std::setw(14)
            << "paper-steps" << std::setw(14) << "bound" << std::setw(9) << "ratio" << std::setw(14) << "CUB-reads"
            << std::setw(14) << "SerialMerge" << "\n";
  const auto costs = adv.pass_costs();
  for (std::size_t k = 0; k < costs.size(); ++k) {
    const auto& c = costs[k];
    std::cout << std::left << std::setw(28) << adv.passes()[k].name << std::setw(22) << adv.passes()[k].source
              << std::right << std::setw(14) << c.paper_wavefronts << std::setw(14) << c.bound << std::setw(9)
              << std::fixed << std::setprecision(3)
              << static_cast<double>(c.paper_wavefronts) / static_cast<double>(c.bound) << std::defaultfloat
              << std::setw(14) << c.cub_wavefronts << std::setw(14) << c.serial_merge_wavefronts << "\n";
  }
  std::cout << "bound: Theorem 8 per warp (section-4 passes); E^2 per warp, every step E-way (other passes: each "
               "bank holds E cells of a warp's wE elements)\n"
               "CUB-reads: init A, init B, a refill after each item; SerialMerge: without the last refill, what "
               "`bankcheck run merge-sort --input worst` replays\n";
  return kOk;
}

// ---- search ----
Params parse_params(const std::vector<std::string>& given) {
  Params p;
  for (const auto& kv : given) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--param takes name=value (got '" + kv + "')");
    std::size_t used = 0;
    std::int64_t v = 0;
    try {
      v = std::stoll(kv.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != kv.size() - eq - 1)
      throw std::invalid_argument("--param " + kv + ": the value is not an integer");
    p[kv.substr(0, eq)] = v;
  }
  return p;
}

// `merge-warp`: one warp's merge labeling (which list each of the wE merged
// outputs comes from, any |A|), paper-step cost: the space Section 4's
// construction lives in. Not a registry algorithm, hence its own name.
int run_merge_warp_search(const Options& o, const SearchBudget& budget) {
  const unsigned E = o.items ? o.items : 4;
  const Section4Parameters p = section4_parameters(o.warp, E);
  const unsigned len = o.warp * E;
  const auto built = labels_from_splits(worst_warp_splits(p, true), o.warp);
  // Every labeling of the warp's wE outputs (any |A|), A then B in shared memory.
  const BankModel model = make_preset("dmm", o.warp);
  auto cost_any = [&](const std::vector<std::uint8_t>& l) {
    std::uint64_t na = 0;
    for (auto x : l) na += x == 0;
    return merge_warp_cost(model, {l, E, 0, na}, 4, MergeReads::paper_steps).total_wavefronts;
  };
  VectorSearchResult r = search_vectors(
      len, 2,
      [&](const std::vector<std::uint64_t>& v) {
        std::vector<std::uint8_t> l(v.begin(), v.end());
        return cost_any(l);
      },
      budget);
  std::cout << "search merge-warp (one warp's merge labeling, any split, paper-step wavefronts, dmm): w = " << o.warp
            << ", E = " << E << "\n  best found    " << r.cost
            << (r.exhaustive ? " (exhaustive: the maximum)" : " (annealing)") << " after " << r.iterations
            << " labelings\n  construction  " << cost_any(built) << " (SPAA'25 Section 4)\n  bound         "
            << analytic::merge_worst_conflicts_per_warp(p.warp, p.items) << " (Theorem 8); every step at most E-way: E^2 = " << E * E << "\n";
  return kOk;
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
      v += quantity == "conflicts" ? site.cost.conflicts : site.cost.wavefronts;
    }
    return v;
  }
};

int run_search(const Options& o) {
  SearchBudget budget{o.budget, o.seed, ~std::uint64_t{0}};
  if (o.budget <= 0) throw std::invalid_argument("--budget must be > 0 seconds");
  if (o.algo == "merge-warp") return run_merge_warp_search(o, budget);
  if (o.algo == "cub-merge-sort" || o.algo == "spaa-merge-sort")
    throw std::invalid_argument("'" + o.algo + "' names a construction, not an algorithm: --search takes merge-warp or "
                                "an algorithm of `bankcheck run --list` (for the sort: merge-sort --param E=" +
                                (o.algo == "cub-merge-sort" ? "17 --param u=256" : "15 --param u=512") + ")");
  // Any registered algorithm that reads an input file: search its integers.
  const AlgorithmSpec& spec = find_algorithm(o.algo);
  Params params = resolve_params(spec, parse_params(o.params));
  const BankModel model = make_preset("dmm", static_cast<unsigned>(params.count("w") ? params.at("w") : o.warp));
  std::uint64_t lanes = o.n ? o.n : (params.count("w") ? static_cast<std::uint64_t>(params.at("w")) : o.warp);
  const std::int64_t range = params.count("K") ? 2 * params.at("K") + 2 : 1024;
  if (params.count("queries")) params["queries"] = static_cast<std::int64_t>(lanes);
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("bankcheck-search-" + std::to_string(::getpid()) + ".txt");
  SearchObjective objective;
  // A merge's input file is A then B: unless --param a_size is given, the
  // searched files split in half (the worst and random runs keep a_size = -1).
  Params file_params = params;
  const bool half_split = params.count("a_size") && params.at("a_size") == -1;
  auto run_on = [&](const std::vector<std::uint64_t>& v) -> std::uint64_t {
    {
      std::ofstream f(tmp);
      for (auto x : v) f << x << "\n";
    }
    return objective.of(
        run_algorithm(o.algo, file_params, InputChoice{InputChoice::Kind::file, 1, tmp.string()}, model));
  };
  bool takes_file = false;
  std::string rejected;
  // Input length: --n, else the first of w, n, u, u*per_thread, u*E the algorithm accepts.
  std::vector<std::uint64_t> lengths = {lanes};
  if (!o.n) {
    auto get = [&](const char* k) { return params.count(k) ? static_cast<std::uint64_t>(params.at(k)) : 0; };
    for (std::uint64_t len : {get("n"), get("u"), get("u") * get("per_thread"), get("u") * get("E")})
      if (len) lengths.push_back(len);
  }
  for (std::uint64_t len : lengths) {
    if (params.count("queries")) params["queries"] = static_cast<std::int64_t>(len);
    file_params = params;
    if (half_split) file_params["a_size"] = static_cast<std::int64_t>(len / 2);
    try {
      run_on(std::vector<std::uint64_t>(len, 1));
      takes_file = true;
      lanes = len;
      break;
    } catch (const std::invalid_argument& e) {
      rejected = e.what();
    }
  }
  std::optional<AlgorithmReport> worst;
  try {
    worst = run_algorithm(o.algo, params, InputChoice{InputChoice::Kind::worst, o.seed, ""}, model);
  } catch (const std::invalid_argument&) {
  }
  std::string bound = "none stated for this algorithm and input (every lane its own wavefront is the trivial one)";
  if (worst && worst->outcome.prediction) {
    const Prediction& pr = *worst->outcome.prediction;
    objective.quantity = pr.quantity;
    objective.sites = pr.sites;
    const bool conflict_free = pr.quantity == "conflicts" && pr.value == 0;
    const char* kind = pr.relation == Prediction::Relation::at_most   ? " (upper bound: "
                       : pr.relation == Prediction::Relation::at_least ? " (what the construction must reach: "
                       : conflict_free                                 ? " (claimed for every input: "
                                                                       : " (exact for the construction: ";
    bound = pr.value.str() + kind + pr.formula + ")";
  }
  const AlgorithmReport random = run_algorithm(o.algo, params, InputChoice{InputChoice::Kind::random, o.seed, ""}, model);
  std::cout << "search " << o.algo << " (dmm, w = " << model.geometry().warp << "), maximizing " << objective.describe()
            << "\n";
  if (!takes_file) {
    std::cout << "  no search: an input file of " << lanes << " integers was rejected (" << rejected
              << "); set the length with --n\n";
  } else {
    const VectorSearchResult r =
        search_vectors(static_cast<unsigned>(lanes), static_cast<std::uint64_t>(range), run_on, budget);
    std::cout << "  best found    " << r.cost << (r.exhaustive ? " (exhaustive: the maximum)" : " (annealing)")
              << " after " << r.iterations << " inputs of " << lanes << " integers in [0, " << range << ")\n";
  }
  std::cout << "  random input  " << objective.of(random) << "\n"
            << "  construction  " << (worst ? std::to_string(objective.of(*worst)) + " (--input worst)" : "none")
            << "\n  bound         " << bound << "\n";
  std::error_code ignored;
  std::filesystem::remove(tmp, ignored);
  return kOk;
}

}  // namespace

void add_adversary_command(CLI::App& app) {
  auto opts = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "adversary",
      "write a worst-case input and print its expected cost per pass (pbs, merge, merge-sort, cub-merge-sort, "
      "spaa-merge-sort), or --search merge-warp or any registered algorithm for a worse input");
  cmd->add_option("ALGO", opts->algo,
                  "construction: pbs | merge | merge-sort | cub-merge-sort | spaa-merge-sort; with --search: "
                  "merge-warp (one warp's merge labeling) or any algorithm of `bankcheck run --list`")
      ->required();
  cmd->add_option("--n,-n", opts->n, "keys (merge, merge-sort) or queries (pbs) to write");
  cmd->add_option("-o,--output", opts->output, "output file (written atomically)");
  cmd->add_option("--format", opts->format, "bin: raw little-endian int32/int64; text: one key per line")
      ->check(CLI::IsMember({"bin", "text"}));
  cmd->add_option("--key-bytes", opts->key_bytes, "4 or 8")->check(CLI::IsMember({4u, 8u}));
  cmd->add_option("--warp,-w", opts->warp, "warp size = banks, 2..1024")->check(CLI::Range(2u, 1024u));
  cmd->add_option("--keys,-K", opts->keys, "pbs: size K of the sorted array");
  cmd->add_option("--construction", opts->construction, "pbs: corollary (Cor. 4.1, K % w^2 == 0) or lemma (Lemma 4.2, K >= 2w^2)");
  cmd->add_option("--offset,-C", opts->offset, "pbs corollary: the constant C, 0 <= C < K/w");
  cmd->add_option("--items,-E", opts->items, "items per thread E, 1 < E <= w");
  cmd->add_option("--threads,-u", opts->threads, "merge-sort: threads per block u");
  cmd->add_flag("--search", opts->search, "search for a worse input instead of writing the construction");
  cmd->add_option("--budget", opts->budget, "search: seconds");
  cmd->add_option("--seed", opts->seed, "search: random seed");
  cmd->add_option("--pass-budget", opts->pass_budget,
                  "merge-sort: seconds of target search for each in-block pass with fewer than 2w threads per merge "
                  "(default 1)")
      ->check(CLI::Range(0.001, 600.0));
  cmd->add_option("--wide-passes", opts->wide_passes,
                  "merge-sort: labeling of the passes of >= 2 warps per merge: section4 (Theorem 8, default) or "
                  "warp-search (the grouped worst case of one warp; exceeds Theorem 8 for w = 32, E = 15, 17)")
      ->check(CLI::IsMember({"section4", "warp-search"}));
  cmd->add_option("--param", opts->params, "search: algorithm parameter name=value (repeatable)");
  cmd->callback([opts] {
    const Options& o = *opts;
    if (o.search) {
      exit_code() = run_search(o);
      return;
    }
    if (o.algo == "pbs") exit_code() = run_pbs(o);
    else if (o.algo == "merge") exit_code() = run_merge(o);
    else if (o.algo == "cub-merge-sort") exit_code() = run_merge_sort(o, 256, 17);
    else if (o.algo == "spaa-merge-sort") exit_code() = run_merge_sort(o, 512, 15);
    else if (o.algo == "merge-sort") {
      if (o.threads == 0 || o.items == 0) throw std::invalid_argument("merge-sort needs --threads u and --items E");
      exit_code() = run_merge_sort(o, o.threads, o.items);
    } else
      throw std::invalid_argument("no construction for '" + o.algo +
                                  "' (constructions: pbs, merge, merge-sort, cub-merge-sort, spaa-merge-sort); "
                                  "use --search to look for a worst case of any registered algorithm");
  });
}

}  // namespace bankcheck::cli
