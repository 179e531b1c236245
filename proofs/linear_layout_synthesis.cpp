#include "proofs/linear_layout_synthesis.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>

namespace bankcheck::proofs {
namespace {

/// A GF(2) span kept in echelon form (pivot = highest bit).
class Gf2Span {
 public:
  bool independent(std::uint64_t v) const { return reduce(v) != 0; }
  bool add(std::uint64_t v) {
    v = reduce(v);
    if (v == 0) return false;
    piv_[static_cast<unsigned>(std::bit_width(v) - 1)] = v;
    return true;
  }

 private:
  std::uint64_t reduce(std::uint64_t v) const {
    while (v != 0) {
      const auto it = piv_.find(static_cast<unsigned>(std::bit_width(v) - 1));
      if (it == piv_.end()) break;
      v ^= it->second;
    }
    return v;
  }
  std::map<unsigned, std::uint64_t> piv_;
};

/// What one side's instruction needs at the offset's low bits, and its phase lanes.
struct LowNeed {
  std::vector<std::uint64_t> vecs;
  bool ordered = false;
  std::vector<std::uint64_t> phase;
  unsigned phase_low = 0;  ///< low offset bits inside one lane's unit (vector or word)
};

std::vector<std::uint64_t> lls_packed(const std::vector<layout::TileCoord>& bases, unsigned cb) {
  std::vector<std::uint64_t> out;
  for (const auto& b : bases) out.push_back((b.row << cb) | b.col);
  return out;
}

/// Every k-subset of `from` (index order), calling f on each.
template <class F>
void lls_subsets(const std::vector<std::uint64_t>& from, std::size_t k, std::size_t start, std::vector<std::uint64_t>& cur,
                 const F& f) {
  if (cur.size() == k) return f(cur);
  for (std::size_t i = start; i < from.size(); ++i) {
    cur.push_back(from[i]);
    lls_subsets(from, k, i + 1, cur, f);
    cur.pop_back();
  }
}

std::vector<LowNeed> lls_needs(const layout::RegisterLayout& r, unsigned e, unsigned cb) {
  const std::vector<std::uint64_t> R = lls_packed(r.reg, cb), L = lls_packed(r.lane, cb);
  const unsigned word_bits = e < 4 ? static_cast<unsigned>(std::countr_zero(4u / e)) : 0;
  std::vector<LowNeed> out;
  for (unsigned k = 0, v = e; v <= 16 && k <= R.size(); ++k, v *= 2) {
    const std::size_t lanes = v >= 16 ? 3 : v == 8 ? 4 : 5;
    std::vector<std::uint64_t> cur;
    lls_subsets(R, k, 0, cur, [&](const std::vector<std::uint64_t>& s) {
      out.push_back(LowNeed{s, false, std::vector<std::uint64_t>(L.begin(), L.begin() + lanes), std::max(k, word_bits)});
    });
  }
  const std::vector<std::uint64_t> rows{L[2], L[3], L[4]};
  if (e <= 4) {
    const unsigned k0 = static_cast<unsigned>(std::countr_zero(4u / e)), row_bits = k0 + 2;
    std::vector<std::uint64_t> cur;
    lls_subsets(R, k0, 0, cur, [&](const std::vector<std::uint64_t>& s) {
      std::vector<std::uint64_t> perm = s;
      std::sort(perm.begin(), perm.end());
      do {
        std::vector<std::uint64_t> v = perm;
        v.push_back(L[0]), v.push_back(L[1]);
        out.push_back(LowNeed{v, true, rows, row_bits});
      } while (std::next_permutation(perm.begin(), perm.end()));
    });
  }
  if (e == 2)
    for (std::uint64_t h : R) out.push_back(LowNeed{rows, true, {h, L[0], L[1]}, 3});
  return out;
}

bool lls_same_set(std::vector<std::uint64_t> a, std::vector<std::uint64_t> b) {
  std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end());
  return a == b;
}

/// The low bits that serve both needs, or none where they disagree.
std::optional<std::vector<std::uint64_t>> lls_merge(const LowNeed& a, const LowNeed& b) {
  const bool a_long = a.vecs.size() > b.vecs.size() || (a.vecs.size() == b.vecs.size() && a.ordered);
  const LowNeed& lo = a_long ? a : b;
  const LowNeed& sh = a_long ? b : a;
  const std::size_t m = sh.vecs.size();
  if (lo.ordered) {
    const std::vector<std::uint64_t> prefix(lo.vecs.begin(), lo.vecs.begin() + static_cast<std::ptrdiff_t>(m));
    if (sh.ordered ? prefix != sh.vecs : !lls_same_set(prefix, sh.vecs)) return std::nullopt;
    return lo.vecs;
  }
  std::vector<std::uint64_t> out = sh.vecs;
  for (std::uint64_t v : sh.vecs)
    if (std::find(lo.vecs.begin(), lo.vecs.end(), v) == lo.vecs.end()) return std::nullopt;
  for (std::uint64_t v : lo.vecs)
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

/// Unit vectors, then XORs of two.
std::vector<std::uint64_t> lls_pool(unsigned n) {
  std::vector<std::uint64_t> out;
  for (unsigned i = 0; i < n; ++i) out.push_back(std::uint64_t{1} << i);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j) out.push_back((std::uint64_t{1} << i) | (std::uint64_t{1} << j));
  return out;
}

std::vector<std::uint64_t> lls_complete(const std::vector<std::uint64_t>& low, const LowNeed& a, const LowNeed& b,
                                        unsigned n, unsigned bank_bits) {
  const std::vector<std::uint64_t> pool = lls_pool(n);
  Gf2Span all;
  for (std::uint64_t v : low) all.add(v);
  std::vector<Gf2Span> phases;
  for (const LowNeed* s : {&a, &b}) {
    Gf2Span p;
    for (std::size_t i = 0; i < std::min<std::size_t>(s->phase_low, low.size()); ++i) p.add(low[i]);
    for (std::uint64_t v : s->phase) p.add(v);
    phases.push_back(p);
  }
  const std::size_t high_target = n - std::max<std::size_t>(bank_bits, low.size());
  std::vector<std::uint64_t> high;
  for (std::uint64_t h : pool) {
    if (high.size() == high_target) break;
    if (!all.independent(h)) continue;
    if (std::all_of(phases.begin(), phases.end(), [h](const Gf2Span& p) { return p.independent(h); })) {
      high.push_back(h), all.add(h);
      for (Gf2Span& p : phases) p.add(h);
    }
  }
  for (std::uint64_t h : pool)
    if (high.size() < high_target && all.add(h)) high.push_back(h);
  std::vector<std::uint64_t> out = low;
  std::vector<std::uint64_t> fill = a.phase;
  fill.insert(fill.end(), b.phase.begin(), b.phase.end());
  fill.insert(fill.end(), pool.begin(), pool.end());
  for (std::uint64_t g : fill)
    if (out.size() + high.size() < n && all.add(g)) out.push_back(g);
  out.insert(out.end(), high.begin(), high.end());
  return out;
}

}  // namespace

