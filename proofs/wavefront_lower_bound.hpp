#pragma once
// A lower bound on the wavefronts of an access over every layout the
// synthesis may choose, so that a suggestion is called optimal only with a
// proof (docs/layout.md, "Suggesting a layout").
//
// Two arguments, per instruction, the larger counting:
//  * the ideal: the model's wavefronts of the instruction without a bank
//    conflict, one per phase (docs/bank-model.md). Phases are lane groups
//    fixed by the width; rule 3's merged phases need two lanes on one
//    address, which no injective layout gives lanes that move different
//    data. So the ideal is the same on every layout.
//  * counting: every layout keeps each W-byte vector of the widest access
//    contiguous and W-aligned, so a byte's address modulo W, and with it a
//    4-byte word's bank modulo W/4, is the same on every layout. The words
//    of one residue share banks/(W/4) banks, so one of those banks serves
//    at least ceil(words / (banks / (W/4))) distinct words; the instruction
//    (the sum over its phases of each phase's largest bank) costs at least
//    that. Words are the same on every layout when W >= the word size.
#include <cstdint>
#include <string>

#include "model/bank_model.hpp"
#include "sim/layout/layout_check.hpp"

namespace bankcheck::proofs {

struct AccessLowerBound {
  std::uint64_t wavefronts = 0;      ///< sum over the modelled instructions of the larger argument
  std::uint64_t ideal = 0;           ///< the ideal alone
  std::uint64_t counting_wins = 0;   ///< instructions where counting exceeds the ideal
  std::string argument;              ///< why, in words
};

/// The bound for `reference`, the access planned on a layout where the
/// widest access's `pinned_bytes`-byte vectors are contiguous and aligned.
AccessLowerBound access_lower_bound(const layout::LayoutCheck& reference, unsigned pinned_bytes,
                                    const BankGeometry& geometry);

}  // namespace bankcheck::proofs
