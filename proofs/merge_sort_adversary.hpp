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
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "proofs/adversary_search.hpp"
#include "proofs/merge_adversary.hpp"

namespace bankcheck::proofs {

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
  std::uint64_t cub_wavefronts = 0;    ///< CUB SerialMerge reads
  std::uint64_t bound = 0;             ///< Theorem 8 per warp x warps (section-4 passes), E^2 per warp otherwise
  std::uint64_t warps = 0;
};

class MergeSortAdversary {
 public:
  /// Plans every pass; in-block passes with fewer than 2w threads per merge
  /// are searched (per warp, paper-step cost) within `budget` each.
  explicit MergeSortAdversary(const MergeSortShape& shape, SearchBudget budget = {0.2, 1, ~std::uint64_t{0}});

  const MergeSortShape& shape() const { return shape_; }
  const std::vector<MergePassPlan>& passes() const { return passes_; }

  /// Offset in the block-sorted tile of the key at each input offset of a tile.
  const std::vector<std::uint32_t>& block_permutation() const { return block_perm_; }

  /// Writes the permutation: out[i] = final rank of the key at input position i.
  /// Streams tile by tile (depth-first over the global passes): no memory
  /// beyond `out` but O(tile * passes). @pre out.size() == shape().keys.
  void generate(std::span<std::int32_t> out) const;
  void generate(std::span<std::int64_t> out) const;

  /// Streaming form: `sink(tile_index, keys_of_that_tile)` in depth-first order.
  template <class Key, class Sink>
  void generate_tiles(Sink&& sink) const;

  /// Core of the generators: `dest(tile)` gives where that tile's keys go,
  /// `done(tile)` is called once they are written.
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
  // Level k holds every key's tile offset f and the tile-index bits x gathered
  // by the first k global passes; pass k reads bit k of the input tile index
  // (A = 0, B = 1), so tiles sharing low bits share their first levels: the
  // depth-first walk costs about 2 steps per key in all.
  using X = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;
  std::vector<std::vector<std::uint32_t>> f(K + 1, std::vector<std::uint32_t>(T));
  std::vector<std::vector<X>> x(K + 1, std::vector<X>(T, 0));
  f[0] = block_perm_;
  if (K == 0) {
    Key* out = dest(0);
    for (std::uint32_t p = 0; p < T; ++p) out[p] = static_cast<Key>(f[0][p]);
    done(0);
    return;
  }
  auto descend = [&](auto& self, unsigned k, std::uint64_t tile) -> void {
    for (unsigned b = 0; b < 2; ++b) {
      const std::uint32_t* sel = sel_[b].data();
      const std::uint32_t* fk = f[k].data();
      const X* xk = x[k].data();
      const std::uint64_t t = tile | (std::uint64_t{b} << k);
      if (k + 1 == K) {  // last pass: write the keys (final rank = tile * T + offset) straight out
        Key* out = dest(t);
        for (std::uint32_t p = 0; p < T; ++p) {
          const std::uint32_t v = fk[p];
          const std::uint32_t hi = v >= H;
          out[p] = static_cast<Key>((2 * static_cast<X>(xk[p]) + hi) * T + sel[v - hi * H]);
        }
        done(t);
        continue;
      }
      std::uint32_t* fn = f[k + 1].data();
      X* xn = x[k + 1].data();
      for (std::uint32_t p = 0; p < T; ++p) {
        const std::uint32_t v = fk[p];
        const std::uint32_t hi = v >= H;  // output lands in the second tile of the pair
        fn[p] = sel[v - hi * H];
        xn[p] = 2 * xk[p] + hi;
      }
      self(self, k + 1, t);
    }
  };
  descend(descend, 0, 0);
}

}  // namespace bankcheck::proofs
