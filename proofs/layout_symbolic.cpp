#include "proofs/layout_symbolic.hpp"

#include <vector>

#include "proofs/number_theory.hpp"
#include "proofs/xor_swizzle.hpp"

namespace bankcheck::proofs {
namespace {

using nt::is_power_of_two;
using nt::log2_floor;

/// Rows of the cell map: cell indices below 2^kCellRows (byte addresses below 2^48 at least).
constexpr unsigned kCellRows = 48;

/// The phase rule that applies, as the lane bits one phase spans (the low
/// `group_bits` lane bits), or why none is claimed.
struct PhaseForm {
  bool ok = false;
  unsigned group_bits = 0;
  std::string why;
};

PhaseForm phase_form(const layout::LayoutAccess& access, const LayoutLinearMap& map, const BankModel& model) {
  const Op op = access.access.op();
  const unsigned width = access.access.bytes;
  const BankGeometry& g = model.geometry();
  const auto no = [](std::string why) { return PhaseForm{false, 0, std::move(why)}; };
  if (!model.models(op, width)) return no("the model has no rule for " + access.access.name());
  if (access.access.is_copy())
    return no("cp.async: its cost is the read and write stages of rule 6, not one bank degree");
  if (g.rows_per_word != 1 || !is_power_of_two(g.banks) || (g.bank_bytes != 0 && !is_power_of_two(g.bank_bytes)))
    return no("model " + model.name() + ": banks or cells are not powers of two, or bank words span rows");
  if (model.phase_rule() == PhaseRule::sm90) {
    if (access.access.is_matrix()) return {true, 3, ""};  // rule 5: one matrix, lanes 8j..8j+7
    if (op != Op::load && op != Op::store) return no("sm90 " + access.access.name() + ": no linear phase rule");
    if (width <= 4) return {true, 5, ""};  // rule 1: the whole warp
    const unsigned half_or_quarter = width == 8 ? 4 : 3;  // rule 2: 128 bytes of lane data
    if (op == Op::load) {
      // Rule 3: lane l's partner l^1 (or l^2 for every lane) on the same
      // address merges phases; an idle partner pairs with anything.
      const auto pairs = [&](unsigned bit) {
        if (bit >= map.lane_bits) return true;
        for (const AddressBit& b : map.bits)
          if (b.role == AddressBit::Role::lane && b.position == bit) return b.column == 0;
        return false;
      };
      if (pairs(0) || pairs(1))
        return no("sm90 " + std::to_string(width) + "-byte load whose lanes pair (rule 3: the phases merge)");
    }
    return {true, half_or_quarter, ""};
  }
  if (model.phase_rule() == PhaseRule::none && (op == Op::load || op == Op::store)) return {true, 5, ""};
  return no("model " + model.name() + " with " + access.access.name() + ": no linear phase rule");
}

}  // namespace

const char* LayoutSymbolic::status_name(Status s) {
  switch (s) {
    case Status::proven: return "proven";
    case Status::not_linear: return "not-linear";
    case Status::not_proven: return "not-proven";
  }
  return "not-proven";
}

std::string LayoutSymbolic::text() const {
  const std::string tail = "; the counts are the enumeration's";
  if (status == Status::not_linear) return "symbolic: not linear (" + reason + ")" + tail;
  if (status == Status::not_proven) return "symbolic: not proven (" + reason + ")" + tail;
  const std::string all = "every phase of all " + std::to_string(instructions) + " instruction" +
                          (instructions == 1 ? "" : "s");
  const std::string ranks = " (GF(2) ranks over a phase's " + std::to_string(lanes_per_phase) +
                            " lanes: cells " + std::to_string(cell_rank) + ", banks " + std::to_string(bank_rank) + ")";
  if (degree == 1) return "symbolic: conflict-free in " + all + ranks;
  std::string s = "symbolic: degree " + std::to_string(degree) + " in " + all + ranks;
  if (witness)
    s += "; witness: lanes " + std::to_string(witness->lane_a) + " and " + std::to_string(witness->lane_b) +
         " of instruction 0, cells " + std::to_string(witness->cell_a) + " and " + std::to_string(witness->cell_b) +
         " in bank " + std::to_string(witness->bank);
  return s;
}

LayoutSymbolic prove_layout_degree(const layout::LayoutAccess& access, std::uint64_t base, const BankModel& model) {
  return prove_layout_degree(access, derive_layout_linear_map(access, base), model);
}

namespace {

/// The witness of a degree >= 2: a kernel vector of P F outside ker F, lane 0
/// and the lane it names, in one bank. `columns` are F's (lane bits of the
/// group, then the u bits of a wide access's cells).
std::optional<SymbolicWitness> conflict_witness(const LayoutLinearMap& map, const std::vector<std::uint64_t>& columns,
                                                unsigned group_bits, unsigned bank_bits, unsigned cell_shift) {
  const std::uint64_t bank_mask = (std::uint64_t{1} << bank_bits) - 1;
  for (std::uint64_t x = 1; x < (std::uint64_t{1} << columns.size()); ++x) {
    std::uint64_t delta = 0;
    for (std::size_t k = 0; k < columns.size(); ++k)
      if ((x >> k) & 1) delta ^= columns[k];
    if (delta == 0 || (delta & bank_mask) != 0) continue;
    const unsigned lane_b = static_cast<unsigned>(x & ((std::uint64_t{1} << group_bits) - 1));
    const std::uint64_t u_b = x >> group_bits;
    SymbolicWitness w;
    w.lane_a = 0;
    w.lane_b = lane_b;
    w.cell_a = map.address(0, 0) >> cell_shift;
    w.cell_b = (map.address(lane_b, 0) >> cell_shift) ^ u_b;
    w.bank = static_cast<unsigned>(w.cell_a & bank_mask);
    return w;
  }
  return std::nullopt;
}

/// F over (the group's lane bits, u), as its columns of cells: bank rows on top.
std::vector<std::uint64_t> cell_columns(const LayoutLinearMap& map, unsigned group_bits, unsigned u_bits,
                                        unsigned cell_shift) {
  std::vector<std::uint64_t> columns;
  for (unsigned p = 0; p < group_bits; ++p)
    for (const AddressBit& b : map.bits)
      if (b.role == AddressBit::Role::lane && b.position == p) columns.push_back(b.column >> cell_shift);
  for (unsigned t = 0; t < u_bits; ++t) columns.push_back(std::uint64_t{1} << t);
  return columns;
}

}  // namespace

LayoutSymbolic prove_layout_degree(const layout::LayoutAccess& access, const LayoutLinearMap& map,
                                   const BankModel& model) {
  LayoutSymbolic out;
  if (map.status != LayoutLinearMap::Status::linear) {
    out.status = map.status == LayoutLinearMap::Status::not_linear ? LayoutSymbolic::Status::not_linear
                                                                   : LayoutSymbolic::Status::not_proven;
    out.reason = map.reason;
    return out;
  }
  const PhaseForm form = phase_form(access, map, model);
  if (!form.ok) {
    out.reason = form.why;
    return out;
  }
  const unsigned width = access.access.bytes;
  const BankGeometry& g = model.geometry();
  // A cell is bank_bytes wide, or one whole access in the DMM (bank_bytes 0).
  const unsigned cell_bytes = g.bank_bytes == 0 ? width : g.bank_bytes;
  const unsigned cell_shift = log2_floor(cell_bytes), bank_bits = log2_floor(g.banks);
  // Every address aligned to the width, so a lane's cells are (a >> cell_shift) ^ u.
  std::uint64_t used = map.constant;
  for (const AddressBit& b : map.bits) used |= b.column;
  if ((used & (width - 1)) != 0) {
    out.reason = "lane addresses are not aligned to the " + std::to_string(width) + "-byte width";
    return out;
  }
  const unsigned u_bits = width > cell_bytes ? log2_floor(width / cell_bytes) : 0;
  const unsigned group_bits = form.group_bits < map.lane_bits ? form.group_bits : map.lane_bits;
  const std::vector<std::uint64_t> columns = cell_columns(map, group_bits, u_bits, cell_shift);
  Gf2Affine F{Gf2Matrix::Zero(kCellRows, static_cast<Eigen::Index>(columns.size())), Gf2Vector::Zero(kCellRows)};
  for (std::size_t k = 0; k < columns.size(); ++k)
    for (unsigned r = 0; r < kCellRows; ++r) F.A(r, static_cast<Eigen::Index>(k)) = (columns[k] >> r) & 1;
  const XorDegree d = xor_degree(F, bank_bits);

  out.status = LayoutSymbolic::Status::proven;
  out.degree = d.degree;
  out.cell_rank = d.address_rank;
  out.bank_rank = d.bank_rank;
  out.instructions = std::uint64_t{1} << map.instruction_bits;
  out.lanes_per_phase = 1u << group_bits;
  out.phases = std::uint64_t{1} << (map.lane_bits - group_bits);
  if (d.degree >= 2) out.witness = conflict_witness(map, columns, group_bits, bank_bits, cell_shift);
  return out;
}

std::string symbolic_disagreement(const LayoutSymbolic& proof, const layout::LayoutCheck& enumerated) {
  if (proof.status != LayoutSymbolic::Status::proven) return "";
  if (enumerated.costs.size() != proof.instructions)
    return "the proof covers " + std::to_string(proof.instructions) + " instructions, the enumeration " +
           std::to_string(enumerated.costs.size());
  for (std::size_t i = 0; i < enumerated.costs.size(); ++i) {
    const RequestCost& c = enumerated.costs[i];
    if (!c.modelled || c.degree != proof.degree || c.wavefronts != proof.phases * proof.degree ||
        c.ideal != proof.phases)
      return "instruction " + std::to_string(i) + ": enumerated " + (c.modelled ? "" : "(not modelled) ") +
             std::to_string(c.wavefronts) + " wavefronts, ideal " + std::to_string(c.ideal) + ", degree " +
             std::to_string(c.degree) + "; proven " + std::to_string(proof.phases) + " phases of degree " +
             std::to_string(proof.degree);
  }
  return "";
}

}  // namespace bankcheck::proofs
