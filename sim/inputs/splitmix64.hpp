#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): a 64-bit counter stepped by the golden-ratio
// gamma and passed through a mixing function, used three ways:
//   * a fast stream where a random input is on the hot path (`run pbs`'s
//     queries: std::mt19937_64 with std::uniform_int_distribution costs a tenth
//     of its time), with below(n) mapping an output to [0, n) by Lemire's
//     multiply-shift (one multiplication; bias below n / 2^64);
//   * hash(x): a well-mixed 64-bit function of x (the verifier's per-point
//     seeds, so a counterexample reproduces from its point alone);
//   * mix(z): the mixing function alone (the round function of the keyed
//     permutation in sim/inputs/random_permutation.hpp, which the GPU
//     benchmarks evaluate on the device too: hence BANKCHECK_HD).
// Outputs are fixed by this code on every platform and compiler.
#include <cstdint>
#include <limits>

#include "model/hd.hpp"

namespace bankcheck::inputs {

class SplitMix64 {
 public:
  using result_type = std::uint64_t;
  static constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;  ///< 2^64 / golden ratio, odd

  BANKCHECK_HD constexpr explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  /// The mixing function (Stafford's variant 13 of MurmurHash3's finalizer): a bijection of 64-bit words.
  static BANKCHECK_HD constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// The first output of a generator seeded with x.
  static BANKCHECK_HD constexpr std::uint64_t hash(std::uint64_t x) { return mix(x + kGamma); }

  /// The next output.
  BANKCHECK_HD constexpr std::uint64_t operator()() { return mix(state_ += kGamma); }
  /// The next output mapped to [0, n) by multiply-shift. @pre n >= 1.
  BANKCHECK_HD constexpr std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>((*this)()) * n) >> 64);
  }

  static constexpr std::uint64_t min() { return 0; }
  static constexpr std::uint64_t max() { return std::numeric_limits<std::uint64_t>::max(); }

 private:
  std::uint64_t state_;
};

}  // namespace bankcheck::inputs
