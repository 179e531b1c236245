#!/usr/bin/env bash
# Where a small sort's time goes (1000 to 30,000 keys), for one or
# more builds of cf_sort_table side by side:
#   BINS="dir/cf_sort_table_a dir/cf_sort_table_b" SIZES=1000,4000 OUT=dir \
#     bash validate/cf_merge/run_small_sizes.sh
# For each binary: (1) the whole sort timed with events, every form of
# `cf_sort_table --sweep --sizes $SIZES` (REPS rounds, default 15), all four key
# types; (2) under Nsight Compute, every sort kernel's duration
# (gpu__time_duration) at NCU_SIZES (default 1000,4000) for 8- and 4-byte keys,
# one round (--reps 1: a warm-up and one timed round), in launch order. The
# difference between (1) and the sum of a sort's kernels in (2) is its launch
# latency and host time. Everything goes to $OUT/small-sizes.tar.gz.
set -uo pipefail
: "${BINS:?BINS: the cf_sort_table binaries}" "${OUT:?OUT: the output directory}"
SIZES=${SIZES:-100,1000,1024,2000,4000,4096,10007,30000}
NCU_SIZES=${NCU_SIZES:-1000,4000}
REPS=${REPS:-15}
mkdir -p "$OUT/small-sizes"
dir="$OUT/small-sizes"
for bin in $BINS; do
  name=$(basename "$bin")
  echo "== $name: sweep at $SIZES" | tee -a "$dir/steps.log"
  timeout 300 "$bin" --sweep --sizes "$SIZES" --reps "$REPS" > "$dir/sweep-$name.md" 2> "$dir/sweep-$name.err"
  echo "rc=$? $(date -u +%H:%M:%S)" >> "$dir/steps.log"
done
for bin in $BINS; do
  name=$(basename "$bin")
  for keys in 8 4; do
    echo "== $name: ncu at $NCU_SIZES, $keys-byte keys" | tee -a "$dir/steps.log"
    timeout 300 ncu --metrics gpu__time_duration.sum --csv --print-units base \
      -k 'regex:block_sort|merge_kernel|partition_kernel|DeviceMergeSort' \
      "$bin" --sweep --sizes "$NCU_SIZES" --reps 1 --keys "$keys" --pairs all \
      > "$dir/ncu-$name-$keys.csv" 2> "$dir/ncu-$name-$keys.err"
    echo "rc=$? $(date -u +%H:%M:%S)" >> "$dir/steps.log"
  done
done
nvidia-smi --query-gpu=name,driver_version --format=csv > "$dir/gpu.txt" 2>&1
tar czf "$OUT/small-sizes.tar.gz" -C "$OUT" small-sizes
