#pragma once
// The global merge passes of the CF-Merge device merge sort: how many, which
// tiles each one merges, how the partitions are searched. Shared by
// kernels/cf_merge_sort.cuh's dispatch and the CPU replay of the whole sort
// (tests/sim/algorithms/merge/cf_merge_sort_test.cpp). C++17: the kernel
// header compiles as C++17.
//
// Pass p merges runs of 2^p tiles pairwise into runs of 2^(p+1) tiles,
// reading one buffer and writing the other (CUB's ping-pong). When the tile
// count is not a power of two, the last group of a pass can be a lone run
// with no partner (bit p of num_tiles - 1 is 0): CUB's merge kernel then
// copies it into the other buffer. cf_merge_pass_tiles plans the passes that
// leave such a run where it lies instead (the dispatch's kLeaveLoneRuns). It
// must lie in the input buffer of the next pass that merges it, which is the
// same buffer after an even number of passes; after an odd streak of lone
// passes the last one of the streak still copies it. Example: 2050 tiles (n =
// 2^24 + 12,345 4-byte keys, tiles of 8192) take 12 passes; tiles 2048 and
// 2049 are a lone run in passes 1 to 10 (an even streak), so they are merged
// only in passes 0 and 11 instead of all 12. It saved a one-block launch of
// the partial tile per pass; with the partial tile in the full launches the
// dispatch copies lone runs again, as CUB does: leaving them gained nothing
// at 2^24 + 12,345 and lost up to 10% at 1,000,003 keys (docs/cf-merge.md).
#include <cstdint>

namespace bankcheck {

/// Global merge passes of a sort of `num_tiles` tiles: ceil(log2(num_tiles)), 0 for one tile (CUB's count).
inline int cf_merge_pass_count(std::int64_t num_tiles) {
  int passes = 0;
  while ((std::int64_t{1} << passes) < num_tiles) ++passes;
  return passes;
}

/// The tiles pass `pass` merges: [0, result). The tiles from the result on
/// (none when it is num_tiles) are the trailing lone run of the pass, left in
/// the buffer where they lie; the result is then a multiple of 2^(pass+1), so
/// only whole groups are merged and every tile of a skipped run is full
/// except possibly the last.
/// @pre num_tiles >= 2, 0 <= pass < cf_merge_pass_count(num_tiles).
/// @post the run that a skipped pass leaves is in the input buffer of the
///       next pass that merges every tile (the last pass always does).
inline std::int64_t cf_merge_pass_tiles(std::int64_t num_tiles, int pass) {
  const std::int64_t last = num_tiles - 1;
  auto lone = [&](int p) { return ((last >> p) & 1) == 0; };
  if (!lone(pass)) return num_tiles;
  int first = pass, next = pass + 1;  // the streak of lone passes around `pass`: [first, next)
  while (first > 0 && lone(first - 1)) --first;
  while (lone(next)) ++next;  // ends: bit cf_merge_pass_count - 1 of `last` is set
  if ((next - first) % 2 == 1 && pass == next - 1) return num_tiles;  // odd streak: its last pass moves the run
  return last & ~((std::int64_t{2} << pass) - 1);
}

/// Whether the block sort sorts pairs of tiles (2u threads a block, the same E),
/// doing pass 0's merge inside the block: where its `wide_tiles` blocks take more
/// than one wave of the GPU (`resident` wide blocks at once). The wide block
/// sort takes less than the narrow one and a merge pass together once its blocks
/// fill the GPU (1-4% of the whole sort from 512 tiles on, 4-byte keys, H100),
/// but in a single wave the launch waits on a partial last tile's longer path
/// (2^22 - 1 4-byte keys, 256 wide blocks on 264 places: 4.5% slower than
/// one tile a block) and below a full wave SMs stay idle (2^20 keys: 1.33x).
/// Measured with cf_sort_table --profile (docs/cf-merge.md, item 13).
inline bool cf_wide_block_sort(std::int64_t wide_tiles, std::int64_t resident) { return wide_tiles > resident; }

/// Whether the merge kernel of a pass over `merged` tiles searches its own
/// partitions (no partition kernel): where the GPU holds every block of the
/// pass at once (`resident` blocks), the search costs less than the partition
/// kernel's launch; where blocks queue, every block's search delays the merges
/// behind it (the whole sort 8.8% slower at 2^26 4-byte keys, 4.044 against
/// 3.718 ms). Measured on the H100: cf_sort_table --profile, docs/cf-merge.md.
inline bool cf_merge_fused_partitions(std::int64_t merged, std::int64_t resident) {
  return merged <= resident;
}

/// The partition kernel's probes a step (kernels/cf_warp_partition.cuh, MergePathWide) for a sort of num_tiles tiles:
/// 2^k - 1 for the largest k <= 5 with 2^k (num_tiles + 1) <= 2^15, at least 3. More probes take fewer
/// dependent steps but read more scattered keys a step; on the H100 (cf_sort_table --profile,
/// docs/cf-merge.md) 31 were best up to 245 tiles, 7 at 2048 and 3 at 4096 and 8192.
inline int partition_probes(std::int64_t num_tiles) {
  int pieces = 32;
  while (pieces > 4 && pieces * (num_tiles + 1) > (std::int64_t{1} << 15)) pieces /= 2;
  return pieces - 1;
}

}  // namespace bankcheck
