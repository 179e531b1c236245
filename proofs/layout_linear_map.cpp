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

/// Why a derivation stopped: the status and the reason it reports.
struct MapStop {
  LayoutLinearMap::Status status;
  std::string reason;
};
using MapStep = std::optional<MapStop>;

/// Step 1: each mode's index bits as offset terms.
MapStep mode_terms(const layout::CuteLayout& L, std::vector<std::int64_t> (&terms)[3]) {
  for (unsigned m = 0; m < L.rank() && m < 3; ++m) {
    std::string why;
    const layout::CuteLayout mode = L.mode(m);
    terms[m] = index_bit_terms(mode.shape(), mode.stride(), why);
    if (!why.empty())
      return MapStop{LayoutLinearMap::Status::not_proven, "mode " + std::to_string(m) + " (" + mode.text() + "): " + why};
  }
  return std::nullopt;
}

/// Step 2, for ldmatrix/stmatrix: matrix m (line block outer, vector block
/// inner); lane 8j + r gives row r of matrix N i + j: lane bits 0-2 are r,
/// lane bits 3.. are j's bits. Returns the instruction bits within a tile.
unsigned matrix_variables(const layout::LayoutAccess& access, unsigned along, unsigned per_line_bits,
                          unsigned vector_shift, std::vector<Variable>& vars, LayoutLinearMap& out) {
  const unsigned line_mode = 1 - along;
  const std::uint64_t extent[2] = {access.rows, access.cols};
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
  return matrix_bits - n_bits;
}

/// Step 2, for vectors: vector k = 32 i + l: position k mod per_line (times
/// the lane's elements), line k / per_line. Returns the instruction bits within a tile.
unsigned vector_variables(const layout::LayoutAccess& access, unsigned along, unsigned per_line_bits,
                          unsigned vector_shift, std::vector<Variable>& vars, LayoutLinearMap& out) {
  const unsigned line_mode = 1 - along;
  const std::uint64_t extent[2] = {access.rows, access.cols};
  const unsigned vector_bits = per_line_bits + log2_floor(extent[line_mode]);
  for (unsigned p = 0; p < vector_bits; ++p) {
    const unsigned mode = p < per_line_bits ? along : line_mode;
    const unsigned bit = p < per_line_bits ? p + vector_shift : p - per_line_bits;
    if (p < 5) vars.push_back({AddressBit::Role::lane, p, mode, bit});
    else vars.push_back({AddressBit::Role::instruction, p - 5, mode, bit});
  }
  out.lane_bits = vector_bits < 5 ? vector_bits : 5;
  return vector_bits > 5 ? vector_bits - 5 : 0;
}

/// Step 2: the variables: which coordinate bit each lane and instruction bit
/// sets (the lane maps of sim/layout/layout_access.hpp, bit by bit).
MapStep lane_variables(const layout::LayoutAccess& access, std::size_t tile_bits, std::vector<Variable>& vars,
               LayoutLinearMap& out) {
  const unsigned along = access.along;
  const unsigned vector_shift = log2_floor(access.access.bytes / access.element.bytes);
  const std::uint64_t extent[2] = {access.rows, access.cols};
  const unsigned per_line_bits = log2_floor(extent[along]) - vector_shift;
  const unsigned per_tile_bits = access.access.is_matrix()
                                     ? matrix_variables(access, along, per_line_bits, vector_shift, vars, out)
                                     : vector_variables(access, along, per_line_bits, vector_shift, vars, out);
  // Tiles are walked one after the other: tile t's instruction i is t * per_tile + i.
  for (unsigned q = 0; q < tile_bits; ++q) vars.push_back({AddressBit::Role::instruction, per_tile_bits + q, 2, q});
  out.instruction_bits = per_tile_bits + static_cast<unsigned>(tile_bits);
  if ((std::uint64_t{1} << out.instruction_bits) != access.instructions.size())
    return MapStop{LayoutLinearMap::Status::not_proven,
                "the bit fields give " + std::to_string(std::uint64_t{1} << out.instruction_bits) +
                    " instructions, the plan " + std::to_string(access.instructions.size())};
  return std::nullopt;
}

