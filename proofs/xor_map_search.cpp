#include "proofs/xor_map_search.hpp"

#include <algorithm>

namespace bankcheck::proofs {
namespace xor_search {

/// Bank image of delta x under c: its bits [cell, top) after the map.
std::uint64_t image(std::uint64_t x, const std::vector<std::uint64_t>& c, const XorFrame& f) {
  std::uint64_t img = (x >> f.v) & f.target_mask();
  for (std::size_t h = 0; h < c.size(); ++h)
    if ((x >> (f.top + h)) & 1) img ^= c[h];
  const std::uint64_t low = (x >> f.cell_shift) & ((std::uint64_t{1} << (f.v - f.cell_shift)) - 1);
  return (img << (f.v - f.cell_shift)) | low;
}

/// Reduce `x` against an echelon basis (keyed by leading bit); 0 when dependent.
std::uint64_t reduce(std::uint64_t x, const std::vector<std::uint64_t>& basis) {
  for (const std::uint64_t b : basis)
    if ((x ^ b) < x) x ^= b;
  return x;
}

void insert(std::uint64_t x, std::vector<std::uint64_t>& basis) {
  x = reduce(x, basis);
  if (x == 0) return;
  basis.push_back(x);
  std::sort(basis.begin(), basis.end(), std::greater<>());
}

}  // namespace xor_search

XorAddressMap xor_map_of_vectors(const std::vector<std::uint64_t>& c, const XorFrame& f) {
  XorAddressMap m;
  for (unsigned j = 0; j < f.top - f.v; ++j) {
    XorTerm t{f.v + j, 0};
    for (std::size_t h = 0; h < c.size(); ++h)
      if ((c[h] >> j) & 1) t.sources |= std::uint64_t{1} << (f.top + h);
    if (t.sources != 0) m.terms.push_back(t);
  }
  return m;
}

unsigned phase_lane_bits(bool matrix, unsigned bytes) {
  if (matrix) return 3;
  return bytes <= 4 ? 5 : bytes == 8 ? 4 : 3;
}

std::vector<std::uint64_t> construct_xor_vectors(const std::vector<PhaseColumns>& phases, const XorFrame& f) {
  const unsigned sources = f.sources();
  std::vector<std::uint64_t> c(sources, 0);
  std::vector<bool> given(sources, false);
  for (const PhaseColumns& phase : phases) {
    std::vector<std::uint64_t> basis;
    for (const std::uint64_t x : phase) {
      // A conflict direction: give one of its unassigned source bits the first bank bits that separate it.
      for (unsigned h = 0; h < sources && xor_search::reduce(xor_search::image(x, c, f), basis) == 0; ++h) {
        if (given[h] || !((x >> (f.top + h)) & 1)) continue;
        for (std::uint64_t v = 1; v <= f.target_mask() && !given[h]; ++v) {
          c[h] = v;
          given[h] = xor_search::reduce(xor_search::image(x, c, f), basis) != 0;
        }
        if (!given[h]) c[h] = 0;
      }
      xor_search::insert(xor_search::image(x, c, f), basis);
    }
  }
  return c;
}

void descend_xor_vectors(const std::function<std::uint64_t(const XorAddressMap&)>& cost, const XorFrame& f,
                         std::vector<std::uint64_t>& c, std::uint64_t& evaluations) {
  const auto eval = [&] {
    ++evaluations;
    return cost(xor_map_of_vectors(c, f));
  };
  std::uint64_t best = eval();
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (std::size_t h = 0; h < c.size(); ++h) {
      const std::uint64_t current = c[h];
      std::uint64_t chosen = current;
      for (std::uint64_t v = 0; v <= f.target_mask(); ++v) {
        if (v == current) continue;
        c[h] = v;
        const std::uint64_t k = eval();
        if (k < best) best = k, chosen = v, changed = true;
      }
      c[h] = chosen;
    }
    if (!changed) break;
  }
}

std::vector<layout::Swizzle> swizzles_within(unsigned bits) {
  std::vector<layout::Swizzle> out;
  const int n = static_cast<int>(bits);
  for (int b = 1; b <= n; ++b)
    for (int m = 0; m < n; ++m)
      for (int s = -n; s <= n; ++s) {
        if (!layout::swizzle_problem(b, m, s).empty()) continue;
        const int zzz_top = m - std::min(0, s) + b, yyy_top = m + std::max(0, s) + b;
        if (zzz_top <= n && yyy_top <= n) out.push_back({b, m, s});
      }
  return out;
}

}  // namespace bankcheck::proofs
