// Tests of capture/host/sass/known_bits.hpp against brute force: for inputs with
// a few unknown bits, every concrete value they allow is run through the
// plain operation, and every bit the abstraction calls known must be that
// value in every result (sound); the bits every result agrees on are the
// most it could know, and the cases the descriptors need must reach it.
#include "capture/host/sass/known_bits.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <vector>

using namespace bankcheck::capture;

namespace {

/// Every value `a` allows (its unknown bits, at most a few, enumerated).
std::vector<std::uint32_t> values(KnownBits a) {
  std::vector<unsigned> free;
  for (unsigned i = 0; i < 32; ++i)
    if (!((a.mask >> i) & 1)) free.push_back(i);
  REQUIRE(free.size() <= 8);
  std::vector<std::uint32_t> out;
  for (std::uint32_t pick = 0; pick < (1u << free.size()); ++pick) {
    std::uint32_t v = a.value;
    for (std::size_t j = 0; j < free.size(); ++j) v |= ((pick >> j) & 1u) << free[j];
    out.push_back(v);
  }
  return out;
}

/// The bits every one of `results` agrees on.
KnownBits agreed(const std::vector<std::uint32_t>& results) {
  KnownBits k = KnownBits::constant(results.at(0));
  for (const std::uint32_t r : results) k = meet(k, KnownBits::constant(r));
  return k;
}

/// Sound: no bit called known that some result contradicts.
void check_sound(KnownBits got, const std::vector<std::uint32_t>& results) {
  for (const std::uint32_t r : results) CHECK((r & got.mask) == got.value);
}

KnownBits random_bits(std::mt19937& rng, unsigned unknown) {
  KnownBits k = KnownBits::constant(static_cast<std::uint32_t>(rng()));
  for (unsigned j = 0; j < unknown; ++j) k.mask &= ~(1u << (rng() % 32));
  k.value &= k.mask;
  return k;
}

}  // namespace

TEST_CASE("meet keeps the bits both know alike") {
  CHECK(meet(KnownBits::constant(0x40000040), KnownBits::constant(0x40000040)) == KnownBits::constant(0x40000040));
  CHECK(meet(KnownBits::constant(0x1), KnownBits::constant(0x3)) == KnownBits{~0x2u, 0x1});
  CHECK(meet(KnownBits{}, KnownBits::constant(7)) == KnownBits{});
  CHECK(KnownBits{0xC0003FFF, 0x40000040}.knows(30, 2));
  CHECK(KnownBits{0xC0003FFF, 0x40000040}.field(30, 2) == 1u);
  CHECK_FALSE(KnownBits{0xC0003FFF, 0x40000040}.knows(17, 3));
}

TEST_CASE("every operation is sound against brute force, on 3,000 random partly known inputs") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 3000; ++round) {
    const KnownBits a = random_bits(rng, 3 + rng() % 3), b = random_bits(rng, rng() % 4), c = random_bits(rng, rng() % 3);
    const unsigned n = rng() % 32, width = 1 + rng() % 32;
    const auto lut = static_cast<std::uint8_t>(rng());
    std::vector<std::uint32_t> sums, negs, luts, lefts, rights, lows;
    for (const std::uint32_t x : values(a)) {
      negs.push_back(0u - x);
      lefts.push_back(x << n);
      rights.push_back(x >> n);
      lows.push_back(width == 32 ? x : x & ((1u << width) - 1));
      for (const std::uint32_t y : values(b)) {
        sums.push_back(x + y);
        for (const std::uint32_t z : values(c)) {
          std::uint32_t r = 0;
          for (unsigned i = 0; i < 32; ++i) r |= ((lut >> (((x >> i) & 1) << 2 | ((y >> i) & 1) << 1 | ((z >> i) & 1))) & 1u) << i;
          luts.push_back(r);
        }
      }
    }
    check_sound(add(a, b).first, sums);
    check_sound(negate(a), negs);
    check_sound(lop3(a, b, c, lut), luts);
    // the bitwise and shifting operations know exactly what brute force agrees on
    CHECK(lop3(a, b, c, lut) == agreed(luts));
    CHECK(shift_left(a, n) == agreed(lefts));
    CHECK(shift_right(a, n) == agreed(rights));
    CHECK(low_bits(a, width) == agreed(lows));
  }
}

TEST_CASE("64-bit additions are sound, and know the high half when the low half cannot carry") {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    const KnownBits64 a{random_bits(rng, 3), random_bits(rng, 2)}, b{random_bits(rng, 2), random_bits(rng, 1)};
    std::vector<std::uint32_t> lows, highs, neg_lows, neg_highs;
    for (const std::uint32_t al : values(a.low))
      for (const std::uint32_t ah : values(a.high)) {
        const std::uint64_t x = std::uint64_t{ah} << 32 | al;
        neg_lows.push_back(static_cast<std::uint32_t>(0 - x));
        neg_highs.push_back(static_cast<std::uint32_t>((0 - x) >> 32));
        for (const std::uint32_t bl : values(b.low))
          for (const std::uint32_t bh : values(b.high)) {
            const std::uint64_t s = x + (std::uint64_t{bh} << 32 | bl);
            lows.push_back(static_cast<std::uint32_t>(s));
            highs.push_back(static_cast<std::uint32_t>(s >> 32));
          }
      }
    const KnownBits64 s = add64(a, b), ng = negate64(a);
    check_sound(s.low, lows);
    check_sound(s.high, highs);
    check_sound(ng.low, neg_lows);
    check_sound(ng.high, neg_highs);
  }
  // Triton's second wgmma: descriptor (address >> 4 : 0) minus 0x7fffffdf_fffffffe; the address
  // bits are unknown, its top 4 are zeros: no carry leaves the low half, the high half is 0x80000020.
  const KnownBits64 address{shift_right(KnownBits{}, 4), KnownBits::constant(0)};
  const KnownBits64 sum = add64(address, negate64({KnownBits::constant(0xfffffffe), KnownBits::constant(0x7fffffdf)}));
  CHECK(sum.high == KnownBits::constant(0x80000020));
}