/// Step 3: the offset as a sum of terms; carry-free when their bits are
/// disjoint. Where two terms share bits, the layout's real addresses of the
/// pair say whether the sum is still an XOR there.
MapStep carry_free(const layout::LayoutAccess& access, std::uint64_t base, const std::vector<Variable>& vars,
                const std::vector<std::uint64_t>& offset_terms, std::uint64_t& support) {
  const layout::CuteLayout& L = access.layout.layout;
  const auto real_address = [&](const std::vector<bool>& set) -> std::optional<std::uint64_t> {
    Coordinates c;
    for (std::size_t i = 0; i < vars.size(); ++i)
      if (set[i]) c.index[vars[i].mode] |= std::uint64_t{1} << vars[i].index_bit;
    try {
      std::int64_t offset = L.mode(0)(c.index[0]) + L.mode(1)(c.index[1]);
      if (L.rank() == 3) offset += L.mode(2)(c.index[2]);
      return access.layout.byte_address(offset, access.element.bytes, base);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const auto var_text = [&](std::size_t i) {
    return std::string(mode_name(vars[i].mode)) + " bit " + std::to_string(vars[i].index_bit) + " (+" +
           std::to_string(offset_terms[i]) + " elements)";
  };
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
        return MapStop{LayoutLinearMap::Status::not_linear,
                    pair + ": bytes " + std::to_string(*xy) + " for both, not " + std::to_string(*z ^ *x ^ *y)};
      return MapStop{LayoutLinearMap::Status::not_proven, pair};
    }
  }
  return std::nullopt;
}

/// Step 4: swizzle, element size and base (each linear, or an XOR of disjoint
/// bits): each variable's column of address bits, and the constant.
MapStep address_columns(const layout::LayoutAccess& access, std::uint64_t base,
                     const std::vector<std::uint64_t>& offset_terms, std::uint64_t support,
                     std::vector<std::uint64_t>& columns, std::uint64_t& constant) {
  const unsigned shift = log2_floor(access.element.bytes);
  const std::optional<layout::Swizzle>& sw = access.layout.swizzle;
  const auto swizzle = [&](std::uint64_t x) { return sw ? sw->apply(x) : x; };
  columns.assign(offset_terms.size(), 0);
  if (access.layout.unit != layout::SwizzleUnit::element) {
    if ((base & (support << shift)) != 0)
      return MapStop{LayoutLinearMap::Status::not_proven, "the base " + std::to_string(base) + " meets the bits the offsets use"};
    for (std::size_t i = 0; i < offset_terms.size(); ++i) columns[i] = swizzle(offset_terms[i] << shift);
    constant = swizzle(base);
    return std::nullopt;
  }
  if (access.layout.offset < 0 || (static_cast<std::uint64_t>(access.layout.offset) & support) != 0)
    return MapStop{LayoutLinearMap::Status::not_proven,
                "the composed offset " + std::to_string(access.layout.offset) + " meets the coordinates' bits"};
  for (std::size_t i = 0; i < offset_terms.size(); ++i) columns[i] = swizzle(offset_terms[i]) << shift;
  constant = swizzle(static_cast<std::uint64_t>(access.layout.offset)) << shift;
  std::uint64_t used = constant;
  for (std::uint64_t c : columns) used |= c;
  if ((base & used) != 0)
    return MapStop{LayoutLinearMap::Status::not_proven,
                "the base " + std::to_string(base) + " meets the bits the swizzled offsets use"};
  constant |= base;
  return std::nullopt;
}

}  // namespace

std::uint64_t LayoutLinearMap::address(std::uint64_t lane, std::uint64_t instruction) const {
  std::uint64_t a = constant;
  for (const AddressBit& b : bits)
    if (((b.role == AddressBit::Role::lane ? lane : instruction) >> b.position) & 1) a ^= b.column;
  return a;
}

LayoutLinearMap derive_layout_linear_map(const layout::LayoutAccess& access, std::uint64_t base) {
  LayoutLinearMap out;
  const auto fail = [&](const MapStop& stop) {
    out.status = stop.status;
    out.reason = stop.reason;
    out.bits.clear();
    return out;
  };
  if (!is_power_of_two(access.element.bytes))
    return fail({LayoutLinearMap::Status::not_proven, "element size is not a power of two"});
  std::vector<std::int64_t> terms[3];
  std::vector<Variable> vars;
  if (MapStep stop = mode_terms(access.layout.layout, terms)) return fail(*stop);
  if (MapStep stop = lane_variables(access, terms[2].size(), vars, out)) return fail(*stop);
  std::vector<std::uint64_t> offset_terms;
  for (const Variable& v : vars) offset_terms.push_back(static_cast<std::uint64_t>(terms[v.mode][v.index_bit]));
  std::uint64_t support = 0, constant = 0;
  std::vector<std::uint64_t> columns;
  if (MapStep stop = carry_free(access, base, vars, offset_terms, support)) return fail(*stop);
  if (MapStep stop = address_columns(access, base, offset_terms, support, columns, constant)) return fail(*stop);

  // 5. The map: lane bits first, then instruction bits, each by position.
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
