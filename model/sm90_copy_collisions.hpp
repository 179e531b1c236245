#pragma once
// Rule 6b's colliding reads (docs/bank-model.md): within a quarter warp of a
// .cg copy beside zero-filling lanes, a row that reads several source lines
// at one place (the same 32-byte sector of each line) costs more than its
// (row, line) pairs. Device-safe, as model/sm90_copy_cost.hpp, which uses it.
#include <cstdint>

#include "model/sm90_phases.hpp"

namespace bankcheck::sm90 {

/// 32-byte sectors: the unit in which a .cg copy moves its source (rule 6b).
inline constexpr unsigned kSectorBytes = 32;

/// What a quarter warp's colliding reads add to its cost.
struct Collisions {
  bool modelled = true;         ///< false: a shape no measured reading fits
  std::uint32_t extra = 0;      ///< wavefronts beyond the (row, line) pairs
  std::uint32_t colliding = 0;  ///< the lanes of those reads
  bool one_store = false;       ///< the quarter's store is one pass, whatever its lanes
};

/// The colliding reads among one quarter warp's reading lanes `lanes`
/// (`quarter`: all its lanes). A group is a row's reads at one place from
/// two or more lines. One group costs its lines less one (run 11: 320 of
/// 320; run 12, measured after: 136 of 136). A quarter of a 16-byte .cg copy
/// of whole sectors holds at most two groups, and two fill its eight lanes:
/// at two places (one row or two) they cost the larger of their extras, as
/// if read side by side; two rows at one place cost the lines read there
/// less one, and their store is one pass (runs 12 and 14, the second
/// measured after the first gave this reading: 278 of 278 copies). Two
/// groups beside another lane (a zero-filling or idle one, or a sector one
/// lane reads), and one group beside another row's read at its place: not
/// modelled (runs 15 and 16 measured 640 copies of them; neither reading
/// written before them fits).
template <class Address>
BANKCHECK_HD Collisions collisions(const Address* dst, const std::uint64_t* src, std::uint32_t lanes,
                                   std::uint32_t quarter) {
  Collisions out;
  const auto row = [&](unsigned l) { return static_cast<std::uint64_t>(dst[l]) / kPhaseBytes; };
  const auto place = [&](unsigned l) { return src[l] % kPhaseBytes / kSectorBytes; };
  const auto line = [&](unsigned l) { return src[l] / kPhaseBytes; };
  const auto group_of = [&](unsigned i) {  // i's reads: the lanes of `lanes` in its row at its place
    std::uint32_t g = 0;
    for (unsigned j = 0; j < kLanes; ++j)
      if ((lanes & lane_bit(j)) && row(j) == row(i) && place(j) == place(i)) g |= lane_bit(j);
    return g;
  };
  const auto distinct_lines = [&](std::uint32_t m) {  // each line counted at its lowest lane of `m`
    std::uint32_t n = 0;
    for (unsigned j = 0; j < kLanes; ++j) {
      bool first_of_line = (m & lane_bit(j)) != 0;
      for (unsigned k = 0; k < j && first_of_line; ++k) first_of_line = !((m & lane_bit(k)) && line(k) == line(j));
      n += first_of_line ? 1u : 0u;
    }
    return n;
  };
  unsigned first[2] = {0, 0}, groups = 0;  // a lane of each group
  std::uint32_t lines_of[2] = {0, 0}, seen = 0;
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!(lanes & ~seen & lane_bit(i))) continue;
    const std::uint32_t g = group_of(i);
    seen |= g;
    const std::uint32_t lines = distinct_lines(g);
    if (lines < 2) continue;
    if (groups == 2) return Collisions{false};
    first[groups] = i;
    lines_of[groups++] = lines;
    out.colliding |= g;
  }
  if (groups < 2) {
    if (groups == 0) return out;
    for (unsigned j = 0; j < kLanes; ++j)  // another row's read at the group's place: no reading fits (runs 15, 16)
      if ((lanes & ~out.colliding & lane_bit(j)) && place(j) == place(first[0])) return Collisions{false};
    out.extra = lines_of[0] - 1;
    return out;
  }
  if (out.colliding != quarter) return Collisions{false};
  if (place(first[0]) != place(first[1])) {
    out.extra = (lines_of[0] > lines_of[1] ? lines_of[0] : lines_of[1]) - 1;
    return out;
  }
  out.extra = distinct_lines(out.colliding) - 1;  // the lines read at that place, over both rows
  out.one_store = true;
  return out;
}

}  // namespace bankcheck::sm90
