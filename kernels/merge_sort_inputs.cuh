#pragma once
// The inputs of kernel.merge_sort (kernels/merge_sort.cu) and their checks:
// the keys 0..n-1 permuted, so "sorted" means out[k] == k.
//   random    inputs::RandomPermutation (sim/inputs/random_permutation.hpp),
//             generated in parallel, key by key;
//   worst     the whole-sort adversary (sim/inputs/merge_sort_adversary.hpp),
//             SPAA 2025 Section 4 in the passes of >= 2 warps per merge;
//   searched  the same with the searched warp labeling in those passes.
// Adversarial inputs can be cached in a directory (--inputs), so that the
// predict run here and the profile run on the GPU machine read the same bytes.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/experiment.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/inputs/random_permutation.hpp"

namespace bankcheck::kernels::merge_sort_inputs {

inline constexpr int kWarp = 32;
using Key = std::int32_t;

/// Where worst-case inputs are cached (--inputs): the adversary's searched
/// passes are time-bounded, so two machines can build different permutations;
/// predict writes the file here, the GPU modes read the same bytes.
inline std::string& input_cache() {
  static std::string dir;
  return dir;
}

/// The inputs: "random", "worst" (the construction: SPAA Section 4 in the
/// wide passes) and "searched" (the wide passes' warp labeling found by
/// search, above Theorem 8: docs/adversaries.md).
enum class InputKind { random, worst, searched };
inline constexpr InputKind kInputKinds[] = {InputKind::random, InputKind::worst, InputKind::searched};
inline const char* input_name(InputKind k) {
  return k == InputKind::random ? "random" : k == InputKind::worst ? "worst" : "searched";
}
/// --input: one name, "both" (random and worst, as the first runs) or "all".
inline bool selected(const std::string& choice, InputKind k) {
  return choice == "all" || choice == input_name(k) || (choice == "both" && k != InputKind::searched);
}

inline std::vector<Key> make_input(std::uint64_t n, InputKind kind, unsigned u, unsigned E) {
  std::vector<Key> keys(n);
  const bool adversarial = kind != InputKind::random;
  const std::string cached = input_cache().empty() || !adversarial
                                 ? std::string()
                                 : input_cache() + "/" + input_name(kind) + "_u" + std::to_string(u) + "_E" +
                                       std::to_string(E) + "_n" + std::to_string(n) + ".i32";
  if (!cached.empty()) {
    std::ifstream in(cached, std::ios::binary);
    if (in && in.read(reinterpret_cast<char*>(keys.data()), static_cast<std::streamsize>(n * sizeof(Key))) &&
        in.peek() == std::char_traits<char>::eof())
      return keys;
  }
  if (adversarial) {
    inputs::MergeSortShape shape;
    shape.threads = u;
    shape.items = E;
    shape.warp = kWarp;
    shape.keys = n;
    const inputs::MergeSortAdversary adversary(shape, inputs::SearchBudget{0.2, 1, ~std::uint64_t{0}},
                                               kind == InputKind::searched
                                                   ? inputs::MergeSortAdversary::WidePasses::warp_search
                                                   : inputs::MergeSortAdversary::WidePasses::section4);
    adversary.generate(std::span<Key>(keys));
    if (!cached.empty()) {
      std::ofstream out(cached, std::ios::binary);
      out.write(reinterpret_cast<const char*>(keys.data()), static_cast<std::streamsize>(n * sizeof(Key)));
      if (!out) throw std::runtime_error("cannot write " + cached);
    }
  } else {
    const inputs::RandomPermutation perm(n, 0x5eed0000ull + n);
    const std::size_t chunks = 256, per = (n + chunks - 1) / chunks;  // a few per thread: few hand-outs
    parallel_for(chunks, 0, [&](std::size_t c) {
      for (std::size_t i = c * per; i < std::min(n, (c + 1) * per); ++i) keys[i] = static_cast<Key>(perm(i));
    });
  }
  return keys;
}

/// True iff v is 0, 1, ..., n-1 (checked in parallel); prints the first miss.
inline bool is_iota(const std::vector<Key>& v) {
  std::atomic<std::uint64_t> first_bad{~std::uint64_t{0}};
  const std::size_t chunks = 256, per = (v.size() + chunks - 1) / chunks;
  parallel_for(chunks, 0, [&](std::size_t c) {
    for (std::size_t i = c * per; i < std::min(v.size(), (c + 1) * per); ++i)
      if (v[i] != static_cast<Key>(i)) {
        std::uint64_t cur = first_bad.load();
        while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
        }
        return;
      }
  });
  if (first_bad == ~std::uint64_t{0}) return true;
  std::printf("  out[%llu] = %d, expected %llu\n", (unsigned long long)first_bad.load(), v[first_bad],
              (unsigned long long)first_bad.load());
  return false;
}

/// FNV-1a of each of 256 chunks in parallel, then FNV-1a of those hashes:
/// the time mode's input identity for gigabyte inputs (hash_of's single
/// byte-serial pass takes seconds there). Not comparable with hash_of.
inline std::uint64_t parallel_hash(const std::vector<Key>& v) {
  const std::size_t chunks = 256, per = (v.size() + chunks - 1) / chunks;
  std::vector<std::uint64_t> h(chunks, 0);
  parallel_for(chunks, 0, [&](std::size_t c) {
    const std::size_t lo = std::min(v.size(), c * per), hi = std::min(v.size(), (c + 1) * per);
    h[c] = fnv1a(v.data() + lo, (hi - lo) * sizeof(Key));
  });
  return hash_of(h);
}

/// Independent reference of stage k: the input with every chunk of T * 2^k keys sorted.
inline std::vector<Key> chunk_sorted(const std::vector<Key>& input, long chunk) {
  std::vector<Key> v = input;
  parallel_for(v.size() / chunk, 0, [&](std::size_t c) { std::sort(v.begin() + c * chunk, v.begin() + (c + 1) * chunk); });
  return v;
}

}  // namespace bankcheck::kernels::merge_sort_inputs
