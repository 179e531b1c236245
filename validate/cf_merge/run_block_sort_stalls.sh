#!/usr/bin/env bash
# Where one block sort's time goes when a block's latency is the sort's
# (1000 to 6000 keys sort in one to six blocks): Nsight Compute's
# full sections and per-instruction source counters with the densest warp
# sampling, at one block an SM (132 tiles on the H100), so that the samples
# count while every block runs as it does alone:
#   BIN=dir/cf_sort_table OUT=dir bash validate/cf_merge/run_block_sort_stalls.sh
# Cases (8-byte keys): the small-sort policy's block sort (128 threads x 16),
# the tiny sort's (256 x 4) and CUB's merge sort's (256 x 8), each at 132 of its
# tiles; and the first two alone, one block of a full tile (2048, 1024 keys)
# against one of a padded partial tile (2000, 1000 keys).
# Output: $OUT/block-sort-stalls.tar.gz (details and source pages as CSV).
set -uo pipefail
: "${BIN:?BIN: a cf_sort_table binary}" "${OUT:?OUT: the output directory}"
work=$(mktemp -d)
dir="$work/block-sort-stalls"
mkdir -p "$dir"
source validate/cf_merge/ncu_block_profile.sh
profile() { cf_profile_launch "$dir" "$1" "$2" 8 "$3" --warp-sampling-interval 0; }  # name kernel-regex n
profile small-u64 'block_sort_kernel<.*Policy<.int.128, .int.16,' $((132 * 2048))
profile tiny-u64 'block_sort_kernel<.*Policy<.int.256, .int.4,' $((132 * 1024))
profile cub-u64 'DeviceMergeSortBlockSortKernel' $((132 * 2048))
profile small-u64-2048 'block_sort_kernel<.*Policy<.int.128, .int.16,' 2048
profile small-u64-2000 'block_sort_kernel<.*Policy<.int.128, .int.16,' 2000
profile tiny-u64-1024 'block_sort_kernel<.*Policy<.int.256, .int.4,' 1024
profile tiny-u64-1000 'block_sort_kernel<.*Policy<.int.256, .int.4,' 1000
rm -f "$dir"/*.ncu-rep
nvidia-smi --query-gpu=name,driver_version --format=csv > "$dir/gpu.txt" 2>&1
tar czf "$OUT/block-sort-stalls.tar.gz" -C "$work" block-sort-stalls
