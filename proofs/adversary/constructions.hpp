#pragma once
// `bankcheck adversary NAME`: writes the input a paper's construction gives
// (sim/inputs: pbs_adversary, merge_adversary, merge_sort_adversary) and
// describes what the bank model expects it to cost.
#include <cstdint>
#include <functional>
#include <string>

#include "proofs/adversary/key_file.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"

namespace bankcheck::proofs {

struct ConstructionRequest {
  std::string name;                         ///< pbs, merge, merge-sort, cub-merge-sort, spaa-merge-sort
  Params params;                            ///< name=value words (proofs/adversary/construction_params.hpp)
  std::string pbs_construction = "corollary";  ///< pbs: corollary (Corollary 4.1) or lemma (Lemma 4.2)
  std::string output;                       ///< the file to write (required)
  KeyFormat format = KeyFormat::text;
  std::uint64_t seed = 1;                   ///< merge sorts: seed of the pass searches
  std::uint64_t pass_iterations = 3000;     ///< merge sorts: target sequences searched per pass
  double time_limit = 0;                    ///< merge sorts: seconds per pass search (0: none, deterministic)
  /// Called as tiles are written: keys done and in all.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct ConstructionReport {
  std::string text;  ///< what was written and its expected cost, for stdout
  std::uint64_t keys = 0;
};

/// @throws std::invalid_argument (before the file is created) for parameters
///         outside the construction's domain, naming the nearest valid value.
ConstructionReport write_construction(const ConstructionRequest& request);

/// Writes a merge sort adversary's permutation tile by tile, in order,
/// through a reused buffer of about 1 MiB (memory O(chunk + tile x passes),
/// whatever n), calling `progress` after each chunk. Returns the keys written.
/// @throws std::invalid_argument when n keys do not fit `key_bytes`.
std::uint64_t write_permutation(const inputs::MergeSortAdversary& adversary, const std::string& path, KeyFormat format,
                                unsigned key_bytes, const std::function<void(std::uint64_t, std::uint64_t)>& progress);

}  // namespace bankcheck::proofs
