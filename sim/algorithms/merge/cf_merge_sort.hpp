#pragma once
// The per-block steps of the CF-Merge device merge sort (kernels/cf_merge_sort.cuh),
// single source for the kernel and for bankcheck's CPU replay (BlockRecorder).
//
// The sort has CUB DeviceMergeSort's shape (cub/device/dispatch/dispatch_merge_sort.cuh,
// cub/agent/agent_merge_sort.cuh, CUDA 13.0): a block-sort kernel (tiles of u*E keys),
// then per global pass a merge-path partition kernel and a merge kernel. Only the
// merge step differs from CUB: instead of CUB's SerialMerge, whose data-dependent
// shared-memory reads conflict (SPAA 2025 Section 4), every merge
//   1. stores A and reversed B circularly shifted, ρ(A ∪ π(B)) (Sections 3.1-3.3),
//   2. finds each thread's split by merge path through that layout,
//   3. gathers the thread's E keys with the dual subsequence gather (Algorithm 1),
//      conflict free, and
//   4. merges them in registers (cf_merge_gathered: the gather leaves a cyclic
//      bitonic sequence; Section 5 used an odd-even transposition sort).
// The kernel keeps a thread's keys in registers across barriers; the CPU replay
// (CfSortTileAlgo, CfSortPassAlgo in cf_sort_replay.hpp) keeps them in per-thread host arrays and
// runs the same functions phase by phase. CUB's own building blocks (BlockLoad,
// BlockStore, StableOddEvenSort) stay in the kernel; the replay does their work
// directly on host arrays (they are not what the paper changes).
//
// Partial tiles (n not a multiple of u*E) follow CUB: the last tile's merges are
// clipped to its valid keys; a thread whose E outputs cross the end has fewer than
// E items, and the gather marks its missing rounds invalid (kPartial).
#include <cstdint>
#include <type_traits>

#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/cf_pass_plan.hpp"
#include "model/hd.hpp"
#include "sim/algorithms/merge/merge_path.hpp"

