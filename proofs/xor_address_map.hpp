#pragma once
// An XOR-linear map of a tile's byte offsets (a GF(2) matrix, as Triton's
// linear layouts): each term XORs the parity of some source bits into one
// target bit, the sources all above every target. Such a map is its own
// inverse (the sources never change, so applying it twice cancels) and a
// bijection of every aligned block of 2^(top source + 1) bytes; bits below
// the lowest target never move, so a vector of that many bytes stays
// contiguous and aligned. CuTe's Swizzle<B,M,S> with S > 0 is the special
// case of B terms with one source each, target M + k from source M + S + k.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/layout/swizzle.hpp"

namespace bankcheck::proofs {

struct XorTerm {
  unsigned target = 0;        ///< the bit that changes
  std::uint64_t sources = 0;  ///< the bits whose parity it takes; all above every target
  bool operator==(const XorTerm&) const = default;
};

struct XorAddressMap {
  std::vector<XorTerm> terms;  ///< at most one per target, in target order; none: the identity

  std::uint64_t apply(std::uint64_t offset) const;
  bool is_identity() const { return terms.empty(); }
  /// The lowest target bit (64 for the identity): 2^that bytes move together.
  unsigned lowest_target() const;
  /// The source bits of all terms together.
  std::uint64_t source_mask() const;
  /// The CuTe swizzle on byte offsets that is the same map, when there is one.
  std::optional<layout::Swizzle> as_swizzle() const;
  /// A C++ expression of the mapped offset, for an unsigned offset named `var`:
  /// "b ^ ((b >> 3) & 0x70)" for a swizzle, else one parity term per target.
  std::string cpp(const std::string& var) const;
  /// "bit 4 ^= bits 7,9; bit 5 ^= bit 8".
  std::string text() const;
  bool operator==(const XorAddressMap&) const = default;
};

/// The map of a CuTe swizzle with S > 0 (its YYY bits XOR into ZZZ).
XorAddressMap xor_map_of(const layout::Swizzle& swizzle);

}  // namespace bankcheck::proofs
