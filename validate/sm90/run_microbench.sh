#!/usr/bin/env bash
# Measure every case of validate/sm90/cases/*.trace on the GPU under Nsight
# Compute, one single-instruction kernel per case. Run on the GPU machine from
# the repository root; results go to $OUT (or ./sm90-out).
#   bash validate/sm90/run_microbench.sh
set -euo pipefail
out=${OUT:-sm90-out}
mkdir -p "$out"
nvcc -arch=sm_90 -O2 -std=c++20 -o /tmp/sm90_microbench validate/sm90/microbench.cu
cuobjdump --dump-sass /tmp/sm90_microbench | grep -E "Function|LDS|STS" > "$out/sass.txt" || true
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
  ncu --version | tail -1
  nvcc --version | tail -1
} > "$out/environment.txt"
wanted="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum"
ncu --query-metrics > /tmp/allmetrics.txt 2>&1 || true
metrics=""
for m in $wanted; do
  base=${m%.sum}
  if grep -q "^$base " /tmp/allmetrics.txt; then metrics="$metrics,$m"; else echo "metric not available: $m" >> "$out/environment.txt"; fi
done
metrics=${metrics#,}
for set in "$@"; do
  ncu --clock-control none --metrics "$metrics" --csv --page raw \
      /tmp/sm90_microbench "validate/sm90/cases/$set.trace" > "$out/$set.ncu.csv"
  echo "$set: $(($(wc -l < "$out/$set.ncu.csv") - 2)) kernels profiled"
done
cat "$out/environment.txt"
