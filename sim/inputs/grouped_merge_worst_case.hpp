#pragma once
// The worst case of one warp of a merge pass whose merges are smaller than
// two warps: CUB's in-block passes with m = 2, 4, ..., w threads per merge
// (and m = w when the warp's single merge is unbalanced for Section 4). The
// warp's w threads form w/m merge groups; group g merges A = the first mE/2
// elements of its span [g*mE, (g+1)*mE) with B = the next mE/2, and each
// thread produces E consecutive merged outputs. SPAA'25 Section 4 has no
// construction here (its splits need whole bank columns of A and B).
//
// Counting (SPAA'25 Section 4, DMM with w banks, one key per cell): step j
// reads each thread's j-th merged item; the step costs the largest number of
// reads that fall into one bank (the cells read in one step are distinct).
//
// Exact reformulation used here: for any labeling,
//   sum_j max_b count(j, b) = max over target banks (b_0 .. b_{E-1}) of
//                             sum_j count(j, b_j),
// and for fixed targets the right side splits into independent groups, and
// inside a group into threads once the group's A/B split per thread is fixed:
// a thread's best order of its a A-items and E-a B-items is a lattice-path
// DP, the group's best split a dynamic program over threads. So the maximum
// over all labelings is the maximum over w^E target sequences of an exactly
// solved problem: exhaustive for tiny w and E, searched beyond (then a lower
// bound only; the upper bound is E per step, E^2 per warp, since each bank
// holds exactly E cells of the warp's span of wE elements -- with a gap
// between A and B (b_offset) a bank can hold more, up to 2 ceil(E/2)).
#include <cstdint>
#include <span>
#include <vector>

#include "sim/inputs/adversary_search.hpp"

namespace bankcheck::inputs {

/// w threads (= banks), E items per thread, m threads per merge group.
struct GroupedMergeShape {
  unsigned warp = 32;
  unsigned items = 17;
  unsigned merge_threads = 2;
  /// Elements between the end of A and the start of B (one group per warp
  /// only, m = w). 0: B follows A. A warp inside a merge of >= 2 warps whose
  /// warps each take wE/2 items of A and of B sees its A part at offset
  /// k wE/2 of A and its B part at offset k wE/2 of B: B starts
  /// mE/2 - wE/2 after A's part ends (mod w), which this models.
  unsigned b_offset = 0;
  unsigned group() const { return merge_threads * items; }
};

/// @throws std::invalid_argument naming the constraint: 1 <= E <= w, m >= 1,
/// m E even (the two runs are equal), m divides w, b_offset only with m = w.
void check_grouped_merge_shape(const GroupedMergeShape& shape);

/// The best labeling for fixed target banks.
struct TargetedLabeling {
  std::uint64_t hits = 0;            ///< sum over steps j of the reads that fall in bank targets[j]
  std::vector<std::uint8_t> from_b;  ///< the warp's wE labels (1 = from B), every group balanced
};

/// Maximizes sum_j count(j, targets[j]) over all labelings whose groups are
/// balanced (exactly, by the DPs above). @pre targets.size() == E, each < w.
TargetedLabeling best_labeling_for_targets(const GroupedMergeShape& shape, std::span<const unsigned> targets);

struct GroupedWorstCase {
  std::uint64_t cost = 0;            ///< paper-step wavefronts of one warp (group g: A at g mE, B at g mE + mE/2 + b_offset)
  std::vector<std::uint8_t> from_b;  ///< the labeling reaching it
  std::vector<unsigned> targets;     ///< the target banks it was built for
  bool exact = false;                ///< every target sequence was tried: cost is the maximum over all labelings
  std::uint64_t targets_tried = 0;
};

/// The maximum over target sequences: exhaustive when w^E <= exhaustive_limit,
/// otherwise local ascent (retarget one step, or shift all targets from a step on) from
/// structured starts (b_j = s + j for every s) and random restarts, within
/// `budget` (seconds, seed; max_iterations caps the target sequences tried).
GroupedWorstCase grouped_worst_case(const GroupedMergeShape& shape, const SearchBudget& budget,
                                    std::uint64_t exhaustive_limit = std::uint64_t{1} << 16);

}  // namespace bankcheck::inputs
