#!/usr/bin/env bash
# Why a partial tile's block sort is slower than a full one (issue 26, small
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
profile() {  # name policy-regex keys n
  local name=$1 policy=$2 keys=$3 n=$4
  timeout 240 ncu --kernel-name-base demangled -k "regex:$policy" --launch-count 1 --set full \
    --import-source no -o "$dir/$name" "$BIN" --sweep --sizes "$n" --reps 1 --keys "$keys" --pairs 0 \
    > "$dir/$name.log" 2>&1
  ncu -i "$dir/$name.ncu-rep" --page details --csv > "$dir/$name-details.csv" 2>> "$dir/$name.log"
  ncu -i "$dir/$name.ncu-rep" --page source --print-source sass --csv > "$dir/$name-source.csv" 2>> "$dir/$name.log"
  echo "$name rc=$? $(date -u +%H:%M:%S)" >> "$dir/steps.log"
}
profile tiny-u64-1000 'block_sort_kernel<.*Policy<.int.256, .int.4,' 8 1000
profile tiny-u64-1024 'block_sort_kernel<.*Policy<.int.256, .int.4,' 8 1024
profile small-u32-4000 'block_sort_kernel<.*Policy<.int.128, .int.32,' 4 4000
profile small-u32-4096 'block_sort_kernel<.*Policy<.int.128, .int.32,' 4 4096
rm -f "$dir"/*.ncu-rep
tar czf "$OUT/partial-tile.tar.gz" -C "$work" partial-tile