namespace bankcheck {

/// Banks counted in keys of `bytes` bytes, i.e. the w of the layout: 32 4-byte
/// banks for keys of up to 4 bytes; 8- and 16-byte keys are served by half- and
/// quarter-warps over 16 resp. 8 bank groups (sm90 preset, docs/bank-model.md).
BANKCHECK_HD constexpr int cf_banks_in_keys(int bytes) { return bytes == 8 ? 16 : bytes == 16 ? 8 : 32; }

/// Site ids of the CF sort's shared-memory accesses (the replay's names). A padded
/// whole tile's round stores a thread's run with one loop per direction (store_blocked):
/// a warp whose threads go both ways issues both, so B's descending run is a site of its
/// own and the replay groups its stores apart from A's, as the GPU issues them.
struct CfSortSites {
  enum Site : int {
    stage_key, stage_value, path_a, path_b, split_store, split_load, gather_key, gather_value, stage_key_down,
    stage_value_down
  };
  static constexpr const char* kSiteNames[10] = {"stage_key",   "stage_value", "path_a",     "path_b",
                                                "split_store", "split_load",  "gather_key", "gather_value",
                                                "stage_key_down", "stage_value_down"};
};

/// Where one block of a global merge pass reads (CUB's AgentMerge::consume_tile).
struct CfMergeTileRanges {
  std::int64_t a_begin = 0;  ///< absolute offset of the tile's first A key
  std::int64_t b_begin = 0;  ///< absolute offset of the tile's first B key
  int a_count = 0;           ///< |A| of the tile
  int b_count = 0;           ///< |B| of the tile (|A| + |B| = u*E except in the last tile)
};

/// The A and B ranges of tile `tile_idx` in level `level` of `plan`;
/// partition_beg and partition_end are cf_merge_partition of tile_idx and
/// tile_idx + 1 (the latter unused where the tile ends its pair of runs).
/// CUB's formulas (agent_merge_sort.cuh, AgentMerge::consume_tile) over the
/// plan's pair of runs instead of CUB's runs of target/2 tiles.
BANKCHECK_HD inline CfMergeTileRanges cf_merge_tile_ranges(const CfPassPlan& plan, int level, std::int64_t tile_idx,
                                                           std::int64_t partition_beg, std::int64_t partition_end) {
  const CfRunPair p = plan.pair(level, tile_idx);
  const std::int64_t a_size = p.mid - p.begin, b_size = p.end - p.mid;
  const std::int64_t diag = plan.tile * tile_idx - p.begin;
  const std::int64_t keys1_beg = partition_beg - p.begin;
  std::int64_t keys1_end = partition_end - p.begin;
  const std::int64_t keys2_beg = b_size < diag - keys1_beg ? b_size : diag - keys1_beg;
  std::int64_t keys2_end = diag + plan.tile - keys1_end;
  if (keys2_end > b_size) keys2_end = b_size;
  if (plan.tile * (tile_idx + 1) >= p.end) {  // the last tile of its pair of runs
    keys1_end = a_size;
    keys2_end = b_size;
  }
  CfMergeTileRanges r;
  r.a_begin = p.begin + keys1_beg;
  r.b_begin = p.mid + keys2_beg;
  r.a_count = static_cast<int>(keys1_end - keys1_beg);
  r.b_count = static_cast<int>(keys2_end - keys2_beg);
  return r;
}

/// The merge-path search that gives tile `idx`'s partition in its pass: the
/// A and B runs of its pair (absolute offsets) and the diagonal. For idx =
/// num_tiles (the end of the last tile) B is empty and the diagonal all of A,
/// so every search returns a_count without a probe.
struct CfPartitionSearch {
  std::int64_t a_begin = 0, a_count = 0, b_begin = 0, b_count = 0, diag = 0;
};

/// CUB's partition bounds (AgentPartition::Process) for tile boundary `idx` of
/// level `level` of `plan`. @pre plan.first_tile(level) <= idx <= plan.num_tiles.
BANKCHECK_HD inline CfPartitionSearch cf_merge_partition_search(const CfPassPlan& plan, int level,
                                                                std::int64_t idx) {
  const bool last = idx == plan.num_tiles;
  const CfRunPair p = plan.pair(level, last ? idx - 1 : idx);
  CfPartitionSearch s;
  s.a_begin = p.begin;
  s.a_count = p.mid - p.begin;
  s.b_begin = p.mid;
  s.b_count = last ? 0 : p.end - p.mid;
  s.diag = last ? s.a_count : plan.tile * idx - p.begin;
  if (s.diag > s.a_count + s.b_count) s.diag = s.a_count + s.b_count;
  return s;
}

/// CUB's partition (AgentPartition::Process): the absolute offset of the first
/// A key of tile `idx` in its pass, or the end of its A run for idx = num_tiles.
/// Binary search; the kernel searches the same bounds with a warp (MergePathWide).
/// @pre keys holds the sorted runs of level `level` of `plan`.
template <class Key, class Less>
BANKCHECK_HD std::int64_t cf_merge_partition(const Key* keys, const CfPassPlan& plan, int level, std::int64_t idx,
                                             Less less) {
  const CfPartitionSearch s = cf_merge_partition_search(plan, level, idx);
  return s.a_begin + merge_path<std::int64_t>(
                         s.a_count, s.b_count, s.diag, [&](std::int64_t i) { return keys[s.a_begin + i]; },
                         [&](std::int64_t j) { return keys[s.b_begin + j]; }, less);
}

/// The shared-memory steps of one block. Value = CfNoValue: keys only.
/// @pre kThreads a power of two and a multiple of the layout's w (whole warps,
///      whole ρ partitions: Section 3.3).
template <class Key, class Value, int kThreads, int kItems>
struct CfSortBlock : CfSortSites {
  static constexpr int kW = cf_banks_in_keys(static_cast<int>(sizeof(Key)));
  static constexpr int kTile = kThreads * kItems;
  static constexpr bool kKeysOnly = std::is_same_v<Value, CfNoValue>;
  /// The layout of a partial tile (kPartial) or a whole one.
  template <bool kPartial>
  using LayoutOf = CfTileLayout<kW, kItems, !kPartial>;
  /// Values lie in a second array over the same logical slots, with the ρ of
  /// their own width (8-byte keys with 4-byte values: w = 16 for the keys, 32
  /// for the values), so both gathers are conflict free.
  static constexpr int kWValues = kKeysOnly ? kW : cf_banks_in_keys(static_cast<int>(sizeof(Value)));
  template <bool kPartial>
  using ValueLayoutOf = CfTileLayout<kWValues, kItems, !kPartial>;
  template <bool kPartial>
  BANKCHECK_HD static ValueLayoutOf<kPartial> value_layout(const LayoutOf<kPartial>& L) {
    ValueLayoutOf<kPartial> V;
    V.offset = L.offset;
    V.count = L.count;
    V.a_count = L.a_count;
    V.total = L.total;
    return V;
  }
  /// Keys and values both in padded layouts: ρ(q) = q + q/E for either, so a value lies
  /// at its key's slot.
  static constexpr bool kPaddedTile = LayoutOf<false>::kPadded && ValueLayoutOf<false>::kPadded;
  template <bool kPartial>
  BANKCHECK_HD static int value_slot(const LayoutOf<kPartial>& L, int logical) {
    if constexpr (kWValues == kW)
      return L.rho(logical);
    else
      return value_layout<kPartial>(L).rho(logical);
  }
  /// Shared memory of the layouts: keys from byte 0, values after them (a
  /// whole tile's slots: more than u*E where the layout is padded).
  static constexpr int kKeySlots = LayoutOf<false>::slots(kTile);
  static constexpr int kValueSlots = kKeysOnly ? 0 : ValueLayoutOf<false>::slots(kTile);
  static constexpr std::size_t kValuesAt = static_cast<std::size_t>(kKeySlots) * sizeof(Key);
  static constexpr std::size_t kSplitsAt = kValuesAt + (kKeysOnly ? 0 : kValueSlots * sizeof(Value));
  static_assert((kThreads & (kThreads - 1)) == 0, "u must be a power of two (CUB's block merge sort)");
  static_assert(kThreads % kW == 0, "u must be a multiple of w (Section 3.3)");

