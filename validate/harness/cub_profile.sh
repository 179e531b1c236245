#!/usr/bin/env bash
# Measured shared-memory counts of cub::DeviceMergeSort (u = 256, E = 17) on
# random keys and on the merge-sort adversary's worst case: one process per
# (n, input), ncu rows of all its CUB kernels summed by cub_summary.py.
#   BIN=build-gpu/bin bash validate/harness/cub_profile.sh RESULTS_DIR [max_i]
set -uo pipefail
res=$1
max_i=${2:-6}
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for i in $(seq 0 "$max_i"); do
  for input in random worst; do
    ncu --clock-control none --csv --page raw --metrics "$metrics" -k regex:DeviceMergeSort \
      "$BIN/kernel.merge" --mode profile --cub --input "$input" --log-tiles-min "$i" --log-tiles-max "$i" \
      > "$res/merge.cub.$i.$input.ncu.csv" 2>> "$res/merge.cub.ncu.err"
  done
done
python3 "$(dirname "$0")/cub_summary.py" "$res" > "$res/merge.cub_profile.csv"
cat "$res/merge.cub_profile.csv"
