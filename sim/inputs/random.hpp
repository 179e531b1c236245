#pragma once
// Random: the seeded stream every random input of bankcheck is drawn from
// (the registry's `--input random`, the kernels' inputs, the adversaries'
// searches). It is std::mt19937_64, whose sequence the C++ standard fixes,
// with its own mapping to a range: std::uniform_int_distribution's mapping
// is left to each standard library, so inputs drawn through it could differ
// between compilers and a committed input hash (validate/harness) would not
// reproduce. below(n) is exact (rejection of the top partial range).
//
// It satisfies UniformRandomBitGenerator, so std::shuffle and the standard
// distributions accept it and give what they give with the engine itself.
// For a stream on a hot path, or a hash of a value, see
// sim/inputs/splitmix64.hpp.
#include <cstdint>
#include <random>

namespace bankcheck::inputs {

class Random {
 public:
  using result_type = std::uint64_t;

  explicit Random(std::uint64_t seed) : engine_(seed) {}

  /// The engine's next output.
  std::uint64_t operator()() { return engine_(); }
  std::uint64_t next() { return engine_(); }
  /// Uniform in [0, n), exactly. @pre n >= 1.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = max() - max() % n;  // largest multiple of n <= 2^64 - 1
    std::uint64_t x;
    do x = engine_();
    while (x >= limit);
    return x % n;
  }

  static constexpr std::uint64_t min() { return std::mt19937_64::min(); }
  static constexpr std::uint64_t max() { return std::mt19937_64::max(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace bankcheck::inputs
