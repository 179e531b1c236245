#include "proofs/layout_paste.hpp"

#include <map>
#include <optional>

#include "proofs/number_theory.hpp"

namespace bankcheck::proofs {
namespace {

using layout::Swizzle;

std::string cute_int(std::int64_t v) { return "Int<" + std::to_string(v) + ">{}"; }

/// The element offset of (row, col) as C++, and as CuTe's make_layout.
struct Offset {
  std::string cpp;
  std::string cute;
};

Offset offset_of(const LayoutCandidate& c, const TileAccesses& t) {
  const auto& l = c.layout.layout;
  const std::string shape = "make_shape(" + cute_int(static_cast<std::int64_t>(t.rows)) + ", " +
                            cute_int(static_cast<std::int64_t>(t.cols)) + ")";
  if (c.family == LayoutCandidate::Family::tma_atom && l.mode(1).rank() == 2) {
    const std::int64_t w = l.mode(1).shape().modes[0].value, block = l.mode(1).stride().modes[1].value;
    return {"row * " + std::to_string(w) + " + col % " + std::to_string(w) + " + col / " + std::to_string(w) + " * " +
                std::to_string(block),
            ""};
  }
  const std::int64_t s0 = l.mode(0).stride().value, s1 = l.mode(1).stride().value;
  const auto term = [](const char* v, std::int64_t s) { return s == 1 ? std::string(v) : std::string(v) + " * " + std::to_string(s); };
  return {term("row", s0) + " + " + term("col", s1),
          "make_layout(" + shape + ", make_stride(" + cute_int(s0) + ", " + cute_int(s1) + "))"};
}

/// The candidate's map as a swizzle on element offsets, when it is one.
std::optional<Swizzle> element_swizzle(const LayoutCandidate& c, const TileAccesses& t) {
  const unsigned shift = nt::log2_floor(t.element.bytes);
  std::optional<Swizzle> sw;
  bool on_bytes = false;
  if (c.family == LayoutCandidate::Family::xor_map) sw = c.map.as_swizzle(), on_bytes = true;
  else if (c.layout.swizzle) sw = c.layout.swizzle, on_bytes = c.layout.unit == layout::SwizzleUnit::byte;
  if (!sw || !on_bytes) return sw;
  // A byte swizzle is an element swizzle when it keeps elements whole and the base meets none of its bits.
  const std::uint64_t top = std::uint64_t{1} << (sw->base + std::abs(sw->shift) + sw->bits);
  const bool base_free = c.family == LayoutCandidate::Family::xor_map || (t.base & (top - 1)) == 0;
  if (sw->base < static_cast<int>(shift) || !base_free) return std::nullopt;
  return Swizzle{sw->bits, sw->base - static_cast<int>(shift), sw->shift};
}

std::string atom_type(const layout::ElementType& e) {
  static const std::map<std::string, std::string> names{
      {"fp16", "half_t"}, {"f16", "half_t"}, {"half", "half_t"}, {"bf16", "bfloat16_t"}, {"tf32", "tfloat32_t"},
      {"f32", "float"},   {"fp32", "float"}, {"float", "float"}, {"int8", "int8_t"},        {"fp8", "float_e4m3_t"},
      {"e4m3", "float_e4m3_t"}, {"e5m2", "float_e5m2_t"}};
  const auto it = names.find(e.name);
  return it == names.end() ? "T" : it->second;
}

std::string linear_bases(const LayoutCandidate& c, const TileAccesses& t) {
  const std::uint64_t n = t.rows * t.cols;
  if (!nt::is_power_of_two(n)) return "none: the tile is not a power of two";
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> at;
  for (std::uint64_t r = 0; r < t.rows; ++r)
    for (std::uint64_t col = 0; col < t.cols; ++col) {
      const auto& l = c.layout.layout;
      std::uint64_t a = c.layout.byte_address(l.mode(0)(r) + l.mode(1)(col), t.element.bytes, t.base) - t.base;
      at[c.map.apply(a) / t.element.bytes] = {r, col};
    }
  std::string s = "LinearLayout bases, offset -> (dim0, dim1): [";
  for (std::uint64_t k = 1; k < n; k <<= 1) {
    const auto it = at.find(k);
    if (it == at.end()) return "none: not a linear map of the element offsets";
    s += (k > 1 ? ", [" : "[") + std::to_string(it->second.first) + ", " + std::to_string(it->second.second) + "]";
  }
  return s + "]";
}

std::string triton_of(const LayoutCandidate& c, const TileAccesses& t) {
  if (c.family == LayoutCandidate::Family::padded) return "none: padding is no SwizzledSharedLayout";
  const bool plain_base = c.family != LayoutCandidate::Family::tma_atom || c.layout.layout.mode(1).rank() == 1;
  const std::string order = c.row_major ? "[1, 0]" : "[0, 1]";
  const std::optional<Swizzle> sw = element_swizzle(c, t);
  const bool no_map = !c.layout.swizzle && c.map.is_identity();
  if (plain_base && no_map) return "SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=" + order + ")";
  if (plain_base && sw && sw->shift > 0) {
    const int log_c = static_cast<int>(nt::log2_floor(c.row_major ? t.cols : t.rows));
    if (sw->base + sw->bits <= log_c && sw->base + sw->shift >= log_c && nt::is_power_of_two(c.row_major ? t.cols : t.rows))
      return "SwizzledSharedLayout(vec=" + std::to_string(1 << sw->base) + ", per_phase=" +
             std::to_string(1 << (sw->base + sw->shift - log_c)) + ", max_phase=" + std::to_string(1 << sw->bits) +
             ", order=" + order + ")";
  }
  return linear_bases(c, t);
}

}  // namespace

LayoutPaste paste_of(const LayoutCandidate& c, const TileAccesses& t) {
  LayoutPaste p;
  const Offset off = offset_of(c, t);
  const std::string e = std::to_string(t.element.bytes);
  const std::optional<Swizzle> sw = element_swizzle(c, t);
  const std::string e_off = "(" + off.cpp + ")";
  if (c.family == LayoutCandidate::Family::tma_atom && c.layout.swizzle) {
    static const char* atoms[] = {"INTER", "SW32", "SW64", "SW128"};
    p.cute = "tile_to_shape(GMMA::Layout_K_" + std::string(atoms[c.atom_mode]) + "_Atom<" + atom_type(t.element) +
             ">{}, make_shape(" + cute_int(static_cast<std::int64_t>(t.rows)) + ", " +
             cute_int(static_cast<std::int64_t>(t.cols)) + "))";
    const Swizzle& s = *c.layout.swizzle;
    p.cpp = "o ^ ((o >> " + std::to_string(s.shift) + ") & " + std::to_string(s.zzz_mask()) + "), o = " + e_off + " * " +
            e + " (the swizzle acts on the shared address: the tile " + std::to_string(1u << (s.base + s.shift + s.bits)) +
            "-byte aligned)";
  } else if (sw) {
    const std::string body = off.cute.empty() ? "the tile's layout" : off.cute;
    p.cute = "composition(Swizzle<" + std::to_string(sw->bits) + "," + std::to_string(sw->base) + "," +
             std::to_string(sw->shift) + ">{}, " + body + ")";
    const std::uint64_t mask = sw->zzz_mask();
    p.cpp = "(x ^ ((x " + std::string(sw->shift > 0 ? ">> " : "<< ") + std::to_string(std::abs(sw->shift)) + ") & " +
            std::to_string(mask) + ")) * " + e + ", x = " + off.cpp;
  } else if (c.family == LayoutCandidate::Family::xor_map) {
    p.cute = "none: not a CuTe Swizzle<B,M,S> (a general XOR map; paste the C++ expression)";
    p.cpp = c.map.cpp("o") + ", o = " + e_off + " * " + e;
  } else if (c.layout.swizzle) {
    p.cute = "none at base " + std::to_string(t.base) + ": the byte swizzle meets the base's bits";
    p.cpp = "(base + " + e_off + " * " + e + ") swizzled by " + c.layout.swizzle->text() + " on the address";
  } else {
    p.cute = off.cute;
    p.cpp = e_off + " * " + e;
  }
  p.triton = triton_of(c, t);
  return p;
}

}  // namespace bankcheck::proofs
