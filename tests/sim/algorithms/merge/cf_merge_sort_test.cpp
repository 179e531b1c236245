// The CF-Merge device merge sort's block steps (sim/algorithms/merge/cf_merge_sort.hpp), run on
// the CPU the way kernels/cf_merge_sort.cuh runs them on the GPU: CUB's tiling
// and passes (block sort, merge-path partitions, merge passes with CUB's tile
// ranges, in-place ping-pong), each block through BlockRecorder. Checked:
//   - the output equals std::sort (keys) and is a permutation of the input
//     pairs (values) for n = 1, 17, tile - 1, tile, tile + 1, several tiles
//     and non-multiples, 4- and 8-byte keys, keys with many duplicates;
//   - the dual subsequence gather (keys and values) has no bank conflict on
//     the sm90 preset (the measured H100 model) in any merge of a whole tile,
//     for the policies the kernel ships (E = 16 / 8, d > 1: the circular
//     shift) and E = 15 / 17 (coprime), random and adversarial inputs.
// What the replay cannot check: CUB's BlockLoad/BlockStore/StableOddEvenSort
// (done here with std::stable_sort on host arrays) and the register allocation.
#include "sim/algorithms/merge/cf_merge_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/algorithms/block_recorder.hpp"
#include "sim/algorithms/merge/cf_merge_passes.hpp"
#include "sim/algorithms/merge/cf_sort_replay.hpp"
#include "tests/sim/algorithms/merge/cf_site_costs.hpp"

using namespace bankcheck;

namespace {

struct Less {
  template <class T>
  bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

using test::SiteCosts;

/// The whole sort on the CPU, kernel by kernel (kernels/cf_merge_sort.cuh's dispatch): the
/// merge levels by the balanced plan (the dispatch's default) or CUB's (cf_pass_plan.hpp); the
/// block sort sorts one tile a block, or two (2u threads, the dispatch's wide block sort) and
/// the plan's leaves are pairs of tiles.
template <class Key, class Value, int U, int E>
struct CpuSort {
  static constexpr int T = U * E;
  static constexpr bool kKeysOnly = std::is_same_v<Value, CfNoValue>;
  std::vector<Key>& keys;
  std::vector<Value>& vals;
  SiteCosts& costs;
  const std::int64_t n;
  const std::int64_t num_tiles;
  const bool wide;
  const CfPassPlan plan;
  bool ping;
  // The largest key everywhere the sort has not written: a tile read from the
  // wrong buffer (a single the block sort put in the wrong one) shows in the output.
  std::vector<Key> keys_buf;
  std::vector<Value> vals_buf;
  std::vector<Key> tk = std::vector<Key>(2 * T);
  std::vector<Value> tv = std::vector<Value>(2 * T);
  std::vector<int> splits = std::vector<int>(2 * U);

  CpuSort(std::vector<Key>& k, std::vector<Value>& v, SiteCosts& c, bool balanced, bool wide_block_sort)
      : keys(k), vals(v), costs(c), n(static_cast<std::int64_t>(k.size())), num_tiles((n + T - 1) / T),
        wide(wide_block_sort && cf_merge_pass_count(num_tiles) > 0), plan(CfPassPlan::make(n, T, wide ? 1 : 0, balanced)),
        ping(plan.levels % 2 == 0), keys_buf(n, std::numeric_limits<Key>::max()), vals_buf(kKeysOnly ? 0 : n) {}

  /// One block through the recorder, its costs counted for whole tiles only.
  template <class Algo>
  void replay(BlockRecorder& recorder, Algo& algo, int threads, bool whole, std::int64_t b) {
    recorder.clear();
    costs.counting = whole;
    recorder.run(algo, static_cast<unsigned>(threads), 32, costs, static_cast<std::uint64_t>(b));
  }