  /// One in-block merge round of groups of m threads (CUB's BlockMergeSort
  /// rounds, lists clipped to the tile's `valid` keys).
  template <bool kPartial>
  struct Round {
    LayoutOf<kPartial> L;
    int local = 0;  ///< thread index in its group
    int diag = 0;   ///< the thread's first output, group-relative (clipped to |A| + |B|)
  };
  template <bool kPartial>
  BANKCHECK_HD static Round<kPartial> round(int m, int tid, int valid) {
    Round<kPartial> r;
    r.local = tid & (m - 1);
    const int start = (tid - r.local) * kItems, size = m / 2 * kItems;
    const int k1b = start < valid ? start : valid;
    const int k1e = start + size < valid ? start + size : valid;
    const int k2e = k1e + size < valid ? k1e + size : valid;
    r.L.offset = start;
    r.L.count = k2e - k1b;
    r.L.a_count = k1e - k1b;
    r.L.total = valid;
    const int diag = r.local * kItems;
    r.diag = diag < r.L.count ? diag : r.L.count;
    return r;
  }

  /// Whether the in-block round of groups of m threads moves a key: once the
  /// first group's A (its first m/2 threads) holds all `valid` keys of a
  /// partial tile, that round and every later one merge them with nothing.
  BANKCHECK_HD static constexpr bool round_merges(int m, int valid) { return m / 2 * kItems < valid; }

  /// The layout of a global merge pass's tile.
  template <bool kPartial>
  BANKCHECK_HD static LayoutOf<kPartial> pass_layout(int a_count, int b_count) {
    LayoutOf<kPartial> L;
    L.offset = 0;
    L.count = a_count + b_count;
    L.a_count = a_count;
    L.total = L.count;
    return L;
  }

