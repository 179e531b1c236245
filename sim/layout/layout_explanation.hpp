#pragma once
// The words a report prints about a planned layout access: what was walked,
// and, for the worst conflict the bank model names (its lanes and bank), the
// phase those lanes share and the element and byte address of each.
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/layout/layout_access.hpp"

namespace bankcheck::layout {

/// "layout  ...", "access  ..." lines: the layout, element type, tile, the
/// access and its trace op, the vector mode and the instruction count.
std::vector<std::string> describe_access(const LayoutAccess& access);

/// The lanes of one phase of the H100 that hold `lanes` (sorted lane
/// numbers, all active in instruction `index`): the aligned block of
/// 128 / width lanes (8 for ldmatrix rows, a matrix), widened to two blocks
/// where a paired load's lanes span them. Returns {first, last}.
std::pair<unsigned, unsigned> phase_of(const LayoutAccess& access, std::size_t index, const std::vector<unsigned>& lanes);

/// "lanes 0-7 form one phase (matrix 0 of ldmatrix.x4); in bank 0:
///  lane 0 (0,0) byte 0, lane 1 (1,0) byte 128, ...": for the report's worst conflict.
/// Banks are the model's: `geometry` (bank_bytes 0, the DMM's one element per cell, counts lane widths).
std::vector<std::string> explain_conflict(const LayoutAccess& access, const BankGeometry& geometry, std::size_t index,
                                          const std::vector<unsigned>& lanes, unsigned bank);

}  // namespace bankcheck::layout
