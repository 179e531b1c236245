#pragma once
// A Claim: one statement of a paper made executable. It names where it comes
// from (paper, lemma), what it says, the hypotheses under which the paper
// asserts it, and a checker that tests it at one parameter point (w, E) and
// returns how many cases it examined and the first counterexample, with a
// one-line command that reproduces it.
//
// Points inside the hypotheses decide whether the claim holds; points beyond
// them (w not a power of two, E > w, ...) are explored and a failure there is
// a finding, not a refutation of the paper. The claim's domain (within or
// beyond) is where its check is defined; `region` declares the points
// outside it, which are counted and not checked. Nothing is inferred from an
// exception: a check that throws at a point of its domain fails there.
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/inputs/splitmix64.hpp"

namespace bankcheck::proofs {

/// A parameter point: w banks = w lanes per warp, E elements per thread (or,
/// for claims with other parameters, the claim's two documented parameters).
struct Point {
  std::uint64_t w = 1;
  std::uint64_t E = 1;
};

/// Where a point lies relative to a claim's hypotheses: within them, beyond
/// them (explored), or outside the claim's domain (the check is not defined
/// there, e.g. parameters the algorithm refuses: counted, never checked).
enum class Region { within, beyond, outside };

/// How inputs at a point are covered.
enum class Mode {
  automatic,   ///< every input when the point has at most `inputs_limit` of them, else `inputs` sampled
  exhaustive,  ///< every input; refused (exit 2) when the total exceeds `case_limit`
  sample,      ///< `inputs` sampled inputs per point (and `points` sampled points per claim)
};

/// What a checker needs besides the point.
struct CheckOptions {
  Mode mode = Mode::automatic;
  std::uint64_t inputs = 64;            ///< sampled inputs per point
  /// Automatic and sample modes: a point's random inputs stop once they would visit more
  /// than this many elements (an input of an algorithm claim visits about
  /// threads * E); its structured inputs always run, and at least one random
  /// one. 0: no bound, `inputs` of them everywhere.
  std::uint64_t input_work = 0;
  std::uint64_t inputs_limit = 4096;    ///< automatic: enumerate when a point has at most this many inputs
  std::uint64_t seed = 1;               ///< base seed; a point's stream depends only on (seed, w, E)
  std::string model = "dmm";            ///< bank model preset for replayed claims
  std::string artifact_dir;             ///< where trace files of counterexamples go ("" = none)
  bool brute_force = false;             ///< use Claim::check even where a Claim::fast_check exists
};

/// `bankcheck verify`'s bound on a point's random inputs when --inputs is not
/// given: 64 inputs up to w*E = 1024, then fewer, one from w*E = 65536 on.
inline constexpr std::uint64_t kDefaultInputWork = std::uint64_t{1} << 16;

/// A case where the claim is false, with what it takes to see it again.
struct Counterexample {
  Point point;
  std::string detail;     ///< what was expected and what was found
  std::string reproduce;  ///< one command line (verify at this point, or run/replay of a trace file)
};

/// Result of checking one point: the claim holds there (neither field set),
/// fails with a counterexample, or is undecided: a bounded search found
/// neither a counterexample nor the witness the claim asks for, and `detail`
/// says what was searched. A check reports a failure only with a proof (an
/// input checked by the exact model, or an exhaustive search).
/// @post counterexample => the claim is false at this point for the input it describes.
/// @post at most one of counterexample and undecided is set.
struct PointResult {
  std::uint64_t cases = 0;
  std::optional<Counterexample> counterexample;
  std::optional<Counterexample> undecided;
};

/// Default parameter ranges of a claim (inclusive): the grid `verify` checks
/// without --w/--E (points of it outside the claim's domain, Region::outside,
/// are left out); `triangle` keeps only E <= w there (the papers' setting),
/// while explicit --E ranges explore E > w.
struct Domain {
  std::uint64_t w_lo = 1, w_hi = 256;
  std::uint64_t E_lo = 1, E_hi = 256;
  bool triangle = true;
};

using BigCount = boost::multiprecision::cpp_int;

struct Claim {
  std::string id;          ///< e.g. "spaa.lemma1"
  std::string paper;       ///< e.g. "SPAA 2025"
  std::string lemma;       ///< e.g. "Lemma 1"
  std::string statement;   ///< what is asserted, in one sentence
  std::string hypotheses;  ///< under which conditions the paper asserts it
  std::string category;    ///< "number theory", "algorithm", "worst case", ...
  Domain domain;           ///< default ranges for `verify` without --w/--E (not the domain: see `region`)
  /// False for questions the paper does not assert as stated (e.g. "is the
  /// construction the exact maximum?"): a counterexample is then a finding.
  bool asserted = true;
  /// Where a point lies; Region::outside declares the points the check is
  /// not defined for (the only points `verify` leaves out).
  std::function<Region(const Point&)> region;
  /// The brute-force check: runs the paper's objects or the algorithm code as
  /// written. It is the oracle that fast_check is tested against.
  std::function<PointResult(const Point&, const CheckOptions&)> check;
  /// Optional: the same verdict, the same cases and the same first
  /// counterexample as `check`, computed with less work (closed forms, slot
  /// functions instead of a block replay, stamps instead of allocations).
  std::function<PointResult(const Point&, const CheckOptions&)> fast_check;
  /// Bank model presets the claim is stated for (model/bank_model.hpp), the
  /// first being the one `verify` uses without --model. Empty: the claim
  /// does not depend on a bank model (correctness of answers) and runs under
  /// any. Under a model outside the list the claim is "not applicable".
  std::vector<std::string> models = {"dmm"};
  /// Cases an exhaustive check of this point examines (for the size guard).
  std::function<BigCount(const Point&)> exhaustive_cases;
  /// Cases the automatic/sample mode examines at most (defaults to exhaustive_cases).
  std::function<BigCount(const Point&, const CheckOptions&)> planned_cases;
};

/// SplitMix64's hash (sim/inputs/splitmix64.hpp): the per-point random stream
/// depends only on (seed, w, E), so a counterexample found in a large run
/// reproduces from its point alone.
constexpr std::uint64_t mix64(std::uint64_t x) { return inputs::SplitMix64::hash(x); }
constexpr std::uint64_t point_seed(std::uint64_t seed, const Point& p) {
  return mix64(mix64(mix64(seed) ^ p.w) ^ (p.E * 0x632be59bd9b4e019ull));
}

/// `bankcheck verify ID --w W..W --E E..E` plus the options that shape inputs.
inline std::string reproduce_command(const std::string& id, const Point& p, const CheckOptions& o) {
  std::string cmd = "bankcheck verify " + id + " --w " + std::to_string(p.w) + ".." + std::to_string(p.w) + " --E " +
                    std::to_string(p.E) + ".." + std::to_string(p.E);
  if (o.mode == Mode::exhaustive) cmd += " --exhaustive";
  if (o.mode == Mode::sample) cmd += " --sample 1 --inputs " + std::to_string(o.inputs);
  if (o.mode != Mode::exhaustive) cmd += " --seed " + std::to_string(o.seed);
  if (o.model != "dmm") cmd += " --model " + o.model;
  return cmd;
}

/// A counterexample at `p` with its reproduction command.
inline Counterexample counterexample_at(const std::string& id, const Point& p, const CheckOptions& o,
                                        std::string detail) {
  return Counterexample{p, std::move(detail), reproduce_command(id, p, o)};
}

}  // namespace bankcheck::proofs
