#pragma once
// `bankcheck layout --suggest --from REGS --to REGS`: a tile moved through
// shared memory from one register layout to another (a layout conversion, a
// transpose), where the instructions are chosen with the layout: for each
// candidate shared layout, the instructions both register layouts permit on
// it (proofs/register_instructions.hpp: vectors of the element .. 16 bytes,
// stmatrix/ldmatrix, .trans), each planned and costed by the bank model,
// the cheapest per side (docs/layout.md, "Choosing the instructions").
//
// The candidates: row- and column-major, padded by 1, 2, 4, .. elements per
// line (up to 128 bytes), every CuTe Swizzle<B,M,S> on element offsets over
// both; and linear layouts (proofs/linear_shared_layout.hpp) built from the
// registers: the offset's low bits are the coordinates one access needs
// contiguous (a vector's register bases, a matrix row's word and lane bits),
// merged with the other access's where they agree; the bits above the banks
// are a complement common to both accesses' phase spaces (so that each
// phase's lanes reach distinct 16-byte groups, Triton's idea of generic
// swizzling), the bank bits the rest. Objective: least wavefronts of the
// store and the load together, then instructions, shared memory, simplicity.
//
// Bound: a wavefront serves at most one 4-byte cell per bank (banks x bank
// bytes, 128 bytes on sm90), and each side moves every byte of the tile, so
// each side needs at least ceil(tile bytes / 128) wavefronts whatever the
// layout and the instructions. A suggestion meeting it is "optimal";
// otherwise "best found", with the bound and what was searched.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/layout_candidate.hpp"
#include "proofs/linear_shared_layout.hpp"
#include "proofs/register_instructions.hpp"
#include "sim/layout/register_layout.hpp"

namespace bankcheck::proofs {

struct ConversionSpec {
  std::uint64_t rows = 0, cols = 0;
  layout::ElementType element;
  layout::RegisterLayout from;  ///< the registers the tile is written from
  layout::RegisterLayout to;    ///< the registers it is read into
};

/// A shared layout the conversion search costs: a CuTe candidate or a linear layout.
struct ConversionLayout {
  std::optional<LayoutCandidate> cute;
  std::optional<LinearSharedLayout> linear;
  std::string text() const;
  unsigned simplicity() const;  ///< plain, padded, CuTe swizzle, linear
  TileAddresses addresses(const layout::ElementType& e) const;
};

struct ConversionSide {
  RegisterAccess chosen;                 ///< the cheapest instruction the registers permit
  std::vector<std::string> permitted;    ///< every choice on the suggested layout: "st.128 (...): 128 wavefronts"
  std::optional<RegisterAccess> before;  ///< the cheapest on the plain row-major tile
  std::uint64_t bound = 0;               ///< ceil(tile bytes / bytes a wavefront can serve)
};

struct ConversionSuggestion {
  ConversionLayout best;
  ConversionSide store, load;
  std::uint64_t total = 0, total_before = 0, footprint = 0, instructions = 0;
  std::optional<std::uint64_t> lower_bound;
  bool optimal = false;
  std::string verdict, bound_argument;
  std::uint64_t candidates = 0, feasible = 0, cute_candidates = 0, linear_candidates = 0;
  std::vector<std::string> certificate;
  std::string paste_cute, paste_triton, paste_cpp;
  /// The layout as offset bases (the coordinate at element offset 2^i), where it is GF(2)-linear (checked on every element).
  std::optional<LinearSharedLayout> linear_form;
};

/// @throws std::invalid_argument on a tile no layout serves (with why).
ConversionSuggestion suggest_conversion(const ConversionSpec& spec, const BankModel& model);

}  // namespace bankcheck::proofs
