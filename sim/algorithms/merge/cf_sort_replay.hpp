#pragma once
// The CPU replay of the CF-Merge device sort's blocks (kernels/cf_merge_sort.cuh):
// BlockRecorder algorithms that run cf_merge_sort.hpp's per-block steps phase by
// phase, a barrier between phases, as the kernel runs them. Thread state that
// the kernel keeps in registers lives in host arrays here (E keys per thread).
#include "sim/algorithms/merge/cf_merge_sort.hpp"

namespace bankcheck {

/// The block-sort kernel's merge rounds: phases 3r, 3r+1, 3r+2 of round r
/// (groups of m = 2^(r+1) threads) store, split, gather+merge.
/// @pre keys/vals hold each thread's E keys sorted (thread t's at t*E..), the
///      tile's first `valid` keys real (CUB's BlockLoad + StableOddEvenSort).
/// @post keys/vals = the tile's first `valid` keys sorted (thread t's outputs at t*E..).
template <class Key, class Value, int kThreads, int kItems, class Less>
struct CfSortTileAlgo : CfSortSites {
  using Block = CfSortBlock<Key, Value, kThreads, kItems>;
  static constexpr const char* kName = "cf-sort-tile";
  int valid = kThreads * kItems;
  Key* keys = nullptr;     ///< host, u*E
  Value* vals = nullptr;   ///< host, u*E (unused for CfNoValue)
  int* splits = nullptr;   ///< host, u: each thread's split of the current round
  Less less{};

  static constexpr int rounds() { return cf_log2_ceil(kThreads); }
  static constexpr unsigned threads() { return kThreads; }
  int phases() const { return 3 * rounds(); }
  static constexpr long shared_bytes() { return static_cast<long>(Block::kSplitsAt) + kThreads * 4L; }
  template <class Smem>
  void phase(int k, int tid, Smem& smem) const {
    const Smem keys_s = smem, vals_s = smem.at(Block::kValuesAt), splits_s = smem.at(Block::kSplitsAt);
    const int m = 2 << (k / 3);
    if (!Block::round_merges(m, valid)) return;  // as the kernel: the round leaves every key where it is
    if (valid < kThreads * kItems) run<true>(k, m, tid, keys_s, vals_s, splits_s);
    else run<false>(k, m, tid, keys_s, vals_s, splits_s);
  }
  template <bool kPartial, class Smem>
  void run(int k, int m, int tid, const Smem& keys_s, const Smem& vals_s, const Smem& splits_s) const {
    const auto r = Block::template round<kPartial>(m, tid, valid);
    Key(&my_keys)[kItems] = *reinterpret_cast<Key(*)[kItems]>(keys + static_cast<long>(tid) * kItems);
    Value(&my_vals)[kItems] = *reinterpret_cast<Value(*)[kItems]>(vals + static_cast<long>(tid) * kItems);
    switch (k % 3) {
      case 0:
        Block::template store_blocked<kPartial>(keys_s, vals_s, r.L, r.local * kItems, my_keys, my_vals);
        break;
      case 1:
        splits[tid] = Block::find_split(keys_s, r.L, r.diag, less);
        Block::publish_split(splits_s, tid, splits[tid]);
        break;
      default: {
        const int a_next = Block::next_split(splits_s, r.L, r.local, m, tid);
        Block::template gather_merge<kPartial>(keys_s, vals_s, r.L, splits[tid], a_next, r.diag, my_keys, my_vals, less);
      }
    }
  }
};

/// One block of a global merge pass: phase 0 stages, 1 splits, 2 gathers and
/// merges (thread t's outputs into out_keys/out_vals at t*E..).
template <class Key, class Value, int kThreads, int kItems, class Less>
struct CfSortPassAlgo : CfSortSites {
  using Block = CfSortBlock<Key, Value, kThreads, kItems>;
  static constexpr const char* kName = "cf-sort-pass";
  static constexpr int kPhases = 3;
  CfMergeTileRanges ranges;
  const Key* in_keys = nullptr;  ///< the pass's whole input (host)
  const Value* in_vals = nullptr;
  Key* out_keys = nullptr;       ///< this tile's u*E outputs (host; only |A| + |B| meaningful)
  Value* out_vals = nullptr;
  int* splits = nullptr;         ///< host, u
  Less less{};

  static constexpr unsigned threads() { return kThreads; }
  static constexpr long shared_bytes() { return CfSortTileAlgo<Key, Value, kThreads, kItems, Less>::shared_bytes(); }
  template <class Smem>
  void phase(int k, int tid, Smem& smem) const {
    const Smem keys_s = smem, vals_s = smem.at(Block::kValuesAt), splits_s = smem.at(Block::kSplitsAt);
    if (ranges.a_count + ranges.b_count < kThreads * kItems) run<true>(k, tid, keys_s, vals_s, splits_s);
    else run<false>(k, tid, keys_s, vals_s, splits_s);
  }
  template <bool kPartial, class Smem>
  void run(int k, int tid, const Smem& keys_s, const Smem& vals_s, const Smem& splits_s) const {
    const auto L = Block::template pass_layout<kPartial>(ranges.a_count, ranges.b_count);
    const int diag = tid * kItems < L.count ? tid * kItems : L.count;
    if (k == 0) {
      const Value* av = Block::kKeysOnly ? nullptr : in_vals + ranges.a_begin;
      const Value* bv = Block::kKeysOnly ? nullptr : in_vals + ranges.b_begin;
      Block::template stage_striped<kPartial>(keys_s, vals_s, L, tid, in_keys + ranges.a_begin,
                                              in_keys + ranges.b_begin, av, bv);
      return;
    }
    if (k == 1) {
      splits[tid] = Block::find_split(keys_s, L, diag, less);
      Block::publish_split(splits_s, tid, splits[tid]);
      return;
    }
    Key(&my_keys)[kItems] = *reinterpret_cast<Key(*)[kItems]>(out_keys + static_cast<long>(tid) * kItems);
    Value(&my_vals)[kItems] = *reinterpret_cast<Value(*)[kItems]>(out_vals + static_cast<long>(tid) * kItems);
    const int a_next = Block::next_split(splits_s, L, tid, kThreads, tid);
    Block::template gather_merge<kPartial>(keys_s, vals_s, L, splits[tid], a_next, diag, my_keys, my_vals, less);
  }
};

}  // namespace bankcheck
