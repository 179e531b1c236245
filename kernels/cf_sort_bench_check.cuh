#pragma once
// kernel.cf_sort_bench --mode check: against std::sort on the CPU, and
// against CUB.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"

namespace {

template <class Key>
std::vector<Key> keys_for(const std::string& kind, std::uint64_t n, std::uint64_t seed) {
  std::vector<Key> v(n);
  std::mt19937_64 g(seed);
  if (kind == "random") for (auto& x : v) x = static_cast<Key>(g());
  else if (kind == "dups") for (auto& x : v) x = static_cast<Key>(g() % 7) - 3;
  else if (kind == "sorted") std::iota(v.begin(), v.end(), Key{0});
  else if (kind == "reversed") for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<Key>(n - i);
  else if (kind == "equal") std::fill(v.begin(), v.end(), Key{42});
  // 8 classes of Coarse (below), 16 different keys in each
  else if (kind == "classes") for (auto& x : v) x = static_cast<Key>(g() % 8 * 16 + g() % 16);
  return v;
}

/// Orders keys by all but their low 4 bits: keys that differ only there are
/// equivalent, so a sort may not replace one by a copy of another (the padded
/// partial tile, Agent::pad_with_largest, must take the partial path then).
struct Coarse {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return (a >> 4) < (b >> 4);
  }
};

/// v sorted by `cmp`, equivalent keys then by value: one order for every correct sort of v.
template <class Key, class Cmp>
std::vector<Key> canonical(std::vector<Key> v, Cmp cmp) {
  std::sort(v.begin(), v.end(), [&](const Key& a, const Key& b) { return cmp(a, b) || (!cmp(b, a) && a < b); });
  return v;
}

/// `input` (with values `pos` when `pairs`) sorted on the GPU in `keys` and `vals` by our sort (`ours`)
/// or CUB's merge sort: the keys and the values as they come back.
template <class Key, class Value, class Cmp>
std::pair<std::vector<Key>, std::vector<Value>> sort_on_device(const std::vector<Key>& input,
                                                               const std::vector<Value>& pos, Buffer<Key>& keys,
                                                               Buffer<Value>& vals, bool pairs, bool ours, Cmp cmp) {
  const std::uint64_t n = input.size();
  keys.upload(input);
  vals.upload(pos);
  std::size_t bytes = 0;
  if (ours) {
    if (pairs) CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortPairs(nullptr, bytes, keys.get(), vals.get(), n, cmp));
    else CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortKeys(nullptr, bytes, keys.get(), n, cmp));
  } else {
    if (pairs) CHECK_CUDA(cub::DeviceMergeSort::SortPairs(nullptr, bytes, keys.get(), vals.get(), static_cast<std::int64_t>(n), cmp));
    else CHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, bytes, keys.get(), static_cast<std::int64_t>(n), cmp));
  }
  Buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  if (ours) {
    if (pairs) CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortPairs(temp.get(), bytes, keys.get(), vals.get(), n, cmp));
    else CHECK_CUDA(bankcheck::cf::DeviceMergeSort::SortKeys(temp.get(), bytes, keys.get(), n, cmp));
  } else {
    if (pairs) CHECK_CUDA(cub::DeviceMergeSort::SortPairs(temp.get(), bytes, keys.get(), vals.get(), static_cast<std::int64_t>(n), cmp));
    else CHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp.get(), bytes, keys.get(), static_cast<std::int64_t>(n), cmp));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  return std::make_pair(keys.download(n), vals.download(n));
}

