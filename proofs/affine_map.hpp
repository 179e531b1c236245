#pragma once
// Conflict degree of an affine access map in closed form: lane l of a warp of
// `lanes` lanes, in round j, reads element a*l + b*j + c of an array spread
// over `banks` banks, one element per cell (the DMM of SPAA 2025 Section 2).
//
// Lanes l, l' share a bank iff a(l - l') = 0 (mod banks) iff l = l' (mod
// P) with P = banks / GCD(a, banks); for a != 0 their addresses differ, so a
// round costs ceil(lanes / P) accesses, whatever b, c and j are. With
// lanes = banks = w that is GCD(a, w) (Lemma 1 and Figure 1 of SPAA 2025: a
// stride coprime with w is conflict-free). a = 0 is one address, multicast:
// degree 1.
#include <cstdint>
#include <stdexcept>

#include "proofs/number_theory.hpp"

namespace bankcheck::proofs {

struct AffineAccess {
  std::int64_t a = 1, b = 0, c = 0;  ///< address = a*lane + b*round + c (elements)
  std::uint64_t lanes = 32;
  std::uint64_t banks = 32;
};

struct AffineDegree {
  std::uint64_t degree = 1;       ///< accesses one round costs (largest number of distinct cells in a bank)
  std::uint64_t period = 1;       ///< P: lanes l and l + P share a bank
  std::uint64_t banks_hit = 1;    ///< distinct banks a round touches
};

/// @pre lanes >= 1, banks >= 1. @throws std::invalid_argument otherwise.
inline AffineDegree affine_degree(const AffineAccess& m) {
  if (m.lanes == 0 || m.banks == 0) throw std::invalid_argument("affine_degree: lanes and banks must be >= 1");
  if (m.a == 0) return {1, 1, 1};
  const std::uint64_t abs_a = m.a < 0 ? static_cast<std::uint64_t>(-(m.a + 1)) + 1 : static_cast<std::uint64_t>(m.a);
  const std::uint64_t period = m.banks / nt::gcd(abs_a % m.banks == 0 ? m.banks : abs_a % m.banks, m.banks);
  return {(m.lanes + period - 1) / period, period, m.lanes < period ? m.lanes : period};
}

/// The closed form over all w at once: lanes = banks = w gives GCD(a, w).
inline std::uint64_t affine_degree_square(std::int64_t a, std::uint64_t w) {
  return affine_degree({a, 0, 0, w, w}).degree;
}

}  // namespace bankcheck::proofs
