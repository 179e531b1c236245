#pragma once
// SPAA 2025 Theorem 8, the expected value of the tests that check the
// worst-case merge inputs: written here once, from the paper, and apart from
// model/analytic (whose merge_worst_closed_form is one of the things those
// tests check), so that a wrong edit there cannot also change the truth.
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace bankcheck::test {

/// The bank conflicts of one warp's serial merge on Section 4's input, summed
/// over its d = GCD(w, E) subproblems: Section 4's closing formula, with
/// w = qE + r (0 <= r < E),
///   E^2                                 if 1 < E <= w/2
///   (E^2 + 2Er + Ed - r^2 - rd) / 2     otherwise.
/// The same expression for E = 1 and E > w, where the claims explore past
/// the theorem's domain. w and E up to 2^30 keep every term below 2^62.
inline std::uint64_t theorem8_per_warp(std::uint64_t w, std::uint64_t E) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 30;
  if (w < 1 || E < 1 || w > kLimit || E > kLimit)
    throw std::domain_error("theorem8_per_warp: w and E must lie in [1, 2^30]");
  if (2 * E <= w) return E * E;
  const std::uint64_t r = w % E, d = std::gcd(w, E);
  return (E * E + 2 * E * r + E * d - r * r - r * d) / 2;
}

}  // namespace bankcheck::test