  /// What each thread holds before the CF rounds: CUB's padding of a partial tile with the
  /// thread's running maximum (BlockMergeSortStrategy::Sort), then its keys stably sorted.
  void thread_sort(int BU, int BT, int valid) {
    for (int t = 0; t < BU; ++t) {
      if (valid < BT) {
        Key max_key = tk[t * E];
        for (int i = 1; i < E; ++i) {
          if (t * E + i < valid) max_key = max_key < tk[t * E + i] ? tk[t * E + i] : max_key;
          else tk[t * E + i] = max_key;
        }
      }
      if (valid < BT && t * E >= valid) continue;
      std::vector<std::pair<Key, Value>> kv(E);  // the thread's keys, each with its value
      for (int i = 0; i < E; ++i) kv[i] = {tk[t * E + i], tv[t * E + i]};
      std::stable_sort(kv.begin(), kv.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (int i = 0; i < E; ++i) std::tie(tk[t * E + i], tv[t * E + i]) = kv[i];
    }
  }

  /// Block sort: BlockLoad (oob = the tile's first key), CUB's padding, stable thread sort, CF rounds, BlockStore.
  template <int BU>
  void block_sort() {
    using TileAlgo = CfSortTileAlgo<Key, Value, BU, E, Less>;
    const int BT = BU * E;
    BlockRecorder recorder(static_cast<std::size_t>(TileAlgo::shared_bytes()));
    for (std::int64_t b = 0; b * BT < n; ++b) {
      const std::int64_t base = b * BT;
      const int valid = static_cast<int>(std::min<std::int64_t>(BT, n - base));
      for (int p = 0; p < BT; ++p) {
        tk[p] = p < valid ? keys[base + p] : keys[base];
        if constexpr (!kKeysOnly) tv[p] = p < valid ? vals[base + p] : vals[base];
      }
      thread_sort(BU, BT, valid);
      TileAlgo algo;
      algo.valid = valid;
      algo.keys = tk.data();
      algo.vals = tv.data();
      algo.splits = splits.data();
      replay(recorder, algo, BU, valid == BT, b);
      const bool out_ping = ping != plan.skips_level0(b);  // a single goes where level 1 reads
      Key* ko = (out_ping ? keys.data() : keys_buf.data()) + base;
      for (int p = 0; p < valid; ++p) ko[p] = tk[p];
      if constexpr (!kKeysOnly) {
        Value* vo = (out_ping ? vals.data() : vals_buf.data()) + base;
        for (int p = 0; p < valid; ++p) vo[p] = tv[p];
      }
    }
  }

  /// One merge level: partitions, then the merge of every tile from the level's first.
  void merge_level(int level, BlockRecorder& recorder, std::vector<std::int64_t>& partitions) {
    using PassAlgo = CfSortPassAlgo<Key, Value, U, E, Less>;
    const std::int64_t first = plan.first_tile(level);
    const Key* in_k = ping ? keys.data() : keys_buf.data();
    Key* out_k = ping ? keys_buf.data() : keys.data();
    const Value* in_v = kKeysOnly ? nullptr : ping ? vals.data() : vals_buf.data();
    Value* out_v = kKeysOnly ? nullptr : ping ? vals_buf.data() : vals.data();
    for (std::int64_t i = first; i <= num_tiles; ++i) {  // the merge kernel's warp search, held to the binary one
      const CfPartitionSearch s = cf_merge_partition_search(plan, level, i);
      partitions[i] = s.a_begin + MergePathWide<31>::search<std::int64_t>(
                                      s.a_count, s.b_count, s.diag, [&](std::int64_t a) { return in_k[s.a_begin + a]; },
                                      [&](std::int64_t b) { return in_k[s.b_begin + b]; }, Less{});
      REQUIRE(partitions[i] == cf_merge_partition(in_k, plan, level, i, Less{}));
    }
    for (std::int64_t b = first; b < num_tiles; ++b) {
      PassAlgo algo;
      algo.ranges = cf_merge_tile_ranges(plan, level, b, partitions[b], partitions[b + 1]);
      const int count = algo.ranges.a_count + algo.ranges.b_count;
      REQUIRE(count == std::min<std::int64_t>(T, n - b * T));
      algo.in_keys = in_k;
      algo.in_vals = in_v;
      algo.out_keys = tk.data();
      algo.out_vals = tv.data();
      algo.splits = splits.data();
      replay(recorder, algo, U, count == T, b);
      for (int p = 0; p < count; ++p) {
        out_k[b * T + p] = tk[p];
        if constexpr (!kKeysOnly) out_v[b * T + p] = tv[p];
      }
    }
  }

  void run() {
    if (wide) block_sort<2 * U>();
    else block_sort<U>();
    BlockRecorder recorder(static_cast<std::size_t>(CfSortPassAlgo<Key, Value, U, E, Less>::shared_bytes()));
    std::vector<std::int64_t> partitions(num_tiles + 1);
    for (int level = 0; level < plan.levels; ++level, ping = !ping) merge_level(level, recorder, partitions);
    CHECK(ping == true);  // the last pass (or the block sort alone) wrote the caller's arrays
  }
};

template <class Key, class Value, int U, int E>
void cpu_sort(std::vector<Key>& keys, std::vector<Value>& vals, SiteCosts& costs, bool balanced,
              bool wide_block_sort = false) {
  if (keys.empty()) return;
  CpuSort<Key, Value, U, E>(keys, vals, costs, balanced, wide_block_sort).run();
}

template <class Key>
std::vector<Key> random_keys(std::int64_t n, int distinct, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Key> v(n);
  for (auto& x : v) x = static_cast<Key>(distinct > 0 ? g() % static_cast<std::uint64_t>(distinct) : g());
  return v;
}

/// Sorts `input` (values = input positions) on the CPU and checks the result.
template <class Key, int U, int E, bool kPairs, class PairValue = std::uint32_t>
void check_sort(const std::vector<Key>& input, SiteCosts& costs) {
  using Value = std::conditional_t<kPairs, PairValue, CfNoValue>;
  for (const int plan : {0, 1, 2}) {  // CUB's plan, the balanced plan, the balanced plan after the wide block sort
  const bool balanced = plan != 0, wide = plan == 2;
  CAPTURE(balanced);
  CAPTURE(wide);
  std::vector<Key> keys = input;
  std::vector<Value> vals(kPairs ? input.size() : 0);
  if constexpr (kPairs) std::iota(vals.begin(), vals.end(), Value{0});
  cpu_sort<Key, Value, U, E>(keys, vals, costs, balanced, wide);
  std::vector<Key> expected = input;
  std::sort(expected.begin(), expected.end());
  CHECK(keys == expected);
  if constexpr (kPairs) {
    // every value once, and with its own key
    std::vector<char> seen(input.size(), 0);
    bool ok = true;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      ok = ok && vals[i] < input.size() && !seen[vals[i]] && input[vals[i]] == keys[i];
      if (vals[i] < input.size()) seen[vals[i]] = 1;
    }
    CHECK(ok);
  }
  }
}

template <class Key, int U, int E>
void check_sizes(std::initializer_list<std::int64_t> sizes) {
  const BankModel sm90 = make_preset("sm90", 32);
  for (std::int64_t n : sizes)
    for (int distinct : {0, 5, 1000}) {
      CAPTURE(n);
      CAPTURE(distinct);
      SiteCosts costs(sm90);
      const auto input = random_keys<Key>(n, distinct, static_cast<std::uint64_t>(n) * 7 + distinct);
      check_sort<Key, U, E, false>(input, costs);
      check_sort<Key, U, E, true>(input, costs);
      check_sort<Key, U, E, true, std::uint64_t>(input, costs);
    }
}

/// Zero conflicts in the gathers of whole tiles (sm90 preset) for a random
/// permutation and the CUB-shaped adversary of the same u, E, with values of
/// the key's width and of the other width.
template <class Key, int U, int E, class Value>
void check_conflict_free(std::int64_t tiles) {
  CAPTURE(sizeof(Key));
  CAPTURE(sizeof(Value));
  CAPTURE(U);
  CAPTURE(E);
  const BankModel sm90 = make_preset("sm90", 32);
  const std::int64_t n = static_cast<std::int64_t>(U) * E * tiles;
  std::vector<std::int32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937 g(static_cast<unsigned>(n + E));
  std::shuffle(perm.begin(), perm.end(), g);
  std::vector<std::int32_t> worst(n);
  const inputs::MergeSortShape shape{static_cast<unsigned>(U), static_cast<unsigned>(E),
                                     static_cast<unsigned>(cf_banks_in_keys(sizeof(Key))),
                                     static_cast<std::uint64_t>(n)};
  const inputs::MergeSortAdversary adversary(shape, inputs::SearchBudget{0.02, 3, 2000});
  adversary.generate(std::span<std::int32_t>(worst));
  for (const auto* input : {&perm, &worst}) {
    const std::string name = input == &worst ? "worst" : "random";
    CAPTURE(name);
    std::vector<Key> keys(input->begin(), input->end());
    SiteCosts costs(sm90);
    check_sort<Key, U, E, true, Value>(keys, costs);
    std::uint64_t gathers = 0;
    for (const std::string algo : {"cf-sort-tile.", "cf-sort-pass."})
      for (const std::string site : {"gather_key", "gather_value"}) {
        const auto& c = costs.sites[algo + site];
        CAPTURE(algo);
        CAPTURE(site);
        CHECK(c.instructions > 0);
        CHECK(c.unmodelled == 0);
        CHECK(c.conflicts == 0);
        gathers += c.instructions;
      }
    MESSAGE("u=" << U << " E=" << E << " key/value bytes " << sizeof(Key) << "/" << sizeof(Value) << " " << name
                 << ": " << gathers << " gather instructions, 0 conflicts; other sites' conflicts: merge path "
                 << costs.sites["cf-sort-pass.path_a"].conflicts + costs.sites["cf-sort-pass.path_b"].conflicts
                 << " (pass), " << costs.sites["cf-sort-tile.path_a"].conflicts + costs.sites["cf-sort-tile.path_b"].conflicts
                 << " (tile), pass staging " << costs.sites["cf-sort-pass.stage_key"].conflicts << ", tile round stores "
                 << costs.sites["cf-sort-tile.stage_key"].conflicts);
  }
}

}  // namespace

TEST_CASE("CF sort: tile ranges and partitions cover every key of every level's pairs, for any n") {
  // Keys 0..n-1 in place (every run sorted): each tile's |A| + |B| is its share of n, A and B
  // stay inside the plan's pair of runs, and a level's tiles from its first one take each key
  // of their pairs once.
  for (std::int64_t n : {1L, 5L, 64L, 65L, 200L, 1000L, 1025L, 1600L})
    for (const bool balanced : {false, true})
      for (const int leaf_shift : {0, 1}) {
        const int T = 16;
        const CfPassPlan plan = CfPassPlan::make(n, T, leaf_shift, balanced);
        const std::int64_t tiles = plan.num_tiles;
        std::vector<std::int32_t> keys(n);
        std::iota(keys.begin(), keys.end(), 0);
        for (int level = 0; level < plan.levels; ++level) {
          CAPTURE(n);
          CAPTURE(balanced);
          CAPTURE(leaf_shift);
          CAPTURE(level);
          const std::int64_t first = plan.first_tile(level);
          std::vector<std::int64_t> part(tiles + 1);
          for (std::int64_t i = first; i <= tiles; ++i) part[i] = cf_merge_partition(keys.data(), plan, level, i, Less{});
          std::vector<int> taken(n, 0);
          for (std::int64_t b = first; b < tiles; ++b) {
            const auto r = cf_merge_tile_ranges(plan, level, b, part[b], part[b + 1]);
            const CfRunPair p = plan.pair(level, b);
            CHECK(r.a_count >= 0);
            CHECK(r.b_count >= 0);
            CHECK(r.a_count + r.b_count == std::min<std::int64_t>(T, n - b * T));
            CHECK((p.begin <= r.a_begin && r.a_begin + r.a_count <= p.mid));
            CHECK((p.mid <= r.b_begin && r.b_begin + r.b_count <= p.end));
            for (int i = 0; i < r.a_count; ++i) ++taken[r.a_begin + i];
            for (int i = 0; i < r.b_count; ++i) ++taken[r.b_begin + i];
          }
          // every key from the level's first tile on, once; none before it
          bool once = true;
          for (std::int64_t k = 0; k < n; ++k) once = once && taken[k] == (k >= first * T ? 1 : 0);
          CHECK(once);
        }
      }
}

TEST_CASE("CF sort: sorted output for any n, 4-byte keys, u=64 E=16 (d = 16) and E=15 (coprime)") {
  // tiles of 1024: 3, 5, 9, 18 and 33 tiles (CUB's plan: lone runs in 1, 2, 3, 3 and 5 passes)
  check_sizes<std::int32_t, 64, 16>({1, 2, 17, 1023, 1024, 1025, 3000, 4096, 4097, 9000, 17 * 1024 + 5, 32 * 1024 + 7});
  check_sizes<std::int32_t, 64, 15>({1, 17, 959, 960, 961, 5000});
}

TEST_CASE("CF sort: groups smaller than a rho partition (E=8, 4 with 4-byte keys) and E=12 (wE/d = 96)") {
  check_sizes<std::int32_t, 64, 8>({1, 511, 512, 513, 2000});
  check_sizes<std::int32_t, 64, 4>({1, 255, 256, 257, 1100});
  check_sizes<std::int32_t, 64, 12>({1, 767, 768, 769, 4000});
}

TEST_CASE("CF sort: sorted output for any n, 8-byte keys, u=32 E=8 and u=64 E=17") {
  check_sizes<std::int64_t, 32, 8>({1, 3, 255, 256, 257, 1000, 2048, 2100});
  check_sizes<std::int64_t, 64, 17>({1, 17, 1087, 1088, 1089, 3000});
}

TEST_CASE("CF sort: sorted output for any n where w | E pads whole tiles (4-byte E=32, 8-byte E=16)") {
  check_sizes<std::int32_t, 64, 32>({1, 33, 2047, 2048, 2049, 4096 + 100, 9000});
  check_sizes<std::int64_t, 32, 16>({1, 17, 511, 512, 513, 1024 + 9, 3000});
}

TEST_CASE("CF sort: the gathers of whole tiles are conflict free on the sm90 preset") {
  check_conflict_free<std::int32_t, 256, 32, std::uint32_t>(2);  // the 4-byte keys' default (padded: d = w)
  check_conflict_free<std::int32_t, 256, 32, std::uint64_t>(2);
  check_conflict_free<std::int32_t, 256, 16, std::uint32_t>(4);  // the 4-byte pairs' default (circular shift, d = 16)
  check_conflict_free<std::int32_t, 256, 16, std::uint64_t>(2);
  check_conflict_free<std::int64_t, 256, 16, std::uint64_t>(2);  // the 8-byte default (w = 16 half-warps, padded)
  check_conflict_free<std::int64_t, 256, 16, std::uint32_t>(2);
  check_conflict_free<std::int64_t, 256, 8, std::uint64_t>(4);   // d = 8: circular shift
  check_conflict_free<std::int64_t, 256, 8, std::uint32_t>(2);
  check_conflict_free<std::int32_t, 256, 17, std::uint32_t>(2);  // CUB's shape (coprime)
  check_conflict_free<std::int32_t, 512, 15, std::uint32_t>(2);
  check_conflict_free<std::int32_t, 128, 32, std::uint32_t>(2);
}
