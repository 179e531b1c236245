#pragma once
// What the algorithms' registry entries (<folder>/<name>_spec.cpp, see
// docs/extending.md) have in common: parameter checks whose messages name
// the parameter and its allowed range, the "conflict free" prediction, the
// worst case of an algorithm whose addresses do not depend on the data, and
// running one block of a BlockAlgorithm through the recorder.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/power_of_two.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/block_recorder.hpp"

namespace bankcheck::spec_support {

/// @throws std::invalid_argument(what) unless ok.
inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

inline std::string num(std::int64_t v) { return std::to_string(v); }

/// A parameter already range-checked to fit (validate ran first).
inline unsigned u32(const Params& p, std::string_view name) { return static_cast<unsigned>(param(p, name)); }

/// @throws std::invalid_argument "NAME must be in LO..HI (got V)".
inline void require_range(const Params& p, std::string_view name, std::int64_t lo, std::int64_t hi) {
  const auto v = param(p, name);
  require(v >= lo && v <= hi, std::string(name) + " must be in " + num(lo) + ".." + num(hi) + " (got " + num(v) + ")");
}

/// A parameter (signed) that is positive and a power of two (model/power_of_two.hpp).
inline bool power_of_two(std::int64_t v) { return v > 0 && is_power_of_two(static_cast<std::uint64_t>(v)); }

/// For algorithms whose input is generated, not read: `--input FILE` is refused.
inline void no_file(const InputChoice& in, std::string_view algorithm) {
  require(in.kind != InputChoice::Kind::file,
          std::string(algorithm) + " takes no input file (use random or worst)");
}

/// "No bank conflicts" in the DMM over `sites` (empty: every site).
inline Prediction conflict_free(std::string formula, std::vector<std::string> sites) {
  Prediction pr;
  pr.formula = std::move(formula);
  pr.quantity = "conflicts";
  pr.sites = std::move(sites);
  pr.value = 0;
  pr.model = "dmm";
  return pr;
}

/// AlgorithmSpec::worst_case of an algorithm whose addresses do not depend on
/// the data: `--input worst` runs the random input, and every input costs the
/// same (tests/cli/run_command_test.cpp checks two other seeds).
inline constexpr const char* kDataOblivious =
    "any input: the addresses do not depend on the data (every input costs the same)";

/// One block of `algo` (its own thread count and shared memory) on warps of
/// `warp` lanes, instructions to `out`.
template <BlockAlgorithm A>
RecorderSummary record_block(const A& algo, unsigned warp, InstructionListener& out, std::uint64_t block = 0) {
  BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
  return recorder.run(algo, warp, out, block);
}

}  // namespace bankcheck::spec_support
