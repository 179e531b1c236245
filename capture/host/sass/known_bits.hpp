#pragma once
// What is known of a 32-bit register's bits: each bit known 0, known 1 or
// unknown (the "known bits" abstraction of compilers' value analyses), and
// the operations SassConstants evaluates on it. Every result is exact for
// the bits it calls known: a bit is known only if it is the same for every
// value the inputs can hold (checked by enumeration in the tests).
//
// Why bits and not whole constants: a wgmma descriptor's high half is often
// a constant OR'd with a field the code computes from the tile's address
// (cuDNN: `((address >> 7) & 7) << 17 | 0x40000040`, the base offset), and
// Triton adds a constant to a 64-bit descriptor whose low half holds the
// address; the swizzle mode and stride are known bits either way.
#include <cstdint>
#include <utility>

namespace bankcheck::capture {

struct KnownBits {
  std::uint32_t mask = 0;   ///< which bits are known
  std::uint32_t value = 0;  ///< their values (0 outside `mask`)
  static KnownBits constant(std::uint32_t v) { return {~0u, v}; }
  bool is_constant() const { return mask == ~0u; }
  /// Whether bits [from, from + count) are all known.
  bool knows(unsigned from, unsigned count) const;
  /// Bits [from, from + count) as a number (meaningful where knows()).
  std::uint32_t field(unsigned from, unsigned count) const;
  bool operator==(const KnownBits&) const = default;
};

/// The bits known, and equal, in both: what holds on either of two paths.
KnownBits meet(KnownBits a, KnownBits b);

/// A carry bit: known or not.
struct KnownCarry {
  bool known = true;
  bool value = false;
};

/// a + b + carry, and the carry out of bit 31.
std::pair<KnownBits, KnownCarry> add(KnownBits a, KnownBits b, KnownCarry carry = {});
/// -a (two's complement) over 32 bits.
KnownBits negate(KnownBits a);
/// The three-input bitwise function of LOP3.LUT: bit i of the result is bit
/// (a_i << 2 | b_i << 1 | c_i) of `lut`.
KnownBits lop3(KnownBits a, KnownBits b, KnownBits c, std::uint8_t lut);
/// Logical shifts by 0..31; the bits shifted in are known zeros.
KnownBits shift_left(KnownBits a, unsigned n);
KnownBits shift_right(KnownBits a, unsigned n);
/// The low `n` bits (1..32) of `a`, the rest known zeros.
KnownBits low_bits(KnownBits a, unsigned n);

/// A 64-bit value as two halves (a register pair, low register first).
struct KnownBits64 {
  KnownBits low, high;
};
KnownBits64 add64(KnownBits64 a, KnownBits64 b);
KnownBits64 negate64(KnownBits64 a);

}  // namespace bankcheck::capture
