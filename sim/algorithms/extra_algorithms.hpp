#pragma once
// Registry entries (sim/algorithms/algorithm_registry.hpp) for the shared-memory
// primitives beside PBS and merge: the SPAA 2025 Figure 1 strided toy, the
// tiled transpose, the Blelloch scan, bitonic sort, the split histogram and
// CSS-tree search of SIGMOD 2008, and Aho-Corasick with SM-1/SM-2 staging.
// Variants that change the layout are separate names (transpose-padded,
// scan-padded, aho-sm2, ...) since parameters are integers.
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck {

/// The specs, in listing order; all_algorithms() appends them.
std::vector<AlgorithmSpec> extra_algorithm_specs();

}  // namespace bankcheck