std::vector<LinearSharedLayout> synthesize_linear_layouts(std::uint64_t rows, std::uint64_t cols,
                                                          const layout::ElementType& element,
                                                          const layout::RegisterLayout& from,
                                                          const layout::RegisterLayout& to, const BankGeometry& geometry) {
  std::vector<LinearSharedLayout> out;
  if (!std::has_single_bit(rows) || !std::has_single_bit(cols)) return out;
  const unsigned cb = static_cast<unsigned>(std::countr_zero(cols)), n = cb + static_cast<unsigned>(std::countr_zero(rows));
  const std::uint64_t span = std::uint64_t{geometry.banks} * geometry.bank_bytes;
  const unsigned bank_bits = std::min<unsigned>(
      n, span > element.bytes ? static_cast<unsigned>(std::bit_width(span / element.bytes) - 1) : 0);
  std::set<std::vector<std::uint64_t>> seen;
  const std::vector<LowNeed> stores = lls_needs(from, element.bytes, cb), loads = lls_needs(to, element.bytes, cb);
  for (const LowNeed& s : stores)
    for (const LowNeed& l : loads) {
      const auto low = lls_merge(s, l);
      if (!low) continue;
      std::vector<std::uint64_t> basis = lls_complete(*low, s, l, n, bank_bits);
      if (basis.size() != n || !seen.insert(basis).second) continue;
      std::vector<layout::TileCoord> bases;
      for (std::uint64_t v : basis) bases.push_back(layout::TileCoord{v >> cb, v & (cols - 1)});
      out.push_back(linear_layout_of(rows, cols, bases));
    }
  return out;
}

}  // namespace bankcheck::proofs
