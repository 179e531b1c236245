#include "proofs/layout_linear_map.hpp"

#include <optional>

#include "proofs/number_theory.hpp"

namespace bankcheck::proofs {
namespace {

using layout::IntTuple;
using nt::is_power_of_two;
using nt::log2_floor;

const char* mode_name(unsigned mode) { return mode == 0 ? "row" : mode == 1 ? "column" : "tile"; }

/// What index bit `q` of a mode adds to the offset, for every q: leaf by leaf,
/// the first leaf fastest (CuTe's colexicographic split). A leaf of extent
/// 2^e and stride s gives s, 2s, .., s << (e-1). Empty with `why` set when a
/// leaf is not a bit field (extent not a power of two) or runs backwards.
std::vector<std::int64_t> index_bit_terms(const IntTuple& shape, const IntTuple& stride, std::string& why) {
  std::vector<std::int64_t> out;
  if (shape.is_leaf()) {
    const auto extent = static_cast<std::uint64_t>(shape.value);
    if (!is_power_of_two(extent)) {
      why = "extent " + std::to_string(extent) + " is not a power of two, so its index is no bit field";
      return {};
    }
    if (stride.value < 0 && extent > 1) {
      why = "stride " + std::to_string(stride.value) + " is negative";
      return {};
    }
    for (unsigned b = 0; b < log2_floor(extent); ++b) out.push_back(stride.value << b);
    return out;
  }
  for (std::size_t i = 0; i < shape.modes.size(); ++i) {
    const auto sub = index_bit_terms(shape.modes[i], stride.modes[i], why);
    if (!why.empty()) return {};
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

/// A variable bit before it has a column: the coordinate bit it sets.
struct Variable {
  AddressBit::Role role;
  unsigned position;
  unsigned mode;       ///< 0 rows, 1 columns, 2 tiles
  unsigned index_bit;  ///< bit of that mode's index
};

struct Coordinates {
  std::uint64_t index[3] = {0, 0, 0};
};

}  // namespace

std::uint64_t LayoutLinearMap::address(std::uint64_t lane, std::uint64_t instruction) const {
  std::uint64_t a = constant;
  for (const AddressBit& b : bits)
    if (((b.role == AddressBit::Role::lane ? lane : instruction) >> b.position) & 1) a ^= b.column;
  return a;
}

LayoutLinearMap derive_layout_linear_map(const layout::LayoutAccess& access, std::uint64_t base) {
  LayoutLinearMap out;
  const auto fail = [&](LayoutLinearMap::Status s, std::string why) {
    out.status = s;
    out.reason = std::move(why);
    out.bits.clear();
    return out;
  };
  const layout::CuteLayout& L = access.layout.layout;
  const unsigned rank = static_cast<unsigned>(L.rank());
  const unsigned element_bytes = access.element.bytes;
  if (!is_power_of_two(element_bytes)) return fail(LayoutLinearMap::Status::not_proven, "element size is not a power of two");

  // 1. Each mode's index bits as offset terms.
  std::vector<std::int64_t> terms[3];
  for (unsigned m = 0; m < rank && m < 3; ++m) {
    std::string why;
    const layout::CuteLayout mode = L.mode(m);
    terms[m] = index_bit_terms(mode.shape(), mode.stride(), why);
    if (!why.empty())
      return fail(LayoutLinearMap::Status::not_proven, "mode " + std::to_string(m) + " (" + mode.text() + "): " + why);
  }

  // 2. The variables: which coordinate bit each lane and instruction bit sets
  //    (the lane maps of sim/layout/layout_access.hpp, bit by bit).
  const unsigned along = access.along, line_mode = 1 - along;
  const unsigned per_lane = access.access.bytes / element_bytes;
  const std::uint64_t extent[2] = {access.rows, access.cols};
  const unsigned vector_shift = log2_floor(per_lane);
  const unsigned per_line_bits = log2_floor(extent[along]) - vector_shift;
  std::vector<Variable> vars;
  unsigned per_tile_bits = 0;
  if (access.access.is_matrix()) {
    // Matrix m (line block outer, vector block inner); lane 8j + r gives row r
    // of matrix N i + j: lane bits 0-2 are r, lane bits 3.. are j's bits.
    const unsigned line_block_bits = log2_floor(extent[line_mode]) - 3;
    const unsigned matrix_bits = per_line_bits + line_block_bits;
    const unsigned n_bits = log2_floor(access.access.matrices);
    for (unsigned r = 0; r < 3; ++r) vars.push_back({AddressBit::Role::lane, r, line_mode, r});
    for (unsigned p = 0; p < matrix_bits; ++p) {
      const unsigned mode = p < per_line_bits ? along : line_mode;
      const unsigned bit = p < per_line_bits ? p + vector_shift : p - per_line_bits + 3;
      if (p < n_bits) vars.push_back({AddressBit::Role::lane, 3 + p, mode, bit});
      else vars.push_back({AddressBit::Role::instruction, p - n_bits, mode, bit});
    }
    out.lane_bits = 3 + n_bits;
    per_tile_bits = matrix_bits - n_bits;
  } else {
    // Vector k = 32 i + l: position k mod per_line (times the lane's elements), line k / per_line.
    const unsigned vector_bits = per_line_bits + log2_floor(extent[line_mode]);
    for (unsigned p = 0; p < vector_bits; ++p) {
      const unsigned mode = p < per_line_bits ? along : line_mode;
      const unsigned bit = p < per_line_bits ? p + vector_shift : p - per_line_bits;
      if (p < 5) vars.push_back({AddressBit::Role::lane, p, mode, bit});
      else vars.push_back({AddressBit::Role::instruction, p - 5, mode, bit});
    }
    out.lane_bits = vector_bits < 5 ? vector_bits : 5;
    per_tile_bits = vector_bits > 5 ? vector_bits - 5 : 0;
  }
  // Tiles are walked one after the other: tile t's instruction i is t * per_tile + i.
  for (unsigned q = 0; q < terms[2].size(); ++q)
    vars.push_back({AddressBit::Role::instruction, per_tile_bits + q, 2, q});
  out.instruction_bits = per_tile_bits + static_cast<unsigned>(terms[2].size());
  if ((std::uint64_t{1} << out.instruction_bits) != access.instructions.size())
    return fail(LayoutLinearMap::Status::not_proven,
                "the bit fields give " + std::to_string(std::uint64_t{1} << out.instruction_bits) +
                    " instructions, the plan " + std::to_string(access.instructions.size()));

  // 3. The offset as a sum of terms; carry-free when their bits are disjoint.
  std::vector<std::uint64_t> offset_terms;
  for (const Variable& v : vars) offset_terms.push_back(static_cast<std::uint64_t>(terms[v.mode][v.index_bit]));
  const auto real_address = [&](const std::vector<bool>& set) -> std::optional<std::uint64_t> {
    Coordinates c;
    for (std::size_t i = 0; i < vars.size(); ++i)
      if (set[i]) c.index[vars[i].mode] |= std::uint64_t{1} << vars[i].index_bit;
    try {
      std::int64_t offset = L.mode(0)(c.index[0]) + L.mode(1)(c.index[1]);
      if (rank == 3) offset += L.mode(2)(c.index[2]);
      return access.layout.byte_address(offset, element_bytes, base);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const auto var_text = [&](std::size_t i) {
    return std::string(mode_name(vars[i].mode)) + " bit " + std::to_string(vars[i].index_bit) + " (+" +
           std::to_string(offset_terms[i]) + " elements)";
  };
  std::uint64_t support = 0;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if ((support & offset_terms[i]) == 0) {
      support |= offset_terms[i];
      continue;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if ((offset_terms[i] & offset_terms[j]) == 0) continue;
      std::vector<bool> a(vars.size(), false), b = a, ab = a;
      a[i] = ab[i] = true;
      b[j] = ab[j] = true;
      const auto z = real_address(std::vector<bool>(vars.size(), false)), x = real_address(a), y = real_address(b),
                 xy = real_address(ab);
      const std::string pair = var_text(j) + " and " + var_text(i) + " share offset bits, so the sum carries";
      if (z && x && y && xy && (*z ^ *x ^ *y ^ *xy) != 0)
        return fail(LayoutLinearMap::Status::not_linear,
                    pair + ": bytes " + std::to_string(*xy) + " for both, not " + std::to_string(*z ^ *x ^ *y));
      return fail(LayoutLinearMap::Status::not_proven, pair);
    }
  }

  // 4. Swizzle, element size and base (each linear, or an XOR of disjoint bits).
  const unsigned shift = log2_floor(element_bytes);
  const std::optional<layout::Swizzle>& sw = access.layout.swizzle;
  const auto swizzle = [&](std::uint64_t x) { return sw ? sw->apply(x) : x; };
  std::vector<std::uint64_t> columns(vars.size());
  std::uint64_t constant = 0;
  if (access.layout.unit == layout::SwizzleUnit::element) {
    if (access.layout.offset < 0 || (static_cast<std::uint64_t>(access.layout.offset) & support) != 0)
      return fail(LayoutLinearMap::Status::not_proven,
                  "the composed offset " + std::to_string(access.layout.offset) + " meets the coordinates' bits");
    for (std::size_t i = 0; i < vars.size(); ++i) columns[i] = swizzle(offset_terms[i]) << shift;
    constant = swizzle(static_cast<std::uint64_t>(access.layout.offset)) << shift;
    std::uint64_t used = constant;
    for (std::uint64_t c : columns) used |= c;
    if ((base & used) != 0)
      return fail(LayoutLinearMap::Status::not_proven,
                  "the base " + std::to_string(base) + " meets the bits the swizzled offsets use");
    constant |= base;
  } else {
    if ((base & (support << shift)) != 0)
      return fail(LayoutLinearMap::Status::not_proven,
                  "the base " + std::to_string(base) + " meets the bits the offsets use");
    for (std::size_t i = 0; i < vars.size(); ++i) columns[i] = swizzle(offset_terms[i] << shift);
    constant = swizzle(base);
  }

  out.status = LayoutLinearMap::Status::linear;
  out.constant = constant;
  for (AddressBit::Role role : {AddressBit::Role::lane, AddressBit::Role::instruction})
    for (unsigned pos = 0; pos < 64; ++pos)
      for (std::size_t i = 0; i < vars.size(); ++i)
        if (vars[i].role == role && vars[i].position == pos)
          out.bits.push_back({role, pos, columns[i],
                              std::string(mode_name(vars[i].mode)) + " bit " + std::to_string(vars[i].index_bit)});
  return out;
}

}  // namespace bankcheck::proofs
