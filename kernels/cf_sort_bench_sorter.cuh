#pragma once
// The sorts kernel.cf_sort_bench compares (CUB's merge sort, ours, CUB's
// radix sort) behind one interface, and the GPU check of a sorted permutation.
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>

#include "kernels/cf_sort_bench_common.cuh"

namespace {

// The sorts, one interface: run(keys, vals) sorts in place on `stream`.

enum class Algo { cub_merge, cf_merge, cub_radix };
const char* algo_name(Algo a) { return a == Algo::cub_merge ? "cub-merge" : a == Algo::cf_merge ? "cf-merge" : "cub-radix"; }

template <class Key, bool kPairs, class P = CfDefault<Key, kPairs>>
struct Sorter {
  using Value = ValueOf<Key>;
  /// CF's entry points: the drop-in sort for the default policy (its size rule included), else P's.
  using Cf =
      std::conditional_t<std::is_same_v<P, CfDefault<Key, kPairs>>, DeviceMergeSort, DeviceMergeSortPolicy<P>>;
  Algo algo;
  std::int64_t n;
  Buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  Buffer<Key> alt_keys;    // radix: the double buffer's second half
  Buffer<Value> alt_vals;
  Key* result_keys = nullptr;
  Value* result_vals = nullptr;

  Sorter(Algo a, std::int64_t n_, Key* keys, Value* vals) : algo(a), n(n_) {
    query(keys, vals);
    temp = Buffer<unsigned char>(std::max<std::size_t>(temp_bytes, 1));
    if (algo == Algo::cub_radix) {
      alt_keys = Buffer<Key>(static_cast<std::size_t>(n));
      if (kPairs) alt_vals = Buffer<Value>(static_cast<std::size_t>(n));
    }
  }
  void query(Key* keys, Value* vals) {
    switch (algo) {
      case Algo::cub_merge:
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceMergeSort::SortPairs(nullptr, temp_bytes, keys, vals, n, Less{}));
        else
          CHECK_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, keys, n, Less{}));
        break;
      case Algo::cf_merge:
        if constexpr (kPairs)
          CHECK_CUDA(Cf::SortPairs(nullptr, temp_bytes, keys, vals, n, Less{}));
        else
          CHECK_CUDA(Cf::SortKeys(nullptr, temp_bytes, keys, n, Less{}));
        break;
      case Algo::cub_radix: {
        cub::DoubleBuffer<Key> k(keys, keys);
        cub::DoubleBuffer<Value> v(vals, vals);
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k, v, static_cast<int>(n)));
        else
          CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k, static_cast<int>(n)));
        break;
      }
    }
  }
  /// Sorts keys[0, n) (and vals) on `stream`; afterwards result_keys/result_vals hold the output.
  void run(Key* keys, Value* vals, cudaStream_t stream) {
    std::size_t bytes = temp_bytes;
    result_keys = keys;
    result_vals = vals;
    switch (algo) {
      case Algo::cub_merge:
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceMergeSort::SortPairs(temp.get(), bytes, keys, vals, n, Less{}, stream));
        else
          CHECK_CUDA(cub::DeviceMergeSort::SortKeys(temp.get(), bytes, keys, n, Less{}, stream));
        break;
      case Algo::cf_merge:
        if constexpr (kPairs)
          CHECK_CUDA(Cf::SortPairs(temp.get(), bytes, keys, vals, n, Less{}, stream));
        else
          CHECK_CUDA(Cf::SortKeys(temp.get(), bytes, keys, n, Less{}, stream));
        break;
      case Algo::cub_radix: {
        cub::DoubleBuffer<Key> k(keys, alt_keys.get());
        cub::DoubleBuffer<Value> v(vals, kPairs ? alt_vals.get() : nullptr);
        if constexpr (kPairs)
          CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, k, v, static_cast<int>(n), 0,
                                                     static_cast<int>(sizeof(Key) * 8), stream));
        else
          CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp.get(), bytes, k, static_cast<int>(n), 0,
                                                    static_cast<int>(sizeof(Key) * 8), stream));
        result_keys = k.Current();
        result_vals = v.Current();
        break;
      }
    }
  }
};

/// Counts the outputs unlike the expected sorted keys: `expect[i]`, or i where
/// expect is null (the sorted output of a permutation of 0..n-1). Pairs (vals
/// not null; a value is its key's input position in src): src[vals[i]] must be
/// out[i]; with `seen` (n bits, zeroed) every value must also come once, which
/// the check needs when keys repeat (the sorts are not stable, so equal keys
/// may carry their values in any order).
template <class Key, class Value>
__global__ void count_wrong(const Key* out, const Value* vals, const Key* src, std::uint64_t n,
                            unsigned long long* wrong, const Key* expect, unsigned* seen) {
  unsigned long long bad = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const Key want = expect != nullptr ? expect[i] : static_cast<Key>(i);
    bool ok = out[i] == want;
    if (vals != nullptr) ok = ok && vals[i] < n && src[vals[i]] == want;
    if (vals != nullptr && seen != nullptr && ok) {
      const unsigned bit = 1u << (vals[i] % 32);
      ok = (atomicOr(&seen[vals[i] / 32], bit) & bit) == 0;
    }
    bad += !ok;
  }
  if (bad) atomicAdd(wrong, bad);
}

}  // namespace
