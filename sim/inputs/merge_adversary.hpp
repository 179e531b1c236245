#pragma once
// Worst-case inputs for one warp of a pairwise merge (Berney & Sitchinava,
// SPAA 2025, Section 4): the sequence S, the tuple sequence T (|T| = w/d per
// subproblem) and the per-warp A/B splits that reach Theorem 8's count
// (model/analytic.hpp: merge_worst_conflicts_per_warp).
//
// Vocabulary: a warp of w threads merges E items per thread; thread i
// produces merged outputs [iE, (i+1)E) and takes `from_a` of them from list A
// and `from_b` from list B (a MergeSplit). A "labeling" lists, for the warp's
// wE outputs in merged order, whether each comes from B (1) or A (0).
#include <cstdint>
#include <span>
#include <vector>

#include "model/bank_model.hpp"

namespace bankcheck::inputs {

/// Thread i of a warp reads `from_a` items of A and `from_b` items of B.
struct MergeSplit {
  unsigned from_a = 0;
  unsigned from_b = 0;
  friend bool operator==(const MergeSplit&, const MergeSplit&) = default;
};

/// The number-theoretic parameters of Section 4: d = GCD(w, E), w = qE + r.
struct Section4Parameters {
  unsigned warp = 0;   ///< w
  unsigned items = 0;  ///< E
  unsigned d = 0;
  unsigned q = 0;
  unsigned r = 0;
};

/// @throws std::invalid_argument unless 1 < E <= w (names the constraint and the nearest valid E).
Section4Parameters section4_parameters(unsigned warp, unsigned items);

/// The sequence S = (a_i, b_i), i = 1 .. E/d - 1 (empty when d = E).
std::vector<MergeSplit> section4_s(const Section4Parameters& p);

/// The sequence T of one subproblem (w/d threads, wE/d items, ceil(E/2d) columns
/// of A): Section 4 steps (1)-(3). When d = E (r = 0) S is empty and T is q
/// pure scans (E, 0).
/// @post T.size() == w/d and every tuple sums to E.
std::vector<MergeSplit> section4_t(const Section4Parameters& p);

/// Splits for a whole warp: the d subproblems one after another, alternating
/// the A-major T and its switched (B-major) form; `a_major` picks the first.
/// @post size() == w; sum of from_a is a multiple of w (whole bank columns).
std::vector<MergeSplit> worst_warp_splits(const Section4Parameters& p, bool a_major);

/// Labeling of the warp's merged outputs (A and B both start at a bank-column
/// boundary). A thread reads its A items last when its A portion ends a
/// column of `columns` cells and its B portion does not, first otherwise: so
/// the items in the last E banks are read at the same steps as the pure scans
/// (the alignment Theorem 8's proof counts).
std::vector<std::uint8_t> labels_from_splits(std::span<const MergeSplit> splits, unsigned columns);

/// Per-thread splits of a labeling (E outputs per thread).
std::vector<MergeSplit> splits_from_labels(std::span<const std::uint8_t> from_b, unsigned items);

/// Sorted lists whose merge follows a labeling: output k has key k.
struct MergeLists {
  std::vector<std::int64_t> a;
  std::vector<std::int64_t> b;
};
MergeLists merge_lists_from_labels(std::span<const std::uint8_t> from_b);

/// Which shared-memory reads a serial merge makes.
enum class MergeReads : std::uint8_t {
  paper_steps,       ///< step j reads the j-th merged item of each thread (Section 4's count)
  cub_serial_merge,  ///< CUB SerialMerge: one read of A's and B's first item, then each step reads the item after the one consumed
};

/// One warp's merge laid out in shared memory (indices in elements).
struct WarpMergeLayout {
  std::span<const std::uint8_t> from_b;  ///< wE labels of the warp's outputs
  unsigned items = 0;                    ///< E
  std::uint64_t a_base = 0;              ///< element index of the warp's first A item
  std::uint64_t b_base = 0;              ///< element index of the warp's first B item
};

/// Cost of the warp's merge reads: one warp request per read round.
struct MergeWarpCost {
  std::vector<std::uint64_t> wavefronts;  ///< per request, in issue order
  std::uint64_t total_wavefronts = 0;
  std::uint64_t total_conflicts = 0;  ///< wavefronts - ideal, summed
};

/// @pre from_b.size() == model.geometry().warp * items.
MergeWarpCost merge_warp_cost(const BankModel& model, const WarpMergeLayout& layout, unsigned key_bytes,
                              MergeReads reads);

}  // namespace bankcheck::inputs
