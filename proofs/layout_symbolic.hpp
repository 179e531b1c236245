#pragma once
// The conflict degree of a layout access for every instruction at once, by
// the GF(2) rank argument of proofs/xor_swizzle.hpp, from the map of
// proofs/layout_linear_map.hpp: an independent proof beside the enumeration
// of sim/layout/layout_check.hpp, which stays the source of the counts.
//
// A phase is a set of lanes the model serves together. Where it is the lanes
// whose low g lane bits vary and whose other bits are fixed (a linear coset),
// the cells its lanes touch are cell(x, u) = F (x, u) ^ k: x the g lane bits,
// u the index of a cell within a lane's aligned access (width / cell bytes
// cells, consecutive, so their low bits XOR in), F linear, and k a constant
// that carries every other lane bit and every instruction bit. A bank is the
// low log2(banks) bits of the cell (P F). Lanes in one bank form a coset of
// ker(P F), which holds 2^(rank F - rank P F) distinct cells (equal cells
// multicast, assumption 2 of docs/bank-model.md), so every bank that is hit
// serves exactly that many: the phase's degree. k is only a translation, so
// the degree is the same in every phase of every instruction and tile.
//
// The phases, by the model's rules (docs/bank-model.md), claimed only where
// the rule makes them a linear coset:
//   sm90, ld/st of 1, 2, 4 bytes: the whole warp (rule 1);
//   sm90, st of 8 / 16 bytes: half / quarter warps (rule 2);
//   sm90, ld of 8 / 16 bytes: as stores unless lanes pair (rule 3: l and
//     l^1, or l and l^2, on one address), which merges phases and costs a
//     paired conflicting 8-byte load d0 + d1: not proven (form);
//   sm90, ldmatrix / stmatrix: each 8x8 matrix (lanes 8j..8j+7, rule 5);
//   a model with the whole warp in one phase (dmm, custom) and power-of-two
//     banks and cells, ld/st: the whole warp;
// cp.async (rule 6: the source's read stage shares the cycles with the
// destination's writes) and everything else: not proven (form).
#include <cstdint>
#include <optional>
#include <string>

#include "model/bank_model.hpp"
#include "proofs/layout_linear_map.hpp"
#include "sim/layout/layout_check.hpp"

namespace bankcheck::proofs {

/// Two lanes of instruction 0 whose distinct cells share a bank.
struct SymbolicWitness {
  unsigned lane_a = 0, lane_b = 0;
  std::uint64_t cell_a = 0, cell_b = 0;  ///< cell indices (byte address / cell bytes)
  unsigned bank = 0;
};

struct LayoutSymbolic {
  enum class Status : std::uint8_t { proven, not_linear, not_proven };
  Status status = Status::not_proven;
  std::string reason;                  ///< not_linear / not_proven: why
  std::uint64_t degree = 0;            ///< proven: the degree of every phase of every instruction
  std::uint64_t instructions = 0;      ///< proven: how many instructions the proof covers
  std::uint64_t phases = 0;            ///< proven: phases with an active lane, per instruction
  unsigned lanes_per_phase = 0;
  unsigned cell_rank = 0, bank_rank = 0;  ///< rank F, rank P F
  std::optional<SymbolicWitness> witness;  ///< proven with degree >= 2

  /// Wavefronts of all instructions: instructions x phases x degree (ideal: x 1). @pre proven
  std::uint64_t wavefronts() const { return instructions * phases * degree; }
  std::uint64_t ideal() const { return instructions * phases; }
  /// The report line: "symbolic: conflict-free in every phase of all 2 instructions (...)".
  std::string text() const;
  /// "proven", "not-linear", "not-proven".
  static const char* status_name(Status s);
};

/// Prove the degree of `access` (a tile at byte `base`) under `model`.
/// Never throws for a planned access: what it cannot prove it reports.
LayoutSymbolic prove_layout_degree(const layout::LayoutAccess& access, std::uint64_t base, const BankModel& model);

/// The same from a map already derived (or mapped further, as an XOR map of
/// the byte offsets maps its columns: proofs/layout_suggestion.hpp).
LayoutSymbolic prove_layout_degree(const layout::LayoutAccess& access, const LayoutLinearMap& map,
                                   const BankModel& model);

/// Where a proven degree and the enumeration of the same access differ:
/// "" when every instruction costs phases x degree wavefronts of degree
/// `degree` and ideal `phases`, else the first instruction that does not.
/// Not proven: "" (nothing to compare).
std::string symbolic_disagreement(const LayoutSymbolic& proof, const layout::LayoutCheck& enumerated);

}  // namespace bankcheck::proofs
