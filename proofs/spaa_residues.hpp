#pragma once
// The sets of SPAA 2025 Section 3, written from their definitions:
//   R_j        = { j + kE : 0 <= k < w }                      (Lemma 1)
//   R_j^(l)    = { j + (l w/d + k) E : 0 <= k < w/d }          (Section 3.2)
//   D_l        = { l + k d : 0 <= k < w/d }
//   R'_j       = R_j^(0) + R_{j+1 mod E}^(1) + ... + R_{j+d-1 mod E}^(d-1)   (Corollary 3)
// and the circular shift rho that rotates partition l (wE/d elements) by l
// positions (Section 3.2). These are the paper's objects, independent of
// the algorithm code in sim/.
#include <cstdint>
#include <vector>

#include "proofs/number_theory.hpp"

namespace bankcheck::spaa {

/// R_j (Lemma 1).
inline std::vector<std::int64_t> residue_row(std::int64_t j, std::uint64_t w, std::uint64_t E) {
  std::vector<std::int64_t> r(w);
  for (std::uint64_t k = 0; k < w; ++k) r[k] = j + static_cast<std::int64_t>(k * E);
  return r;
}

/// R_j^(l), l in [0, d).
inline std::vector<std::int64_t> residue_part(std::int64_t j, std::uint64_t l, std::uint64_t w, std::uint64_t E) {
  const std::uint64_t d = nt::gcd(w, E), n = w / d;
  std::vector<std::int64_t> r;
  r.reserve(n);
  for (std::uint64_t k = 0; k < n; ++k) r.push_back(j + static_cast<std::int64_t>((l * n + k) * E));
  return r;
}

/// D_l, l in [0, d).
inline std::vector<std::int64_t> class_set(std::uint64_t l, std::uint64_t w, std::uint64_t d) {
  std::vector<std::int64_t> r(w / d);
  for (std::uint64_t k = 0; k < w / d; ++k) r[k] = static_cast<std::int64_t>(l + k * d);
  return r;
}

/// R'_j (Corollary 3), j in [0, E).
inline std::vector<std::int64_t> shifted_row(std::uint64_t j, std::uint64_t w, std::uint64_t E) {
  const std::uint64_t d = nt::gcd(w, E);
  std::vector<std::int64_t> r;
  r.reserve(w);
  for (std::uint64_t l = 0; l < d; ++l) {
    const auto part = residue_part(static_cast<std::int64_t>((j + l) % E), l, w, E);
    r.insert(r.end(), part.begin(), part.end());
  }
  return r;
}

/// rho: logical position k in [0, n) (n a multiple of wE/d) -> physical
/// position: partition l = k / (wE/d) is rotated right by l mod d.
struct CircularShift {
  std::uint64_t d = 1, part = 1;  ///< GCD(w, E) and the partition length wE/d
  CircularShift(std::uint64_t w, std::uint64_t E) : d(nt::gcd(w, E)), part(w * E / d) {}
  std::uint64_t operator()(std::uint64_t k) const {
    const std::uint64_t l = k / part, x = k % part;
    return l * part + (x + l % d) % part;
  }
};
inline std::uint64_t circular_shift(std::uint64_t k, std::uint64_t w, std::uint64_t E) { return CircularShift(w, E)(k); }

}  // namespace bankcheck::spaa