  /// Tile rounds: the thread's E sorted keys (group positions first..first+E-1,
  /// blocked) into the group's layout ρ(A ∪ π(B)). kPartial: positions past
  /// the group's keys are not stored.
  template <bool kPartial, class Smem>
  BANKCHECK_HD static void store_blocked(const Smem& keys_s, const Smem& vals_s, const LayoutOf<kPartial>& L, int first,
                                         const Key (&keys)[kItems], const Value (&vals)[kItems]) {
    if constexpr (!kPartial) {
      // A whole group: the thread's E keys are all in A (slots first..) or all
      // in B (reversed: slots down from π(first - |A|)), one E-aligned run.
      const bool in_a = first < L.a_count;
      const int p0 = L.input_slot(first);
      if constexpr (kPaddedTile) {
        // the run is E consecutive block slots from its lowest, ascending in A, descending in B: a loop
        // for each direction makes every store its lowest slot plus a constant (a warp whose threads
        // go both ways issues both loops)
        const int low = in_a ? L.rho(p0) : L.rho(p0) - (kItems - 1);
        const auto keys_at = keys_s.at(static_cast<std::size_t>(low) * sizeof(Key));
        const auto vals_at = vals_s.at(kKeysOnly ? 0 : static_cast<std::size_t>(low) * sizeof(Value));
        if (in_a) {
          BANKCHECK_CF_UNROLL
          for (int i = 0; i < kItems; ++i) {
            keys_at.template store<Key>(stage_key, i, keys[i]);
            if constexpr (!kKeysOnly) vals_at.template store<Value>(stage_value, i, vals[i]);
          }
        } else {
          BANKCHECK_CF_UNROLL
          for (int i = 0; i < kItems; ++i) {
            keys_at.template store<Key>(stage_key_down, kItems - 1 - i, keys[i]);
            if constexpr (!kKeysOnly) vals_at.template store<Value>(stage_value_down, kItems - 1 - i, vals[i]);
          }
        }
        return;
      }
      const auto keys_run = L.run(p0, in_a ? 1 : -1);
      const auto vals_run = value_layout<false>(L).run(p0, in_a ? 1 : -1);
      const auto keys_at = keys_s.at(static_cast<std::size_t>(keys_run.base) * sizeof(Key));
      const auto vals_at = vals_s.at(kKeysOnly ? 0 : static_cast<std::size_t>(vals_run.base) * sizeof(Value));
      BANKCHECK_CF_UNROLL
      for (int i = 0; i < kItems; ++i) {
        keys_at.template store<Key>(stage_key, keys_run.place(i), keys[i]);
        if constexpr (!kKeysOnly) vals_at.template store<Value>(stage_value, vals_run.place(i), vals[i]);
      }
    } else {
      BANKCHECK_CF_UNROLL
      for (int i = 0; i < kItems; ++i) {
        const int p = first + i;
        if (p >= L.count) continue;
        const int logical = L.input_slot(p);
        keys_s.template store<Key>(stage_key, L.rho(logical), keys[i]);
        if constexpr (!kKeysOnly) vals_s.template store<Value>(stage_value, value_slot<kPartial>(L, logical), vals[i]);
      }
    }
  }

  /// Global pass: A = a[0, |A|), B = b[0, |B|) from global memory, block-striped
  /// (item i of thread t is merged input i*u + t, coalesced as in CUB's
  /// gmem_to_reg), into the layout. The permutation is applied on the way from
  /// global to shared memory, as the paper's implementation does (Section 5).
  template <bool kPartial, class Smem>
  BANKCHECK_HD static void stage_striped(const Smem& keys_s, const Smem& vals_s, const LayoutOf<kPartial>& L, int tid,
                                         const Key* a_keys, const Key* b_keys, const Value* a_vals,
                                         const Value* b_vals) {
    Key k[kItems];
    Value v[kItems];
    BANKCHECK_CF_UNROLL
    for (int i = 0; i < kItems; ++i) {  // all loads first: E independent requests in flight
      const int p = i * kThreads + tid;
      if (kPartial && p >= L.count) continue;
      k[i] = p < L.a_count ? a_keys[p] : b_keys[p - L.a_count];
      if constexpr (!kKeysOnly) v[i] = p < L.a_count ? a_vals[p] : b_vals[p - L.a_count];
    }
    BANKCHECK_CF_UNROLL
    for (int i = 0; i < kItems; ++i) {
      const int p = i * kThreads + tid;
      if (kPartial && p >= L.count) continue;
      const int logical = L.input_slot(p);
      keys_s.template store<Key>(stage_key, L.rho(logical), k[i]);
      if constexpr (!kKeysOnly) vals_s.template store<Value>(stage_value, value_slot<kPartial>(L, logical), v[i]);
    }
  }

  /// Merge path at `diag` through the layout (A[i] at ρ(i), B[j] at ρ(π(j))).
  template <class Smem, class Layout, class Less>
  BANKCHECK_HD static int find_split(const Smem& keys_s, const Layout& L, int diag, Less less) {
    // one probe per line: the line table then tells the two sites apart (validate/cf_merge/ncu_sites.py)
    const auto a_at = [&](int i) { return keys_s.template load<Key>(path_a, L.rho(i)); };
    const auto b_at = [&](int j) { return keys_s.template load<Key>(path_b, L.rho(L.b_slot(j))); };
    return merge_path<int>(L.a_count, L.count - L.a_count, diag, a_at, b_at, less);
  }

