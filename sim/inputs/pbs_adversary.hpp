#pragma once
// Worst-case query sets for parallel binary search (PBS) over a sorted array
// K in shared memory (Karsin, Weichert, Casanova, Iacono, Sitchinava, HiPC
// 2015): Corollary 4.1's query set for K a multiple of w^2 and Lemma 4.2's
// pigeonhole construction for any K >= 2w^2.
//
// K is taken to be [0, 1, ..., K-1] (any sorted K of distinct keys behaves
// alike: the search only compares); a query is an index into K.
#include <cstdint>
#include <string>
#include <vector>

#include "model/bank_model.hpp"

namespace bankcheck::inputs {

/// @pre keys >= 1. The indices Algorithm 1 (HiPC'15) reads for one query:
/// ceil(log2 K) loop probes, then the final check. Padding-free form, with the
/// min/max clamps of the paper's pseudo-code.
std::vector<std::uint64_t> pbs_probes(std::uint64_t keys, std::uint64_t query);

/// Number of probes of every query: ceil(log2 K) + 1.
unsigned pbs_rounds(std::uint64_t keys);

struct PbsQuerySet {
  std::vector<std::uint64_t> queries;  ///< one per thread, thread i = warp i / w, lane i mod w
  std::string construction;            ///< "corollary-4.1" or "lemma-4.2"
  unsigned first_full_round = 0;       ///< 1-based round from which every warp is w-way by the proof
};

/// HiPC 2015 Corollary 4.1 (Section V-B's construction): the index into K
/// that lane `lane` of a warp queries, lane*K/w + C. The one place it is
/// written: the registry's `--input worst`, the claims, `bankcheck adversary
/// pbs` and kernel.pbs all build their queries with it.
/// @pre w | K and C < K/w (the Corollary also asks w^2 | K; each caller checks what it needs).
constexpr std::uint64_t corollary41_index(std::uint64_t keys, unsigned warp, unsigned lane, std::uint64_t c) {
  return std::uint64_t{lane} * (keys / warp) + c;
}

/// Corollary 4.1: lane i of every warp queries K[i*K/w + C].
/// @throws std::invalid_argument unless K >= w^2, K % w^2 == 0 and C < K/w (names the nearest valid K / C).
PbsQuerySet corollary41_queries(std::uint64_t keys, unsigned warp, std::uint64_t count, std::uint64_t c = 0);

/// Lemma 4.2: among the 2^(r-1) addresses of round r = 2 log w + 1 some bank
/// holds w of them (pigeonhole); the lanes reach those and then move together
/// (every lane at the same offset inside its subtree), staying in one bank.
/// The bank of an element follows `model`'s geometry for `key_bytes`-byte keys.
/// @throws std::invalid_argument unless K >= 2w^2 (names the nearest valid K).
PbsQuerySet lemma42_queries(const BankModel& model, std::uint64_t keys, unsigned key_bytes, std::uint64_t count);

/// Replayed cost of a query set: one warp request per probe round per warp.
struct PbsCost {
  std::vector<std::uint64_t> wavefronts_per_round;  ///< summed over warps
  std::uint64_t total_wavefronts = 0;
  std::uint64_t total_conflicts = 0;
};
PbsCost pbs_cost(const BankModel& model, std::uint64_t keys, unsigned key_bytes,
                 const std::vector<std::uint64_t>& queries);

}  // namespace bankcheck::inputs
