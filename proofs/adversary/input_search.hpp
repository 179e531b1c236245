#pragma once
// `bankcheck adversary ALGO --search`: looks for an input that costs more than
// the papers' constructions, by exhaustive enumeration where the space is
// within the iteration budget and simulated annealing beyond
// (sim/inputs/adversary_search.hpp). Each candidate runs through the
// algorithm registry with its integers in memory. The search is bounded by
// iterations, so the same seed gives the same result; a time limit can cut
// it short, and the report says so.
//
// The annealing may run as several independent chains (--chains N: chain c
// starts from seed c's generator with its share of the iterations; the best
// chain wins, the lowest on a tie). The chains are the unit of work of
// `mpirun -n R bankcheck adversary --search`: the ranks split them, so the
// result depends on N and the seed, never on R.
//
// ALGO is an algorithm of `bankcheck run --list`, or merge-warp: one warp's
// merge labeling (any |A|, the paper's step count), the space SPAA 2025
// Section 4's construction lives in.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "proofs/adversary/key_file.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck {
class Cluster;
}

namespace bankcheck::proofs {

struct InputSearchRequest {
  std::string algorithm;
  Params params;                    ///< name=value words (registry parameters, or merge-warp's w, E)
  std::uint64_t length = 0;         ///< integers per input; 0: the first of w, n, u, u*per_thread, u*E accepted
  std::uint64_t seed = 1;
  std::uint64_t iterations = 20000; ///< inputs tried at most (exhaustive when the space is no larger)
  std::uint64_t chains = 1;         ///< independent annealing chains sharing the iterations
  const Cluster* cluster = nullptr; ///< MPI ranks that split the chains; nullptr: this process runs all
  double time_limit = 0;            ///< seconds; 0: none (deterministic)
  std::string output;               ///< write the best input here ("" = no file)
  KeyFormat format = KeyFormat::text;
  unsigned key_bytes = 4;           ///< for --format bin
  /// Called as candidates are tried: done and planned.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct InputSearchReport {
  std::string text;                 ///< best found, random input, construction and bound, for stdout
  std::vector<std::int64_t> best;   ///< the best input (what -o writes)
  std::string replay;               ///< `bankcheck run ...` arguments that replay the best input, before "--input FILE"
  std::uint64_t best_cost = 0;
  std::uint64_t tried = 0;
  bool exhaustive = false;          ///< every input was tried: best_cost is the maximum
  bool time_limited = false;        ///< the time limit stopped the search
};

/// @throws std::invalid_argument for unknown algorithms or parameters, and
///         for the construction-only names (cub-merge-sort, spaa-merge-sort).
InputSearchReport search_worst_input(const InputSearchRequest& request);

}  // namespace bankcheck::proofs
