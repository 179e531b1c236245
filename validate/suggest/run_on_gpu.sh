#!/usr/bin/env bash
# The suggestion applied and measured (docs/layout.md, "Suggesting a layout"):
#   OUT=DIR bash validate/suggest/run_on_gpu.sh
# builds transpose_suggest.cu for sm_90, runs it (times, outputs checked against
# the input), and profiles one launch of each kernel at n = 1024 with Nsight
# Compute's shared-memory wavefront and bank-conflict counters.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "nvcc: $(nvcc --version | tail -n 1)"
  echo "ncu: $(ncu --version | tail -n 1)"
} > "$OUT/environment.txt"
BIN=$(mktemp -d)/transpose_suggest
nvcc -arch=sm_90 -O3 -lineinfo validate/suggest/transpose_suggest.cu -o "$BIN" || exit 1
cuobjdump -sass "$BIN" > "$OUT/transpose_suggest.sass" 2>&1
"$BIN" 8192 21 > "$OUT/times.txt" 2>&1
"$BIN" 1024 3 > "$OUT/times-1024.txt" 2>&1
ncu --launch-count 2 --launch-skip 0 --csv --page raw \
  --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum \
  "$BIN" 1024 1 > "$OUT/ncu.csv" 2> "$OUT/ncu.log"
cat "$OUT/environment.txt" "$OUT/times.txt" "$OUT/ncu.csv"
