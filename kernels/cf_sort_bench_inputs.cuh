#pragma once
// kernel.cf_sort_bench's inputs: a random permutation made on the GPU, and
// the whole-sort adversary for a tiling.
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/inputs/random_permutation.hpp"

namespace {

using bankcheck::inputs::RandomPermutation;

template <class Key>
__global__ void fill_permutation(Key* out, std::uint64_t n, RandomPermutation f) {
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

/// Structured inputs (validate/cf_merge/sort_table.cu): random (the keyed
/// permutation), sorted, reversed, 16 distinct keys in random order, and organ
/// pipe (0, 1, ..., n/2, ..., 1, 0).
enum class Pattern { random, sorted, reversed, distinct16, organ_pipe };
inline const char* pattern_name(Pattern p) {
  constexpr const char* names[] = {"random", "sorted", "reversed", "16 distinct", "organ pipe"};
  return names[static_cast<int>(p)];
}
template <class Key>
__global__ void fill_pattern(Key* out, std::uint64_t n, Pattern p, RandomPermutation f) {
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
