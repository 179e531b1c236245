#pragma once
// A worst-case input permutation for a whole pairwise merge sort shaped like
// CUB's DeviceMergeSort (CUDA 13.0, cub/agent/agent_merge_sort.cuh and
// cub/block/block_merge_sort.cuh): tiles of u*E keys are block-sorted (each
// thread sorts E keys in registers, then log2(u) in-block merge passes with
// 2, 4, ..., u threads per merge), then global passes merge runs of 1, 2, 4,
// ... tiles; every merge (in-block or global) puts A then B in shared memory
// and each thread finds its split by merge path and merges E keys serially.
//
// Built backwards (the "un-merge" idea): every pass gets a labeling of each
// tile's merged outputs (A or B) that is a worst case per warp -- SPAA'25
// Section 4's splits where a warp sees whole bank columns of A and B (merges of
// at least 2 warps), a searched labeling where it does not (fewer threads per
// merge than 2 warps). Every tile of a pass takes half its outputs from A, so
// a pass's labeling is the same in every tile, and the input is the
// composition of the inverse merges: key = final rank.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/inputs/adversary_search.hpp"
#include "sim/inputs/merge_adversary.hpp"

namespace bankcheck::inputs {

/// u threads per block, E items per thread, warp w, n keys.
struct MergeSortShape {
  unsigned threads = 256;
  unsigned items = 17;
  unsigned warp = 32;
  std::uint64_t keys = 0;
  std::uint64_t tile() const { return std::uint64_t{threads} * items; }
};

/// @throws std::invalid_argument naming the constraint and the nearest valid
/// value: u a power of two multiple of 2w, 1 < E <= w, n = tile * 2^k.
void check_merge_sort_shape(const MergeSortShape& shape);

/// One merge pass and the labeling it gets in every tile.
struct MergePassPlan {
  std::string name;             ///< "block m=2" .. "block m=u", "global runs=1 tile" ...
  bool global = false;          ///< a global pass (runs of whole tiles) or an in-block pass
  unsigned merge_threads = 0;   ///< threads per merge (in-block), u for global passes
  std::uint64_t run = 0;        ///< length of each of the two runs merged
  std::string source;           ///< "section-4" or "search" (and the search's budget)
  std::vector<std::uint8_t> from_b;  ///< labeling of one tile's u*E merged outputs
};

/// Cost of one pass over the whole input under the DMM, both read models.
struct MergePassCost {
  std::uint64_t paper_wavefronts = 0;  ///< SPAA'25 step counting (sum over warps)
  std::uint64_t cub_wavefronts = 0;    ///< CUB SerialMerge reads (init A, init B, then a refill after each of the E items)
  /// SerialMerge as sim/algorithms/merge/pairwise_merge.hpp's serial_merge issues it (and nvcc
  /// compiles CUB's: the refill after the last item is dead): init A, init B,
  /// then a refill after each of the first E - 1 items, E + 1 reads per thread.
  std::uint64_t serial_merge_wavefronts = 0;
  std::uint64_t bound = 0;             ///< Theorem 8 per warp x warps (section-4 passes), E^2 per warp otherwise
  std::uint64_t warps = 0;
};

/// The target-sequence budget of the adversary behind `bankcheck run
/// merge-sort --input worst` (sim/algorithms/merge_sort/merge_sort_spec.cpp):
/// fixed, so that the worst input depends on the seed only.
inline constexpr std::uint64_t kMergeSortWorstIterations = 3000;

class MergeSortAdversary {
 public:
  /// Labeling of the passes whose merges span >= 2 warps (in-block m >= 2w, global).
  enum class WidePasses {
    section4,  ///< SPAA'25 Section 4's splits: Theorem 8 per warp (source "section-4")
    /// The grouped worst case of one warp whose A and B parts start in the
    /// same bank (each warp takes wE/2 of A and of B, so warp k's parts start
    /// at k wE/2 of A and of B, and m E/2 is a multiple of w): searched, one
    /// labeling repeated in every warp (source "warp search"). Exceeds
    /// Theorem 8 where the search finds more (w = 32: E = 17: 303 > 288 per
    /// warp; E = 15: 227 > 225).
    warp_search,
  };

  /// Plans every pass; in-block passes with fewer than 2w threads per merge
  /// are searched (per warp, paper-step cost) within `budget` each, and so is
  /// the one warp labeling of the wide passes with WidePasses::warp_search.
  explicit MergeSortAdversary(const MergeSortShape& shape, SearchBudget budget = {0.2, 1, ~std::uint64_t{0}},
                              WidePasses wide = WidePasses::section4);

  const MergeSortShape& shape() const { return shape_; }
  const std::vector<MergePassPlan>& passes() const { return passes_; }

  /// Offset in the block-sorted tile of the key at each input offset of a tile.
  const std::vector<std::uint32_t>& block_permutation() const { return block_perm_; }

  /// Writes the permutation: out[i] = final rank of the key at input position i.
  /// Tile by tile in natural order (high tile-index bits fixed first): no
  /// memory beyond `out` but O(tile * passes). @pre out.size() == shape().keys.
  void generate(std::span<std::int32_t> out) const;
  void generate(std::span<std::int64_t> out) const;

  /// Streaming form: `sink(tile_index, keys_of_that_tile)` for tiles 0, 1, 2, ... in order.
  template <class Key, class Sink>
  void generate_tiles(Sink&& sink) const;

