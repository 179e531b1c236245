#pragma once
// The algorithm registry: every traceable algorithm by name, with its
// parameters, their defaults and domain checks, and a driver that builds the
// algorithm for a chosen input, runs it block by block through the
// BlockRecorder and hands each warp instruction to a listener.
//
// run_algorithm() replays the instructions through a BankModel as they are
// produced (nothing is stored), and returns totals, per-site and per-round
// costs, the self-check of the algorithm's output (sorted? predecessor equal
// to std::upper_bound?) and the paper's analytic prediction where one
// exists. trace_algorithm() writes the same instructions to a TraceSink.
//
// Registering (docs/extending.md): an algorithm's folder holds a
// <name>_spec.cpp defining `std::vector<AlgorithmSpec> <name>_specs()`, and
// one line BANKCHECK_ALGORITHM(<name>_specs) in
// sim/algorithms/registered_algorithms.def lists it, in listing order. Code
// that links the library (a user's own tests) calls register_algorithm().
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/replay/cost_totals.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck {

/// Parameter values by name (w, K, E, u, key_bytes, queries, ...).
using Params = std::map<std::string, std::int64_t, std::less<>>;

struct ParamSpec {
  std::string name;
  std::int64_t default_value = 0;
  std::string help;  ///< meaning and allowed range
};

/// Which input the algorithm runs on.
struct InputChoice {
  enum class Kind { random, worst, file };
  Kind kind = Kind::random;
  std::uint64_t seed = 1;
  std::string path;  ///< for Kind::file: whitespace-separated integers
  /// For Kind::file: the integers in memory instead of a file (a search's
  /// candidates); `path` then only names them in messages.
  std::shared_ptr<const std::vector<std::int64_t>> values = nullptr;
  /// "random", "worst" or a file path.
  static InputChoice parse(std::string_view text, std::uint64_t seed);
  std::string describe() const;
};

/// A paper's closed form for one quantity of the run.
struct Prediction {
  std::string formula;                 ///< e.g. "A_PBS = w(log K - log w + 1) - 1 per warp (HiPC 2015 V-B)"
  std::string quantity;                ///< "wavefronts" or "conflicts"
  std::vector<std::string> sites;      ///< qualified site names it covers (empty: all)
  boost::multiprecision::cpp_int value;  ///< predicted total over the run
  std::string model;                   ///< model it is stated for ("dmm")
  /// How the replayed value must relate to `value` for the prediction to hold.
  enum class Relation { equal, at_most, at_least };
  Relation relation = Relation::equal;  ///< at_most: an upper bound; at_least: a worst case the input must reach
  /// Whether `replayed` satisfies the relation.
  bool holds(const boost::multiprecision::cpp_int& replayed) const {
    return relation == Relation::equal ? replayed == value : relation == Relation::at_most ? replayed <= value
                                                                                          : replayed >= value;
  }
  /// "=", "<=" or ">=".
  const char* relation_symbol() const {
    return relation == Relation::equal ? "=" : relation == Relation::at_most ? "<=" : ">=";
  }
};

/// What a driver reports besides the instructions.
struct AlgorithmOutcome {
  bool output_checked = false;  ///< the algorithm's output was compared with a reference
  bool output_ok = false;
  std::string check;            ///< what was checked ("answers == std::upper_bound - 1")
  std::uint64_t wrong = 0;      ///< outputs that differ from the reference
  std::string first_wrong;      ///< the first such output, described
  std::optional<Prediction> prediction;
  std::uint64_t blocks = 0;
  std::uint64_t items = 0;      ///< queries searched or keys merged
};

struct AlgorithmSpec {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;  ///< must include "w" (warp size = banks)
  /// Where `--input worst` comes from (a paper's construction, or why every
  /// input is a worst case); empty: the algorithm has none and `worst` is
  /// rejected with a message saying so.
  std::string worst_case;
  /// Throws std::invalid_argument naming the violated constraint.
  std::function<void(const Params&)> validate;
  /// @pre validate(params) passed. Runs every block; instructions go to `out`.
  std::function<AlgorithmOutcome(const Params&, const InputChoice&, InstructionListener& out)> drive;
};

/// Every registered algorithm: the built-in ones of registered_algorithms.def
/// in listing order, then those added by register_algorithm(). A deque, so
/// that references to an entry stay valid when another is registered.
const std::deque<AlgorithmSpec>& algorithms();
/// Add an algorithm at run time (after the built-in ones).
/// @pre no run_algorithm() / find_algorithm() call runs concurrently.
/// @throws std::invalid_argument when the name is empty or taken, a parameter
/// "w" is missing, or validate / drive is empty.
void register_algorithm(AlgorithmSpec spec);
/// @throws std::invalid_argument listing the known names.
const AlgorithmSpec& find_algorithm(std::string_view name);
/// @throws std::invalid_argument when `input` is `worst` and spec.worst_case is empty.
void require_worst_case(const AlgorithmSpec& spec, const InputChoice& input);
/// Defaults filled in, unknown names rejected, spec.validate applied.
/// @throws std::invalid_argument
Params resolve_params(const AlgorithmSpec& spec, const Params& given);

struct SiteCost {
  std::string site;  ///< qualified name
  CostTotals cost;
  WorstInstruction worst;      ///< index counts the run's instructions in issue order
  std::string worst_location;  ///< "block B warp W phase P round K" of `worst`
  GlobalTotals global;         ///< the site's gld/gst instructions (model/global_access.hpp), in no field above
};

/// One round: the k-th execution of a site within a phase, over all warps.
struct RoundCost {
  unsigned phase = 0;
  std::uint64_t k = 0;
  std::string site;
  CostTotals cost;
};

struct AlgorithmReport {
  std::string algorithm;
  Params params;
  std::string input;
  std::string worst_case;  ///< spec.worst_case when the input is `worst`
  std::string model;
  CostTotals total;
  GlobalTotals global;            ///< gld/gst instructions: sectors, lines, Karsin pages of w elements
  std::vector<SiteCost> sites;    ///< in first-issue order
  std::vector<RoundCost> rounds;  ///< by phase, then site, then k
  AlgorithmOutcome outcome;
  /// The replayed value of outcome.prediction's quantity over its sites.
  std::optional<std::uint64_t> replayed_for_prediction;
};

/// Run `name` with `params` on `input`, replaying through `model` (whose warp
/// must equal the algorithm's w). If `also` is given, the trace goes there too
/// (begin/end are called).
AlgorithmReport run_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                              const BankModel& model, TraceSink* also = nullptr);

/// Write the trace of `name` to `sink` (begin(w) ... end()); returns the outcome.
AlgorithmOutcome trace_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                                 TraceSink& sink);

/// Helpers for drivers (shared by every algorithm's spec; more in
/// sim/algorithms/spec_support.hpp).
std::int64_t param(const Params& p, std::string_view name);  ///< @throws if absent
/// Integers of a whitespace-separated file. @throws std::invalid_argument naming the file and line
/// (binary data is reported as such, never printed raw).
std::vector<std::int64_t> read_integers(const std::string& path);
/// The integers of a Kind::file input: `values` when set, else read_integers(path).
std::vector<std::int64_t> input_integers(const InputChoice& input);

}  // namespace bankcheck
