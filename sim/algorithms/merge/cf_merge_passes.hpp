#pragma once
// The global merge passes of the CF-Merge device merge sort: how many, where
// the block sort sorts two tiles a block, how the partitions are searched. Shared by
// kernels/cf_merge_sort.cuh's dispatch and the CPU replay of the whole sort
// (tests/sim/algorithms/merge/cf_merge_sort_test.cpp). C++17: the kernel
// header compiles as C++17.
//
// Which runs each pass merges is the plan's (cf_pass_plan.hpp).
#include <cstdint>

#include "model/hd.hpp"

namespace bankcheck {

/// Global merge passes of a sort of `num_tiles` tiles: ceil(log2(num_tiles)), 0 for one tile (CUB's count).
BANKCHECK_HD inline int cf_merge_pass_count(std::int64_t num_tiles) {
  int passes = 0;
  while ((std::int64_t{1} << passes) < num_tiles) ++passes;
  return passes;
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

/// Whether the merge passes follow the balanced plan (cf_pass_plan.hpp) instead of CUB's: where
/// the `num_tiles` tiles take more than one wave of the merge kernel (`resident` blocks at once).
/// There a pass's time follows its tiles, and the balanced plan saves the first pass's singles:
/// 5.4-6.1% of the whole sort just above a power of two (2050, 4100 and 8194 tiles, H100). In one
/// wave a pass's time is one block's latency on the SMs that hold the most merging blocks: the
/// first pass's saving is small, and CUB's plan puts its lone runs' copies, cheaper than merges,
/// on the SMs that hold a second block; there the two plans measured 0.937 to 1.067 of each
/// other (123 to 272 tiles). cf_sort_table --profile, docs/cf-merge.md item 15.
inline bool cf_balanced_plan(std::int64_t num_tiles, std::int64_t resident) { return num_tiles > resident; }

/// Whether the drop-in sort takes the small-sort policy (half the threads a block, half the
/// tile) instead of the default: where the default's `num_tiles` tiles are at most 3 an SM
/// (`sms`), or where they are at most 12 an SM and the small-sort dispatch's block sort sorts
/// pairs of its tiles (`wide_block_sort`, cf_wide_block_sort: the default's block sort, its
/// passes then as many as the default's). Up to 3 an SM every SM holds few blocks, a pass's
/// time is the latency of the SMs with the most, and blocks of half the keys halve that step
/// for one more pass: faster or level at every profiled size up to 272 default tiles for every
/// key type (0.99 to 1.35x, cf_sort_table --profile, docs/cf-merge.md item 16), and in
/// cf_sort_table --sweep up to 3.45 an SM; from 3.5 to 4 an SM, where the block sort is not
/// wide and the extra pass stays, 1.2-2.5% slower (4- and 8-byte keys). With the wide block
/// sort only the merge kernel differs, and half-tile merges were faster at every size of the
/// sweep from 4 to 12 an SM (u64 keys up to 1.15x just above one wave of the default's 528
/// resident merge blocks, 4-byte pairs 1.02-1.12x), level (within 1.2%) from 12 to 15.5 an SM
/// and 0.5-2.3% slower at 16 to 31 an SM (8-byte keys and pairs, 2^22 to 2^24 keys; H100,
/// 2026-11-27, item 19).
inline bool cf_small_sort(std::int64_t num_tiles, std::int64_t sms, bool wide_block_sort) {
  return num_tiles <= 3 * sms || (wide_block_sort && num_tiles <= 12 * sms);
}

/// Whether the drop-in sort takes the small-sort policy where the tiny sort would sort
/// `tiny_tiles` tiles of its own: from 2 to 8 of them (1 to 4 of the small sort's, twice the
/// size), for keys only (`words`, 4-byte words of keys and values a thread of the default
/// policy holds: 32 for keys, 64 for pairs). A sort that small is one block's latency a step,
/// and there the small sort's bigger tile saves a merge pass for a longer block sort. With
/// keys only that pays: cf_sort_table --sweep --sizes (H100, 2026-11-27, after the padding
/// test became a warp reduction and an or-barrier, docs/cf-merge.md item 24) measured the
/// small sort faster at 2 to 7 tiny tiles (8-byte keys at 2000: 1.085 of CUB's speed against
/// 0.942, 6000: 1.100 against 1.039; 4-byte keys at 4000: 1.039 against 0.832, 10,007: 1.109
/// against 1.033), level at 8 and slower from 10 (4-byte keys at 20,000 1.077 against 1.125)
/// and at one tile (8-byte keys at 1000: 1.076 against 1.098). With pairs its thread's work
/// doubles and the tiny sort stays faster (8-byte pairs at 2000: 1.090 against 1.002; 4-byte
/// pairs at 4000 0.984 against 0.843).
inline bool cf_small_sort_for_few_tiles(std::int64_t tiny_tiles, int words) {
  return words <= 32 && tiny_tiles >= 2 && tiny_tiles <= 8;
}

/// Whether the drop-in sort takes the tiny-sort policy (the default's threads, a quarter of its
/// keys a thread) instead of the small-sort policy: where its `tiny_tiles` tiles are at most one
/// an SM (`sms`). A sort that small is one block's latency a step, and a thread's E keys are its
/// serial part (sorting them, the merge's E steps). cf_sort_table --sweep --ends (H100,
/// 2026-11-27, 1 to 2^19 keys, item 22): the tiny policy faster or level (within 1%) at every
/// size up to 2^18 4-byte keys (128 of its tiles), 100,003 8-byte keys (98 tiles) for every key
/// type (4-byte pairs at 1000 keys 0.0187 against 0.0350 ms, 8-byte pairs 0.0167 against
/// 0.0254); slower at 256 tiles of 8-byte keys (0.0548 against 0.0497) and of 4-byte keys and
/// pairs (2^19: 1.04-1.17x).
inline bool cf_tiny_sort(std::int64_t tiny_tiles, std::int64_t sms) { return tiny_tiles <= sms; }

/// Whether the merge kernel of a pass over `merged` tiles searches its own
/// partitions (no partition kernel): where the GPU holds every block of the
/// pass at once (`resident` blocks), the search costs less than the partition
/// kernel's launch; where blocks queue, every block's search delays the merges
/// behind it (the whole sort 8.8% slower at 2^26 4-byte keys, 4.044 against
/// 3.718 ms). Measured on the H100: cf_sort_table --profile, docs/cf-merge.md.
inline bool cf_merge_fused_partitions(std::int64_t merged, std::int64_t resident) {
  return merged <= resident;
}

/// Whether a merge pass's launch of `grid` blocks may overlap the kernel before it (programmatic
/// dependent launch, kernels/cf_launch.cuh), `resident` blocks of the merge kernel fitting the
/// GPU at once: everywhere except where more than half and at most three quarters of the
/// resident blocks run (resident / 2 < grid <= 3 resident / 4). There the next pass's early
/// blocks take every place the running pass leaves, and the rest wait for places. Overlapped,
/// the whole sort was 3.6-12% slower there than with each kernel launched after the last
/// (8-byte pairs 1.1-3.9%), for every key type at every size of cf_sort_table --sweep in the
/// band (H100, 2026-11-27: 2^19 to 2^22 keys by 2^16, the small-sort policy's merge kernel,
/// 528 or 1056 resident blocks); below the band overlapped was faster (up to 15%: 2^20 4-byte
/// keys, 0.066 against 0.076 ms), above it up to the resident count level or faster (within
/// 0.4% where slower). Why the band ends near three quarters is measured, not explained
/// (docs/cf-merge.md item 18).
inline bool cf_overlapped_launch(std::int64_t grid, std::int64_t resident) {
  return !(2 * grid > resident && 4 * grid <= 3 * resident);
}

/// Whether the sort takes one more resident block an SM (a tighter register cap, the same tile)
/// for its passes of `grid` blocks, `resident` blocks of the merge kernel fitting the GPU at once
/// and `tighter_resident` with the tighter cap: where that moves the grid from more than half the
/// resident blocks to at most half (resident < 2 grid <= tighter_resident), below the band where
/// overlapped launches cost (cf_overlapped_launch), so the next pass's blocks all fit beside the
/// running one. cf_sort_table --sweep (H100, 2026-11-27, the small-sort policy with 4 or 5 blocks
/// an SM for pairs, 8 or 9 for keys): there 4-9% faster for every key type (4-byte pairs at 272-320
/// of 528 blocks 0.91-0.94 of the time, 8-byte pairs at 288-320 0.96, 4-byte keys at 544-592 of
/// 1056 0.94-0.95, 8-byte keys at 544-576 0.93-0.94); in the band of the new count or above
/// half of both level or slower (1.00-1.12), below half of both 0.99-1.04 (docs/cf-merge.md
/// item 20).
inline bool cf_tighter_register_cap(std::int64_t grid, std::int64_t resident, std::int64_t tighter_resident) {
  return 2 * grid > resident && 2 * grid <= tighter_resident;
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