/// Sorts `input` with our sort (keys, then pairs) and CUB's, compares with the CPU.
template <class Key, class Cmp>
void check_one(const std::string& label, const std::vector<Key>& input, Cmp cmp) {
  using Value = ValueOf<Key>;
  const std::uint64_t n = input.size();
  std::vector<Key> expected = input;
  std::sort(expected.begin(), expected.end(), cmp);
  std::vector<Value> pos(n);
  std::iota(pos.begin(), pos.end(), Value{0});
  std::vector<Value> stable = pos;
  std::stable_sort(stable.begin(), stable.end(), [&](Value a, Value b) { return cmp(input[a], input[b]); });
  const std::string what = std::to_string(sizeof(Key)) + "-byte " + label + " n=" + std::to_string(n);
  Buffer<Key> keys(n);
  Buffer<Value> vals(n);
  auto sort_with = [&](bool pairs, bool ours) { return sort_on_device(input, pos, keys, vals, pairs, ours, cmp); };
  const auto [cf_keys, unused] = sort_with(false, true);
  (void)unused;
  const auto [cf_pkeys, cf_vals] = sort_with(true, true);
  const auto [cub_keys, unused2] = sort_with(false, false);
  (void)unused2;
  bool ok = true;
  std::string why;
  // Sorted by cmp, and the same keys as std::sort's (compared in one order of the
  // equivalent keys: equal under Less and Greater, any order under Coarse).
  const std::vector<Key> want = canonical(expected, cmp), cf_canonical = canonical(cf_keys, cmp);
  if (!std::is_sorted(cf_keys.begin(), cf_keys.end(), cmp) || cf_canonical != want)
    ok = false, why += " keys!=std::sort";
  if (!std::is_sorted(cf_pkeys.begin(), cf_pkeys.end(), cmp) || canonical(cf_pkeys, cmp) != want)
    ok = false, why += " pair-keys!=std::sort";
  if (cf_canonical != canonical(cub_keys, cmp)) ok = false, why += " keys!=cub";
  // every value once, beside its own key (the pairs' keys already equal std::sort's)
  std::vector<char> seen(n, 0);
  bool vals_ok = true;
  for (std::uint64_t i = 0; i < n && vals_ok; ++i) {
    const Value v = cf_vals[i];
    vals_ok = v < n && !seen[v] && input[v] == cf_pkeys[i];
    if (vals_ok) seen[v] = 1;
  }
  if (!vals_ok) ok = false, why += " values";
  const bool was_stable = cf_vals == stable;
  if (!ok) ++failures;
  std::printf("%s %-44s%s%s\n", ok ? "ok  " : "FAIL", what.c_str(), why.c_str(),
              ok ? (was_stable ? " (pairs happened to come out stable)" : " (pairs not stable: allowed)") : "");
  std::fflush(stdout);
}

/// quick: a few small sizes, random keys, one comparator (for compute-sanitizer, which is slow).
template <class Key>
void check_key_size(bool quick) {
  using Cub = CubTiling<Key>;
  using Cf = CfDefault<Key, false>;
  const std::uint64_t tile = Cf::kTile;
  const std::vector<std::uint64_t> sizes =
      quick ? std::vector<std::uint64_t>{1, 17, 4351, tile + 1, 3 * tile + 5, 4 * tile, 136 * tile + 5,
                                         601 * tile + tile / 2 + 7}
            : std::vector<std::uint64_t>{0, 1, 2, 17, 4351, 4352, 4353, tile - 1, tile, tile + 1, 3 * tile + 5,
                                         65539, 1000003,
                                         // tile counts of the wide block sort on an H100 (more wide blocks than
                                         // it holds at once, bankcheck::cf_wide_block_sort: 264 for keys, 132 for
                                         // pairs), one of them odd with a partial tile, and 511 tiles, below it
                                         // for keys and above it for pairs
                                         511 * tile + 5, 600 * tile, 600 * tile + 5, 1031 * tile + tile / 2 + 7,
                                         // the small sort with one more block an SM (cf_tighter_register_cap):
                                         // 273 half tiles of pairs, 545 of keys
                                         136 * tile + 5, 272 * tile + 5};
  for (std::uint64_t n : sizes)
    for (const char* kind : {"random", "dups", "sorted", "reversed", "equal"}) {
      const bool rnd = std::string(kind) == "random" || std::string(kind) == "dups";
      if ((n > 70000 || quick) && !rnd) continue;
      if (n > 2000000 && std::string(kind) != "random") continue;  // the wide sizes: random keys only
      const auto v = keys_for<Key>(kind, n, n * 31 + std::strlen(kind));
      check_one<Key>(std::string(kind) + " less", v, Less{});
      if (rnd && !quick) check_one<Key>(std::string(kind) + " greater", v, Greater{});
    }
  // Partial tiles whose largest key has equivalents with other bits (Coarse), or
  // bit-for-bit copies (Less: keys only may be padded, pairs may not), below one
  // tile (the tiny and small sorts), just above it and a few tiles on.
  for (std::uint64_t n : {std::uint64_t{100}, std::uint64_t{1000}, std::uint64_t{2000}, std::uint64_t{4000},
                          tile - 1, tile + 1, 3 * tile + 5})
    for (const char* kind : {"classes", "equal"}) {
      const auto v = keys_for<Key>(kind, n, n * 37 + std::strlen(kind));
      check_one<Key>(std::string(kind) + " coarse", v, Coarse{});
      check_one<Key>(std::string(kind) + " less", v, Less{});
      if (quick) break;
    }
  if (quick) return;
  // the worst cases (their n = tile * 2^k), for CUB's tiling and ours
  for (std::uint64_t tiles : {1ull, 8ull, 64ull}) {
    const std::uint64_t n_cub = std::uint64_t{Cub::kThreads} * Cub::kItems * tiles;
    check_one<Key>("worst-cub", adversary_input<Key>(n_cub, Cub::kThreads, Cub::kItems, banks<Key>(), 0.02), Less{});
    const std::uint64_t n_cf = tile * tiles;
    check_one<Key>("worst-cf", adversary_input<Key>(n_cf, Cf::kThreads, Cf::kItems, banks<Key>(), 0.02), Less{});
  }
}

}  // namespace
