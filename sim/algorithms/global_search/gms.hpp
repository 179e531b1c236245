#pragma once
// GMS, the naive global-memory search of Karsin 2015 ("A performance model
// for GPU architectures", Section 4.2.2): the batched predecessor search with
// K larger than shared memory, the queries divided among threads, each
// thread binary-searching K in global memory. Its probes are uncoalesced:
// the baseline that the static B-tree (btree.hpp) improves on.
//
// Every thread makes the same number of probes whatever its query (the
// halving loop's count depends on K alone), so a warp's probes form whole
// instructions: ceil(log2 K) probes and one final check per query.
//
// Answer convention (as PBS, sim/algorithms/pbs/pbs.hpp): the largest i with
// K[i] <= q, or -1 when q < K[0] (std::upper_bound(K, q) - K - 1).
#include "model/hd.hpp"

namespace bankcheck {

/// Keys, Queries, Answers: global accessors (GlobalArray on the GPU,
/// RecordingGlobal on the CPU; sim/algorithms/global_accessor.hpp) of Key,
/// Key and long.
template <class Key, class Keys, class Queries, class Answers>
struct GmsSearch {
  static constexpr const char* kName = "gms";
  enum Site : int { load_query, probe, final_check, store_answer };
  static constexpr const char* kSiteNames[4] = {"load_query", "probe", "final_check", "store_answer"};

  long K = 0;          ///< sorted keys in global memory, >= 1
  int threads = 0;     ///< threads per block
  int per_thread = 1;  ///< queries per thread, one phase each
  long valid = 0;      ///< queries of this block (the last block may be partial)
  Keys keys;           ///< K sorted keys
  Queries queries;     ///< this block's queries
  Answers answers;     ///< this block's answers

  BANKCHECK_HD int phases() const { return per_thread; }
  BANKCHECK_HD long shared_bytes() const { return 0; }

  /// The predecessor of q: a halving binary search (probes K[base + half]).
  BANKCHECK_HD long predecessor(Key q) const {
    long base = 0, n = K;
    while (n > 1) {
      const long half = n / 2;
      if (!(q < keys.load(probe, base + half))) base += half;
      n -= half;
    }
    return keys.load(final_check, base) <= q ? base : base - 1;
  }

  /// Phase k: query k * threads + tid (coalesced load and store).
  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& /*no shared memory*/) const {
    const long i = static_cast<long>(k) * threads + tid;
    if (i >= valid) return;
    answers.store(store_answer, i, predecessor(queries.load(load_query, i)));
  }
};

}  // namespace bankcheck
