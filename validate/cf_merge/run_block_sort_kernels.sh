#!/usr/bin/env bash
# The block-sort kernels of CF and CUB under Nsight Compute, per key and per
# merge level (docs/cf-merge.md item 25): every
# block-sort launch of `cf_sort_table --sweep --sizes $SIZES` (CUB's merge sort,
# the drop-in CF sort and the sweep's forms: the default, small-sort and tiny-sort
# policies), its time, warp instructions, shared-memory wavefronts and bank
# conflicts, for one or more programs (to set two builds side by side):
#   BINS="dir1/cf_sort_table dir2/cf_sort_table" OUT=dir [SIZES=N,N] [KEYS=4|8|all] \
#     bash validate/cf_merge/run_block_sort_kernels.sh
# Each program is labelled by its directory's name. Output in $OUT:
# ncu-LABEL.csv.gz (the raw CSV), block-sort-kernels.md (block_sort_kernels.py's
# table over all of them), gpu.txt. Exit status 1 if a program or ncu failed.
set -uo pipefail
: "${BINS:?BINS: one or more cf_sort_table binaries}" "${OUT:?OUT: the output directory}"
SIZES=${SIZES:-1048576,16777216}
KEYS=${KEYS:-4}
mkdir -p "$OUT"
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
rc=0
args=()
for bin in $BINS; do
  label=$(basename "$(dirname "$bin")")
  timeout 400 ncu --kernel-name-base demangled --metrics "$metrics" --csv --print-units base \
    -k 'regex:DeviceMergeSortBlockSortKernel|block_sort_kernel' \
    "$bin" --sweep --sizes "$SIZES" --reps 3 --keys "$KEYS" > "$OUT/ncu-$label.csv" 2> "$OUT/ncu-$label.err" || rc=1
  args+=("$label=$OUT/ncu-$label.csv")
done
python3 validate/cf_merge/block_sort_kernels.py --sizes "$SIZES" "${args[@]}" > "$OUT/block-sort-kernels.md" || rc=1
gzip -f "$OUT"/ncu-*.csv
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
exit $rc
