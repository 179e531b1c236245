#pragma once
// Conflict degree of XOR swizzles by GF(2) linear algebra (Eigen).
//
// A swizzle whose element address is an affine map over GF(2) of the lane's
// bits, addr = A l + c (A: address_bits x lane_bits), with 2^bank_bits banks
// and one element per cell: lanes l, l' share a bank iff P A (l ^ l') = 0
// (P keeps the low bank_bits rows) and share an address iff A (l ^ l') = 0.
// Every bank class is a coset of ker(P A), which holds |ker(PA)| / |ker(A)|
// distinct addresses, so one round costs 2^(rank(A) - rank(P A)) accesses,
// for every lane (all 2^lane_bits lanes active) and every constant c.
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace bankcheck::proofs {

using Gf2Matrix = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic>;
using Gf2Vector = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, 1>;

/// Rank over GF(2) (Gaussian elimination on a copy).
inline unsigned gf2_rank(Gf2Matrix m) {
  unsigned rank = 0;
  for (Eigen::Index col = 0; col < m.cols() && rank < m.rows(); ++col) {
    Eigen::Index pivot = rank;
    while (pivot < m.rows() && (m(pivot, col) & 1) == 0) ++pivot;
    if (pivot == m.rows()) continue;
    m.row(pivot).swap(m.row(rank));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      if (r != static_cast<Eigen::Index>(rank) && (m(r, col) & 1))
        for (Eigen::Index k = 0; k < m.cols(); ++k) m(r, k) ^= m(rank, k);
    ++rank;
  }
  return rank;
}

/// addr(l) = A l + c over GF(2).
struct Gf2Affine {
  Gf2Matrix A;
  Gf2Vector c;
};

/// The GF(2)-affine map of `address` on lanes 0 .. 2^lane_bits - 1, read off
/// from the basis lanes and then verified on every lane.
/// @throws std::invalid_argument if `address` is not GF(2)-affine.
inline Gf2Affine fit_gf2_affine(const std::function<std::uint64_t(std::uint64_t)>& address, unsigned lane_bits,
                                unsigned address_bits) {
  if (lane_bits > 20 || address_bits > 63) throw std::invalid_argument("fit_gf2_affine: at most 20 lane bits, 63 address bits");
  Gf2Affine m{Gf2Matrix::Zero(address_bits, lane_bits), Gf2Vector::Zero(address_bits)};
  const std::uint64_t c = address(0);
  for (unsigned r = 0; r < address_bits; ++r) m.c(r) = (c >> r) & 1;
  for (unsigned k = 0; k < lane_bits; ++k) {
    const std::uint64_t col = address(std::uint64_t{1} << k) ^ c;
    for (unsigned r = 0; r < address_bits; ++r) m.A(r, k) = (col >> r) & 1;
  }
  for (std::uint64_t l = 0; l < (std::uint64_t{1} << lane_bits); ++l) {
    std::uint64_t predicted = c;
    for (unsigned k = 0; k < lane_bits; ++k)
      if ((l >> k) & 1) predicted ^= address(std::uint64_t{1} << k) ^ c;
    if (predicted != address(l))
      throw std::invalid_argument("address map is not affine over GF(2): lane " + std::to_string(l));
  }
  return m;
}

struct XorDegree {
  std::uint64_t degree = 1;    ///< accesses per round
  unsigned address_rank = 0;   ///< rank(A)
  unsigned bank_rank = 0;      ///< rank(P A)
};

/// @pre bank_bits <= A.rows().
inline XorDegree xor_degree(const Gf2Affine& map, unsigned bank_bits) {
  if (bank_bits > map.A.rows()) throw std::invalid_argument("xor_degree: more bank bits than address bits");
  XorDegree d;
  d.address_rank = gf2_rank(map.A);
  d.bank_rank = gf2_rank(map.A.topRows(bank_bits));
  d.degree = std::uint64_t{1} << (d.address_rank - d.bank_rank);
  return d;
}

}  // namespace bankcheck::proofs
