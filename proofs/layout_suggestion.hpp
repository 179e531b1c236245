#pragma once
// `bankcheck layout --suggest`: the layout of a tile with the fewest
// wavefronts over every access that touches it (docs/layout.md,
// "Suggesting a layout"). The search space:
//  * row- and column-major, and each padded by 1, 2, 4, .. elements per line
//    (up to 128 bytes);
//  * every valid CuTe Swizzle<B,M,S> whose bits lie in the tile, on element
//    offsets and on byte addresses (M covering an element), over both;
//  * XOR maps of the address bits built from the accesses' phase spaces
//    (proofs/xor_synthesis.hpp), over both;
//  * with a TMA box or a wgmma operand among the accesses, only the layouts
//    they admit: CuTe's K-major atoms (none, 32B, 64B, 128B swizzle on bytes,
//    Sw<b,4,3>) tiled over the tile, its rows the swizzle's width.
// Every candidate is costed by the layout checker (proofs/layout_candidate.hpp);
// the objective is the least weighted wavefronts, then the least shared
// memory, then the simplest map. The result is "optimal" only when it meets
// the lower bound of proofs/wavefront_lower_bound.hpp (or the constraint
// leaves a finite set, all costed); else "best found", with what was searched.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/layout_candidate.hpp"
#include "proofs/layout_paste.hpp"
#include "proofs/wavefront_lower_bound.hpp"

namespace bankcheck::proofs {

/// An access as --suggest takes it: a costed kind with options, or a TMA/wgmma constraint.
struct SuggestAccess {
  enum class Role : std::uint8_t { costed, tma, wgmma };
  Role role = Role::costed;
  CostedAccess costed;     ///< role costed
  unsigned modes = 0xF;    ///< tma/wgmma: admitted swizzle modes, bit b for b = 0 none, 1 32B, 2 64B, 3 128B
  std::string text;
};

inline constexpr std::string_view kSuggestAccessNames =
    "an access kind (ld.128, ldmatrix.x4.trans, cp.async.16, ...), optionally followed by ',along=0|1' and "
    "',weight=N'; or tma, tma.none|32B|64B|128B (a TMA box and its swizzle mode), wgmma (a K-major wgmma operand)";

/// "ld.32,along=0,weight=2", "tma.128B", "wgmma". @throws std::invalid_argument naming the accepted forms.
SuggestAccess parse_suggest_access(std::string_view text);

struct SuggestSpec {
  std::optional<layout::SharedLayout> given;  ///< the layout in use (its tile, the "before"); else rows x cols
  std::uint64_t rows = 0, cols = 0;
  layout::ElementType element;
  std::uint64_t base = 0;
  std::vector<SuggestAccess> accesses;
};

/// An access's before/after row.
struct SuggestRow {
  std::string access;
  std::uint64_t weight = 1;
  bool costed = true;
  std::string note;                              ///< constraints: what they admit and why they are not costed
  std::optional<layout::LayoutCheck> before;     ///< on the given layout
  std::optional<layout::LayoutCheck> after;
  AccessLowerBound bound;
  std::string symbolic;                          ///< the proof's line on the suggestion
};

struct SuggestSearched {
  std::uint64_t plain = 0, padded = 0, swizzles = 0, atoms = 0, xor_maps = 0, xor_evaluations = 0;
  std::uint64_t candidates = 0, feasible = 0;
  std::string notes;  ///< what was not searched and why
};

struct LayoutSuggestion {
  TileAccesses tile;
  std::optional<LayoutCandidate> before;
  LayoutCandidate best;
  std::uint64_t total = 0;                 ///< weighted wavefronts of the suggestion
  std::optional<std::uint64_t> total_before;
  std::uint64_t footprint = 0, footprint_before = 0;
  std::optional<std::uint64_t> lower_bound;  ///< weighted; none where no reference layout runs every access
  bool optimal = false;
  std::string verdict;                     ///< "optimal: ..." or "best found: ..."
  std::vector<SuggestRow> rows;
  SuggestSearched searched;
  std::vector<std::string> certificate;
  LayoutPaste paste;
};

/// @throws std::invalid_argument on a tile or access set no layout can serve (with why).
LayoutSuggestion suggest_layout(const SuggestSpec& spec, const BankModel& model);

}  // namespace bankcheck::proofs
