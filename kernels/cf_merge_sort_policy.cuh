#pragma once
// The tuning of kernels/cf_merge_sort.cuh: its policy type and the default
// per key and value size. C++17, as the sort's header.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#include <type_traits>

#include "sim/algorithms/merge/cf_register_merge.hpp"

namespace bankcheck::cf {

/// Tuning of the sort (CUB's AgentMergeSortPolicy plus a register bound).
/// @tparam kThreads u, threads per block: a power of two, a multiple of 32
/// @tparam kItems E, keys per thread
/// @tparam kMinBlocks __launch_bounds__' minimum resident blocks per SM (register cap)
template <int kThreads_, int kItems_, cub::BlockLoadAlgorithm kLoad_ = cub::BLOCK_LOAD_WARP_TRANSPOSE,
          cub::BlockStoreAlgorithm kStore_ = cub::BLOCK_STORE_WARP_TRANSPOSE, int kMinBlocks_ = 1>
struct Policy {
  static constexpr int kThreads = kThreads_;
  static constexpr int kItems = kItems_;
  static constexpr int kTile = kThreads_ * kItems_;
  static constexpr cub::BlockLoadAlgorithm kLoad = kLoad_;
  static constexpr cub::BlockStoreAlgorithm kStore = kStore_;
  static constexpr int kMinBlocks = kMinBlocks_;
};

/// 4-byte words of keys and values a thread holds: `items` keys of `key_bytes` bytes and as many
/// values of `value_bytes` (0 for keys only). The register bound below and the drop-in sort's
/// choice of the small sort over the tiny one (cf_small_sort_for_few_tiles) go by it.
constexpr int cf_thread_words(int items, int key_bytes, int value_bytes) {
  return items * (key_bytes + value_bytes) / 4;
}

/// The default policy per key and value size (docs/cf-merge.md, "Tuning"): 128
/// bytes of keys per thread for keys only (E = 32 for 4-byte keys, 16 for 8-byte
/// keys), E = 32 for pairs of 4-byte keys and values and 16 for wider pairs, u =
/// 256. The H100 tune run of 2026-11-23 (kernels/cf_sort_bench_tune.cuh) chose
/// the keys' E and favoured E = 32 for 4-byte pairs; cf_sort_table --profile
/// (2026-11-27, its "twice the tile" column) measured that E at full size:
/// faster from 2^21 keys on, once w | E pads the layout (CfTileLayout). Larger
/// tiles amortize the per-tile work (merge-path search, barriers, the
/// block-level rounds) over more items; the gather stays conflict free at every
/// E (gcd(w, E) > 1 takes the circular-shift layout, Section 3.2). The register
/// bound (minimum blocks per SM) is 4 up to 32 words of keys and values per
/// thread and 2 above, the largest at which ptxas reports no spill in the
/// full-tile kernels.
template <class Key, class Value = CfNoValue>
struct DefaultPolicy {
  static constexpr bool kPairs = !std::is_same_v<Value, CfNoValue>;
  static constexpr int kKeyBytes = static_cast<int>(sizeof(Key));
  static constexpr int kValueBytes = kPairs ? static_cast<int>(sizeof(Value)) : 0;
  static constexpr int kItems = kPairs ? (kKeyBytes <= 4 && kValueBytes <= 4 ? 32 : 16)
                                       : (kKeyBytes >= 4 ? 128 / kKeyBytes : 32);
  /// keys (and values) of E items in registers: 32 words for 4-byte keys at E = 32
  static constexpr int kWords = cf_thread_words(kItems, kKeyBytes, kValueBytes);
  static constexpr int kMinBlocks = kWords <= 32 ? 4 : 2;
  using type = Policy<256, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE, kMinBlocks>;
};

/// P for small sorts (cf_small_sort, DeviceMergeSort): half the threads, the same keys and
/// registers a thread, so half the tile and twice the resident blocks.
template <class P>
using SmallSortPolicy = Policy<P::kThreads / 2, P::kItems, P::kLoad, P::kStore, P::kMinBlocks * 2>;

/// P for tiny sorts (cf_tiny_sort, DeviceMergeSort): P's threads with a quarter of its keys a
/// thread, so a quarter of the tile.
template <class P>
using TinySortPolicy = Policy<P::kThreads, P::kItems / 4, P::kLoad, P::kStore, P::kMinBlocks>;

/// P with one more resident block an SM (a tighter register cap), the same tile
/// (cf_tighter_register_cap, DeviceMergeSort).
template <class P>
using TighterPolicy = Policy<P::kThreads, P::kItems, P::kLoad, P::kStore, P::kMinBlocks + 1>;

}  // namespace bankcheck::cf
