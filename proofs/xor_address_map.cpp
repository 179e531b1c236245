#include "proofs/xor_address_map.hpp"

#include <bit>
#include <sstream>

namespace bankcheck::proofs {
namespace {

std::string bits_text(std::uint64_t mask) {
  std::string s;
  for (unsigned b = 0; b < 64; ++b)
    if ((mask >> b) & 1) s += (s.empty() ? "" : ",") + std::to_string(b);
  return s;
}

std::string hex(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

}  // namespace

std::uint64_t XorAddressMap::apply(std::uint64_t offset) const {
  std::uint64_t out = offset;
  for (const XorTerm& t : terms)
    out ^= static_cast<std::uint64_t>(std::popcount(offset & t.sources) & 1) << t.target;
  return out;
}

unsigned XorAddressMap::lowest_target() const {
  unsigned low = 64;
  for (const XorTerm& t : terms) low = t.target < low ? t.target : low;
  return low;
}

std::uint64_t XorAddressMap::source_mask() const {
  std::uint64_t m = 0;
  for (const XorTerm& t : terms) m |= t.sources;
  return m;
}

std::optional<layout::Swizzle> XorAddressMap::as_swizzle() const {
  if (terms.empty()) return std::nullopt;
  const unsigned m = terms.front().target;
  if (std::popcount(terms.front().sources) != 1) return std::nullopt;
  const unsigned first_source = static_cast<unsigned>(std::countr_zero(terms.front().sources));
  const int shift = static_cast<int>(first_source) - static_cast<int>(m);
  for (std::size_t k = 0; k < terms.size(); ++k)
    if (terms[k].target != m + k || terms[k].sources != std::uint64_t{1} << (first_source + k)) return std::nullopt;
  const int bits = static_cast<int>(terms.size());
  if (!layout::swizzle_problem(bits, static_cast<int>(m), shift).empty()) return std::nullopt;
  return layout::Swizzle{bits, static_cast<int>(m), shift};
}

std::string XorAddressMap::cpp(const std::string& var) const {
  if (terms.empty()) return var;
  if (const auto sw = as_swizzle())
    return var + " ^ ((" + var + " >> " + std::to_string(sw->shift) + ") & " + hex(sw->zzz_mask()) + ")";
  std::string s = var + " ^ (";
  for (std::size_t k = 0; k < terms.size(); ++k)
    s += (k ? " | " : "") + std::string("((std::popcount(") + var + " & " + hex(terms[k].sources) + "u) & 1) << " +
         std::to_string(terms[k].target) + ")";
  return s + ")";
}

std::string XorAddressMap::text() const {
  if (terms.empty()) return "identity";
  std::string s;
  for (const XorTerm& t : terms)
    s += (s.empty() ? "" : "; ") + std::string("bit ") + std::to_string(t.target) + " ^= bit" +
         (std::popcount(t.sources) > 1 ? "s " : " ") + bits_text(t.sources);
  return s;
}

XorAddressMap xor_map_of(const layout::Swizzle& swizzle) {
  XorAddressMap m;
  for (int k = 0; k < swizzle.bits; ++k)
    m.terms.push_back({static_cast<unsigned>(swizzle.base + k), std::uint64_t{1} << (swizzle.base + swizzle.shift + k)});
  return m;
}

}  // namespace bankcheck::proofs
