#pragma once
// kernel.cf_sort_bench's inputs: a random permutation made on the GPU, and
// the whole-sort adversary for a tiling.
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"

namespace {

__host__ __device__ inline std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finalizer
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A keyed 4-round Feistel permutation of [0, 2^(2h)), cycle-walked into [0, n):
/// a random permutation computed in parallel on the GPU.
struct Feistel {
  std::uint64_t n, seed, mask;
  unsigned half;
  Feistel(std::uint64_t n_, std::uint64_t seed_) : n(n_), seed(seed_) {
    unsigned bits = 2;
    while ((std::uint64_t{1} << bits) < n) ++bits;
    half = (bits + 1) / 2;
    mask = (std::uint64_t{1} << half) - 1;
  }
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = i;
    do {
      std::uint64_t l = x >> half, r = x & mask;
      for (std::uint64_t round = 0; round < 4; ++round) {
        const std::uint64_t f = mix64(r ^ (seed + 0x9e3779b97f4a7c15ull * (round + 1))) & mask;
        const std::uint64_t t = l ^ f;
        l = r;
        r = t;
      }
      x = (l << half) | r;
    } while (x >= n);
    return x;
  }
};

template <class Key>
__global__ void fill_permutation(Key* out, std::uint64_t n, Feistel f) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<Key>(f(i));
}
template <class T>
__global__ void fill_iota(T* out, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<T>(i);
}

/// Structured inputs (validate/cf_merge/sort_table.cu): random (the Feistel
/// permutation), sorted, reversed, 16 distinct keys in random order, and organ
/// pipe (0, 1, ..., n/2, ..., 1, 0).
enum class Pattern { random, sorted, reversed, distinct16, organ_pipe };
inline const char* pattern_name(Pattern p) {
  constexpr const char* names[] = {"random", "sorted", "reversed", "16 distinct", "organ pipe"};
  return names[static_cast<int>(p)];
}
template <class Key>
__global__ void fill_pattern(Key* out, std::uint64_t n, Pattern p, Feistel f) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t mirror = n - 1 - i;
    const std::uint64_t k = p == Pattern::random     ? f(i)
                            : p == Pattern::sorted   ? i
                            : p == Pattern::reversed ? mirror
                            : p == Pattern::distinct16 ? f(i) % 16
                                                       : (i < mirror ? i : mirror);
    out[i] = static_cast<Key>(k);
  }
}

/// The whole-sort adversary for a tiling: key = final rank (a permutation of 0..n-1).
/// The searches of the small in-block passes get `seconds` each (time mode:
/// 0.2 s, as kernels/merge_sort.cu's time mode; the wide passes, most of the
/// conflicts, are SPAA Section 4's construction and do not depend on it).
template <class Key>
std::vector<Key> adversary_input(std::uint64_t n, unsigned u, unsigned E, unsigned w, double seconds) {
  bankcheck::inputs::MergeSortShape shape;
  shape.threads = u;
  shape.items = E;
  shape.warp = w;
  shape.keys = n;
  const bankcheck::inputs::MergeSortAdversary adversary(shape,
                                                        bankcheck::inputs::SearchBudget{seconds, 1, ~std::uint64_t{0}});
  std::vector<Key> keys(n);
  if constexpr (sizeof(Key) == 4)
    adversary.generate(std::span<std::int32_t>(reinterpret_cast<std::int32_t*>(keys.data()), n));
  else
    adversary.generate(std::span<std::int64_t>(reinterpret_cast<std::int64_t*>(keys.data()), n));
  return keys;
}

/// Banks counted in keys, the w of a tiling's adversary (as the CF layout's).
template <class Key>
constexpr unsigned banks() {
  return static_cast<unsigned>(bankcheck::cf_banks_in_keys(sizeof(Key)));
}

}  // namespace
