#pragma once
// Registry entry `merge-sort` (sim/algorithms/algorithm_registry.hpp): the whole
// pairwise merge sort of sim/algorithms/merge_sort/merge_sort.hpp (CUB DeviceMergeSort's tile
// kernel, then global passes over runs of 1, 2, 4, ... tiles), baseline (CUB
// SerialMerge) or CF-Merge, on n keys.
//
//   bankcheck run merge-sort E=17 u=256 n=N --input worst|random|FILE [--per-round]
//
// Kernels run one after the other through the same listener, so each one's
// phases are numbered after the previous kernel's: the tile kernel has phases
// 0 .. 2 + log2(u) (baseline: phase 2 + r is in-block merge round r, groups
// of m = 2^(r+1) threads; cf: two phases per round), then global pass i
// (runs of 2^(i-1) tiles) has 3 phases (cf: 4) of which the second is the
// merge. `--per-round` lists the SerialMerge reads (init_a, init_b,
// merge_read) of each pass under its phase.
//
// --input worst is the whole-sort adversary (sim/inputs/merge_sort_adversary.hpp;
// its searched passes capped by iterations, so the input is the same on every
// run for a seed), and the prediction is the adversary's own per-pass count
// of those reads, summed (exact: the replay must equal it).
#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck {

/// The `merge-sort` spec; all_algorithms() appends it.
AlgorithmSpec merge_sort_spec();

/// The target-sequence budget of the adversary behind --input worst (fixed,
/// so the worst input depends on the seed only).
inline constexpr std::uint64_t kMergeSortWorstIterations = 3000;

}  // namespace bankcheck
