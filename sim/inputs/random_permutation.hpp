#pragma once
// RandomPermutation: a keyed pseudorandom permutation of [0, n), evaluated
// at any index without a table: a 4-round Feistel network on the smallest
// even number of bits covering n, cycle-walked into [0, n) (Black and
// Rogaway, "Ciphers with arbitrary finite domains", CT-RSA 2002). The round
// function is SplitMix64's mixer. Inputs of billions of keys are generated
// this way in parallel, each key independently (kernel.merge_sort's random
// input: the keys 0..n-1 permuted, so sortedness is out[k] == k; kernel.cf_sort_bench
// and cf_sort_table evaluate it on the GPU, one thread per key).
#include <cstdint>

#include "model/hd.hpp"
#include "sim/inputs/splitmix64.hpp"

namespace bankcheck::inputs {

class RandomPermutation {
 public:
  /// @pre n >= 1.
  BANKCHECK_HD RandomPermutation(std::uint64_t n, std::uint64_t key) : n_(n), key_(key) {
    unsigned bits = 2;
    while (bits < 64 && (std::uint64_t{1} << bits) < n) ++bits;
    half_ = (bits + 1) / 2;
    mask_ = (std::uint64_t{1} << half_) - 1;
  }
  /// The image of i. @pre i < n.
  BANKCHECK_HD std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = i;
    do x = encrypt(x);
    while (x >= n_);  // walks i's cycle of the 2^(2 half) permutation until it is back in [0, n)
    return x;
  }
  BANKCHECK_HD std::uint64_t size() const { return n_; }

 private:
  BANKCHECK_HD std::uint64_t encrypt(std::uint64_t x) const {
    std::uint64_t l = x >> half_, r = x & mask_;
    for (std::uint64_t round = 0; round < 4; ++round) {
      const std::uint64_t f = SplitMix64::mix(r ^ (key_ + SplitMix64::kGamma * (round + 1))) & mask_;
      const std::uint64_t t = l ^ f;
      l = r;
      r = t;
    }
    return (l << half_) | r;
  }
  std::uint64_t n_, key_;
  unsigned half_;
  std::uint64_t mask_;
};

}  // namespace bankcheck::inputs