  /// Core of the generators: `dest(tile)` gives where that tile's keys go,
  /// `done(tile)` is called once they are written; tiles come in natural order.
  template <class Key, class Dest, class Done>
  void write_tiles(Dest&& dest, Done&& done) const;

  /// The model's count for each pass (DMM, w banks, one key per cell).
  std::vector<MergePassCost> pass_costs() const;

 private:
  MergeSortShape shape_;
  std::vector<MergePassPlan> passes_;
  std::vector<std::uint32_t> block_perm_;
  std::vector<std::uint32_t> sel_[2];  ///< global passes: tile offset of the g-th A (B) output
  unsigned global_passes_ = 0;
};

/// What write_permutation_file did, for the speed figures (bench/adversary_bench.cpp).
struct PermutationFileWrite {
  std::uint64_t bytes = 0;
  double write_seconds = 0;   ///< generate + write(2) of every chunk (into the page cache)
  double commit_seconds = 0;  ///< fsync + rename (AtomicFile::commit)
};

/// Writes the permutation as raw little-endian integers of `key_bytes` (4 or
/// 8) bytes to `path`, atomically (sim/trace/atomic_file.hpp). Tiles are produced
/// in order into one reused buffer of about `chunk_bytes` that is appended to
/// the file whenever it is full: memory O(chunk + tile * passes), whatever n.
/// @throws std::invalid_argument for key_bytes not 4 or 8, or n > 2^31 with 4-byte keys;
///         std::runtime_error on an I/O error (the target is then untouched).
PermutationFileWrite write_permutation_file(const MergeSortAdversary& adversary, const std::filesystem::path& path,
                                            unsigned key_bytes, std::size_t chunk_bytes = std::size_t{1} << 20);

// ---- template implementation ------------------------------------------------

template <class Key, class Sink>
void MergeSortAdversary::generate_tiles(Sink&& sink) const {
  std::vector<Key> keys(shape_.tile());
  write_tiles<Key>([&](std::uint64_t) { return keys.data(); },
                   [&](std::uint64_t tile) { sink(tile, std::span<const Key>(keys)); });
}

template <class Key, class Dest, class Done>
void MergeSortAdversary::write_tiles(Dest&& dest, Done&& done) const {
  const std::uint32_t T = static_cast<std::uint32_t>(shape_.tile()), H = T / 2;
  const unsigned K = global_passes_;
  using V = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;
  if (K == 0) {
    Key* out = dest(0);
    for (std::uint32_t p = 0; p < T; ++p) out[p] = static_cast<Key>(block_perm_[p]);
    done(0);
    return;
  }
  // Global pass k reads bit k of the input tile index (A run = 0, B run = 1)
  // and sends a key at tile offset v to offset sel_[b][v mod H] of the pair's
  // first (v < H) or second output tile; the second adds C_k = T * 2^(K-1-k)
  // to the final rank. So the final rank of a key at offset v before pass k,
  // with bits b_k .. b_{K-1} fixed, is
  //   phi_k(v) = [v >= H] C_k + phi_{k+1}(sel_[b_k][v mod H]),  phi_K(v) = v,
  // and the key at input offset p has rank phi_0(block_perm_[p]). Fixing the
  // high bits first walks the tiles in natural order (sequential output);
  // phi_k(v + H) = phi_k(v) + C_k halves the table work, and the last level
  // is one gather per key from the L1-resident phi_1.
  std::vector<std::vector<V>> phi(K + 1, std::vector<V>(T));
  for (std::uint32_t v = 0; v < T; ++v) phi[K][v] = v;
  // Last level, folded into per-offset tables: rank = phi_1[gather[b][p]] + high[p].
  std::vector<std::uint32_t> gather[2] = {std::vector<std::uint32_t>(T), std::vector<std::uint32_t>(T)};
  std::vector<V> high(T);
  const V c0 = static_cast<V>(T) << (K - 1);
  for (std::uint32_t p = 0; p < T; ++p) {
    const std::uint32_t v = block_perm_[p], hi = v >= H;
    gather[0][p] = sel_[0][v - hi * H];
    gather[1][p] = sel_[1][v - hi * H];
    high[p] = hi ? c0 : 0;
  }
  auto descend = [&](auto& self, unsigned k, std::uint64_t tile) -> void {
    for (unsigned b = 0; b < 2; ++b) {
      const std::uint64_t t = tile | (std::uint64_t{b} << k);
      const V* next = phi[k + 1].data();
      if (k == 0) {
        Key* out = dest(t);
        const std::uint32_t* g = gather[b].data();
        const V* h = high.data();
        for (std::uint32_t p = 0; p < T; ++p) out[p] = static_cast<Key>(next[g[p]] + h[p]);
        done(t);
        continue;
      }
      const std::uint32_t* sel = sel_[b].data();
      V* cur = phi[k].data();
      const V ck = static_cast<V>(T) << (K - 1 - k);
      for (std::uint32_t v = 0; v < H; ++v) {
        const V r = next[sel[v]];
        cur[v] = r;
        cur[v + H] = r + ck;
      }
      self(self, k - 1, t);
    }
  };
  descend(descend, K - 1, 0);
}

}  // namespace bankcheck::inputs
