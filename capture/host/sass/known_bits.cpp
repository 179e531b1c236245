#include "capture/host/sass/known_bits.hpp"

namespace bankcheck::capture {

namespace {

std::uint32_t ones(unsigned count) { return count >= 32 ? ~0u : (1u << count) - 1; }

/// Bit i of `a`: 0, 1, or -1 for unknown.
int bit(KnownBits a, unsigned i) {
  if (!((a.mask >> i) & 1)) return -1;
  return static_cast<int>((a.value >> i) & 1);
}

}  // namespace

bool KnownBits::knows(unsigned from, unsigned count) const {
  const std::uint32_t m = ones(count) << from;
  return (mask & m) == m;
}

std::uint32_t KnownBits::field(unsigned from, unsigned count) const { return (value >> from) & ones(count); }

KnownBits meet(KnownBits a, KnownBits b) {
  const std::uint32_t mask = a.mask & b.mask & ~(a.value ^ b.value);
  return {mask, a.value & mask};
}

std::pair<KnownBits, KnownCarry> add(KnownBits a, KnownBits b, KnownCarry carry) {
  KnownBits sum;
  for (unsigned i = 0; i < 32; ++i) {
    // every combination the unknown inputs allow: the sum bit and the carry out are known when all agree
    int sum_bit = -2, carry_out = -2;
    const int x = bit(a, i), y = bit(b, i), z = carry.known ? static_cast<int>(carry.value) : -1;
    for (int xv = 0; xv < 2; ++xv)
      for (int yv = 0; yv < 2; ++yv)
        for (int zv = 0; zv < 2; ++zv) {
          if ((x >= 0 && xv != x) || (y >= 0 && yv != y) || (z >= 0 && zv != z)) continue;
          const int s = (xv + yv + zv) & 1, c = (xv + yv + zv) >> 1;
          sum_bit = sum_bit == -2 ? s : sum_bit == s ? s : -1;
          carry_out = carry_out == -2 ? c : carry_out == c ? c : -1;
        }
    if (sum_bit >= 0) {
      sum.mask |= 1u << i;
      sum.value |= static_cast<std::uint32_t>(sum_bit) << i;
    }
    carry = carry_out >= 0 ? KnownCarry{true, carry_out == 1} : KnownCarry{false, false};
  }
  return {sum, carry};
}

KnownBits negate(KnownBits a) {
  const KnownBits inverted{a.mask, ~a.value & a.mask};
  return add(inverted, KnownBits::constant(1)).first;
}

KnownBits lop3(KnownBits a, KnownBits b, KnownBits c, std::uint8_t lut) {
  KnownBits out;
  for (unsigned i = 0; i < 32; ++i) {
    int result = -2;
    const int x = bit(a, i), y = bit(b, i), z = bit(c, i);
    for (int xv = 0; xv < 2; ++xv)
      for (int yv = 0; yv < 2; ++yv)
        for (int zv = 0; zv < 2; ++zv) {
          if ((x >= 0 && xv != x) || (y >= 0 && yv != y) || (z >= 0 && zv != z)) continue;
          const int r = (lut >> (xv << 2 | yv << 1 | zv)) & 1;
          result = result == -2 ? r : result == r ? r : -1;
        }
    if (result >= 0) {
      out.mask |= 1u << i;
      out.value |= static_cast<std::uint32_t>(result) << i;
    }
  }
  return out;
}

KnownBits shift_left(KnownBits a, unsigned n) {
  n &= 31;
  return {a.mask << n | ones(n), a.value << n};
}

KnownBits shift_right(KnownBits a, unsigned n) {
  n &= 31;
  return {a.mask >> n | ~(~0u >> n), a.value >> n};
}

KnownBits low_bits(KnownBits a, unsigned n) {
  const std::uint32_t keep = ones(n);
  return {(a.mask & keep) | ~keep, a.value & keep};
}

KnownBits64 add64(KnownBits64 a, KnownBits64 b) {
  const auto [low, carry] = add(a.low, b.low);
  return {low, add(a.high, b.high, carry).first};
}

KnownBits64 negate64(KnownBits64 a) {
  const KnownBits64 inverted{{a.low.mask, ~a.low.value & a.low.mask}, {a.high.mask, ~a.high.value & a.high.mask}};
  return add64(inverted, {KnownBits::constant(1), KnownBits::constant(0)});
}

}  // namespace bankcheck::capture
