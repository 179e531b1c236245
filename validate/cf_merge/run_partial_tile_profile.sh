#!/usr/bin/env bash
# Why a partial tile's block sort is slower than a full one (small
# sorts): Nsight Compute's full sections and per-instruction source counters
# (SASS, stall samples) of one block-sort launch at a partial and at a full
# tile of the same policy:
#   BIN=dir/cf_sort_table OUT=dir bash validate/cf_merge/run_partial_tile_profile.sh
# Cases: the tiny sort's block sort (256 threads x 4, 8-byte keys) at 1000
# and 1024 keys; the small sort's (128 x 32, 4-byte keys) at 4000 and 4096.
# Output: $OUT/partial-tile.tar.gz (details and source pages as CSV).
set -uo pipefail
: "${BIN:?BIN: a cf_sort_table binary}" "${OUT:?OUT: the output directory}"
work=$(mktemp -d)
dir="$work/partial-tile"
mkdir -p "$dir"
source validate/cf_merge/ncu_block_profile.sh
profile() { cf_profile_launch "$dir" "$@"; }  # name policy-regex keys n
profile tiny-u64-1000 'block_sort_kernel<.*Policy<.int.256, .int.4,' 8 1000
profile tiny-u64-1024 'block_sort_kernel<.*Policy<.int.256, .int.4,' 8 1024
profile small-u32-4000 'block_sort_kernel<.*Policy<.int.128, .int.32,' 4 4000
profile small-u32-4096 'block_sort_kernel<.*Policy<.int.128, .int.32,' 4 4096
rm -f "$dir"/*.ncu-rep
tar czf "$OUT/partial-tile.tar.gz" -C "$work" partial-tile
