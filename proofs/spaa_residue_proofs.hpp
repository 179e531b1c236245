#pragma once
// SPAA 2025 Section 3's residue claims proved at one point (w, E) without
// enumerating their elements: the paper's arguments, each resting on facts
// checked here by arithmetic (d = GCD(w, E) divides w and E; E/d has an
// inverse modulo w/d, nt::inverse_mod, checked by one multiplication). The
// claims' brute-force checks (proofs/claims/spaa_section3_claims.cpp) stay
// the oracle; these are their fast paths, and a point whose facts do not
// hold goes to the oracle, which finds the counterexample.
//
// With w' = w/d and E' = E/d, GCD(w', E') = 1 (Lemma 18), and:
//  (a) j + kE = j + k'E (mod w) iff w' divides k - k': w divides (k - k')E
//      iff w' divides (k - k')E' (divide by d), iff w' divides k - k'
//      (multiply by the inverse of E' mod w').
//  (b) every element j + kE is congruent to j mod d (d divides E and w).
#include <cstdint>

#include "proofs/number_theory.hpp"

namespace bankcheck::spaa {

/// The facts (a) and (b) rest on, at (w, E).
struct ResidueFacts {
  std::uint64_t d = 0;
  bool divides = false;  ///< d divides w and E
  bool inverse = false;  ///< E/d has an inverse mod w/d, checked
  bool hold() const { return divides && inverse; }
};

inline ResidueFacts residue_facts(std::uint64_t w, std::uint64_t E) {
  ResidueFacts f;
  f.d = nt::gcd(w, E);
  f.divides = f.d != 0 && w % f.d == 0 && E % f.d == 0;
  f.inverse = f.divides && nt::inverse_mod(E / f.d, w / f.d).has_value();
  return f;
}

/// Lemma 1 (d = 1) and its converse (d > 1): by (a), the residue of j + kE
/// depends only on k mod w', one residue per class, so k in [0, w) (d
/// classes' worth) hits w' residues d times each.
inline bool proves_row_profile(std::uint64_t w, std::uint64_t E) { return residue_facts(w, E).hold(); }

/// Lemma 2 (1): by (b), j + (l w' + k)E is congruent to j mod d, and D_{j
/// mod d} holds every residue mod w that is.
inline bool proves_part_classes(std::uint64_t w, std::uint64_t E) { return residue_facts(w, E).divides; }

/// Lemma 2 (2): R_j^(l) takes w' consecutive k, pairwise incongruent by (a).
/// Corollary 3: R_{j+l}^(l) lies in the class (j + l) mod d by (b), distinct
/// for the d parts, and each part has w' distinct residues: w in all.
inline bool proves_parts_distinct(std::uint64_t w, std::uint64_t E) { return residue_facts(w, E).hold(); }

/// The round formula: R'_j's part l is (j + l mod E) + (l w' + i)E for i in
/// [0, w'), which lies in [l wE/d, (l + 1) wE/d) (d divides wE, the block
/// length is w'E) and is congruent to j + l mod E; so every k in [0, wE) has
/// exactly one (l, i, j) (division by w'E, then by E): l = floor(kd/(wE)),
/// j = k - l mod E.
inline bool proves_round_formula(std::uint64_t w, std::uint64_t E) { return residue_facts(w, E).divides; }

/// The circular shift: rho rotates each block of wE/d = w'E positions, so it
/// is a permutation; rho(k) in block l is congruent mod E to k + l (E
/// divides w'E), so by the round formula it is read in round k mod E; and a
/// round reads R'_j, complete by Corollary 3. The thread-block extension
/// (Section 3.3) adds: rho(k + wE) = rho(k) + wE (block l + d turns by
/// l + d = l mod d), and w divides wE, so every window of wE consecutive
/// positions reads the banks of [0, wE).
inline bool proves_shift(std::uint64_t w, std::uint64_t E) { return residue_facts(w, E).hold(); }

}  // namespace bankcheck::spaa