  /// The thread's split for its right neighbour (shared: the gather needs |A_i| = a_{i+1} - a_i).
  template <class Smem>
  BANKCHECK_HD static void publish_split(const Smem& splits_s, int tid, int split) {
    splits_s.template store<std::int32_t>(split_store, tid, static_cast<std::int32_t>(split));
  }
  /// a_{i+1}: the neighbour's split, or |A| for the group's last thread.
  template <class Smem, class Layout>
  BANKCHECK_HD static int next_split(const Smem& splits_s, const Layout& L, int local, int group_threads, int tid) {
    return local + 1 < group_threads ? static_cast<int>(splits_s.template load<std::int32_t>(split_load, tid + 1))
                                     : L.a_count;
  }

  /// Whether a whole tile's gather finds its slots with CfTileLayout::gather: both
  /// layouts padded and E fits its mask.
  template <bool kPartial>
  static constexpr bool kSelectGather = !kPartial && kPaddedTile && kItems <= 64;

  /// Algorithm 1's gather of the thread's E keys (and values, from the same
  /// logical slots of the value layout), then the register merge: keys ascending =
  /// group outputs diag, diag+1, ... kPartial: a thread whose outputs cross the
  /// end of the keys has fewer than E; its missing rounds read nothing and its
  /// keys past the end are unspecified.
  template <bool kPartial, class Smem, class Less>
  BANKCHECK_HD static void gather_merge(const Smem& keys_s, const Smem& vals_s, const LayoutOf<kPartial>& L, int a_i,
                                        int a_next,
                                        int diag, Key (&keys)[kItems], Value (&vals)[kItems], Less less) {
    const int a_len = a_next - a_i, b_i = diag - a_i;
    int b_len = kItems - a_len;
    if constexpr (kPartial) {
      const int left = L.count - diag;
      b_len = (left < kItems ? left : kItems) - a_len;
    }
    bool valid[kItems];
    if constexpr (kSelectGather<kPartial>) {
      // the same slots as the rounds below, each a select and an add (CfTileLayout::gather)
      const auto g = L.gather(a_i, a_len, diag);
      auto gk = g.scaled(static_cast<int>(sizeof(Key))), gv = g.scaled(static_cast<int>(sizeof(Value)));
#ifdef __CUDA_ARCH__
      // opaque to the compiler, which would otherwise select among the unscaled bases and scale each round's
      asm("" : "+r"(gk.a_base), "+r"(gk.b_base), "+r"(gv.a_base), "+r"(gv.b_base));
#endif
      BANKCHECK_CF_UNROLL
      for (int j = 0; j < kItems; ++j) {  // slot base(j) + j: the j a constant offset of the access
        keys[j] = keys_s.at(static_cast<std::size_t>(gk.base(j))).template load<Key>(gather_key, j);
        if constexpr (!kKeysOnly)
          vals[j] = vals_s.at(static_cast<std::size_t>(gv.base(j))).template load<Value>(gather_value, j);
      }
      cf_merge_gathered<kItems, kPartial>(keys, vals, valid, static_cast<unsigned>(g.k), less);
      return;
    }
    cf_gather_rounds<kItems, kPartial>(L, a_i, a_len, b_i, b_len, [&](int j, int logical, bool ok) {
      if constexpr (kPartial) {
        valid[j] = ok;
        if (!ok) {  // predicated off: no access; the item only has to be a defined value
          keys[j] = Key{};
          if constexpr (!kKeysOnly) vals[j] = Value{};
          return;
        }
      }
      keys[j] = keys_s.template load<Key>(gather_key, L.rho(logical));
      if constexpr (!kKeysOnly) vals[j] = vals_s.template load<Value>(gather_value, value_slot<kPartial>(L, logical));
    });
    const unsigned k = static_cast<unsigned>(a_i) % static_cast<unsigned>(kItems);
    cf_merge_gathered<kItems, kPartial>(keys, vals, valid, k, less);
  }
};

}  // namespace bankcheck
