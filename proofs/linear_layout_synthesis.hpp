#pragma once
// Linear shared layouts built from the register layouts on both sides of a
// conversion (proofs/conversion_suggestion.hpp), so that wide instructions
// exist on them and their phases meet distinct banks:
//  * low bits: what one side's instruction needs contiguous. A vector of 2^k
//    elements: k of the side's register bases (any k, in register order); a
//    stmatrix/ldmatrix row: the register bases of a 4-byte word, then lane
//    bits 0 and 1; a .trans row (16-bit elements): lane bits 2, 3, 4. The two
//    sides' needs merge where one is a prefix of the other (as sets where
//    the order is free), else each is tried alone;
//  * bits above the banks (offset bit log2(banks x bank bytes / element) and
//    up): greedily, coordinate bits and XORs of two, each independent of the
//    low bits, of the bits taken, and of each side's phase lanes (the lanes
//    the model serves together: 8 for 16-byte vectors and matrix rows, 16 for
//    8 bytes, 32 else), so that no two lanes of a phase differ only above the
//    banks; what the greedy step cannot fill takes any independent vector;
//  * bank bits: the rest, the sides' phase vectors first.
// These are candidates only: every one is costed by enumeration.
#include <cstdint>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/linear_shared_layout.hpp"
#include "sim/layout/element_type.hpp"
#include "sim/layout/register_layout.hpp"

namespace bankcheck::proofs {

std::vector<LinearSharedLayout> synthesize_linear_layouts(std::uint64_t rows, std::uint64_t cols,
                                                          const layout::ElementType& element,
                                                          const layout::RegisterLayout& from,
                                                          const layout::RegisterLayout& to, const BankGeometry& geometry);

}  // namespace bankcheck::proofs
