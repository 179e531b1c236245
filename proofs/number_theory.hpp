#pragma once
// Number theory for the claims checker (SPAA 2025 Appendix A): gcd, least
// non-negative residues and complete residue systems (Definition 13).
// Written directly from the definitions, independently of the algorithm
// code, so that the claims checker can test that code against them.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/power_of_two.hpp"

namespace bankcheck::nt {

/// GCD(a, b) with GCD(0, 0) = 0 (Definition 10 for a, b > 0).
constexpr std::uint64_t gcd(std::uint64_t a, std::uint64_t b) { return std::gcd(a, b); }

// Powers of two and floor(log2 x): model/power_of_two.hpp, named here too.
using bankcheck::is_power_of_two;
using bankcheck::log2_floor;

/// The least non-negative residue of a modulo m (Lemma 9), also for negative a.
/// @pre m >= 1.
constexpr std::int64_t mod(std::int64_t a, std::int64_t m) {
  const std::int64_t r = a % m;
  return r < 0 ? r + m : r;
}

/// The inverse of a modulo m, when GCD(a, m) = 1 (extended Euclid), checked
/// by one multiplication: a * inverse = 1 (mod m). It certifies that
/// x -> b + a x is a bijection of the residues mod m for every b (Lemma 16:
/// a x = a y (mod m) gives x = y after multiplying by the inverse), without
/// enumerating them. Empty when GCD(a, m) > 1. @pre m >= 1.
inline std::optional<std::uint64_t> inverse_mod(std::uint64_t a, std::uint64_t m) {
  if (m == 1) return 0;
  __int128 r0 = static_cast<__int128>(m), r1 = static_cast<__int128>(a % m), s0 = 0, s1 = 1;
  while (r1 != 0) {
    const __int128 q = r0 / r1;
    r0 -= q * r1;
    std::swap(r0, r1);
    s0 -= q * s1;
    std::swap(s0, s1);
  }
  if (r0 != 1) return std::nullopt;
  const __int128 mm = static_cast<__int128>(m);
  const auto inverse = static_cast<std::uint64_t>(((s0 % mm) + mm) % mm);
  if (static_cast<unsigned __int128>(a % m) * inverse % m != 1) return std::nullopt;  // the certificate itself
  return inverse;
}

/// How a finite set of integers falls into the residue classes modulo m.
struct ResidueProfile {
  std::uint64_t size = 0;           ///< values examined
  std::uint64_t classes_hit = 0;    ///< distinct residues among them
  std::uint64_t largest_class = 0;  ///< most values sharing one residue: the DMM conflict degree
  std::int64_t witness_a = 0;       ///< two distinct values of the largest class (equal if it has one)
  std::int64_t witness_b = 0;
};

/// Residue profile of `values` modulo m. Values are assumed distinct (as a
/// set's elements are); a repeated value counts twice.
/// @pre m >= 1.
inline ResidueProfile residue_profile(std::span<const std::int64_t> values, std::uint64_t m) {
  if (m == 0) throw std::invalid_argument("residue_profile: modulus must be >= 1");
  std::vector<std::uint32_t> count(m, 0);
  std::vector<std::int64_t> first(m, 0);
  ResidueProfile p;
  p.size = values.size();
  for (const std::int64_t v : values) {
    const auto r = static_cast<std::uint64_t>(mod(v, static_cast<std::int64_t>(m)));
    if (count[r] == 0) {
      ++p.classes_hit;
      first[r] = v;
    }
    if (++count[r] > p.largest_class) {
      p.largest_class = count[r];
      p.witness_a = first[r];
      p.witness_b = v;
    }
  }
  return p;
}

/// "a and b are congruent mod m (k elements share residue r)": the witnesses
/// of a profile's largest class, for counterexamples.
inline std::string collision_text(const ResidueProfile& p, std::uint64_t m) {
  return std::to_string(p.witness_a) + " and " + std::to_string(p.witness_b) + " are congruent mod " +
         std::to_string(m) + " (" + std::to_string(p.largest_class) + " elements share residue " +
         std::to_string(mod(p.witness_a, static_cast<std::int64_t>(m))) + ")";
}

/// Definition 13: m values, pairwise incongruent modulo m (then every integer
/// is congruent to one of them).
inline bool is_complete_residue_system(std::span<const std::int64_t> values, std::uint64_t m) {
  if (values.size() != m) return false;
  const ResidueProfile p = residue_profile(values, m);
  return p.classes_hit == m;
}

/// A reusable set of residues modulo m for hot loops: reset() is O(1)
/// amortized (epoch stamps), insert() says whether the residue is new.
class ResidueSet {
 public:
  /// @pre m >= 1.
  void reset(std::uint64_t m) {
    m_ = m;
    if (stamp_.size() < m) stamp_.assign(m, 0), epoch_ = 0;
    if (++epoch_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), epoch_ = 1;
    size_ = 0;
  }
  bool insert(std::int64_t v) { return insert_residue(static_cast<std::uint64_t>(mod(v, static_cast<std::int64_t>(m_)))); }
  /// @pre r < m (a residue already reduced: hot loops step residues without dividing).
  bool insert_residue(std::uint64_t r) {
    std::uint32_t& s = stamp_[static_cast<std::size_t>(r)];
    if (s == epoch_) return false;
    s = epoch_;
    ++size_;
    return true;
  }
  std::uint64_t size() const { return size_; }

 private:
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 0;
  std::uint64_t m_ = 1, size_ = 0;
};

/// Residues of start, start + step, start + 2 step, ... modulo m without a
/// division per term.
class ResidueStepper {
 public:
  /// @pre m >= 1.
  ResidueStepper(std::uint64_t start, std::uint64_t step, std::uint64_t m) : r_(start % m), step_(step % m), m_(m) {}
  std::uint64_t value() const { return r_; }
  void next() {
    r_ += step_;
    if (r_ >= m_) r_ -= m_;
  }

 private:
  std::uint64_t r_, step_, m_;
};

}  // namespace bankcheck::nt
