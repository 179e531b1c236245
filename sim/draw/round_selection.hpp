#pragma once
// Which rounds a bank-grid picture highlights: `--round` N, a range A-B, a
// comma list of those, or `all`, counted over every round or within one
// `--phase` (the numbers `bankcheck draw --list-rounds` prints).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/draw/bank_grid.hpp"

namespace bankcheck {

struct RoundSelection {
  std::vector<bool> rounds;  ///< rounds[r]: round r (global numbering) is highlighted
  std::size_t first = 0;     ///< the first highlighted round (BankGridOptions::round)
  std::string description;   ///< "round 2 of phase 1", "rounds 0-1", "all rounds of phase 1"
};

/// @throws std::invalid_argument naming the allowed rounds or phases.
RoundSelection select_rounds(const std::vector<GridRecorder::Round>& rounds, std::optional<unsigned> phase,
                             std::string_view spec);

/// One line per round: "round R (--phase P --round I): site k=K".
std::string round_listing(const std::vector<GridRecorder::Round>& rounds);

}  // namespace bankcheck
