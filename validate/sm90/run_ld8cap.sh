#!/usr/bin/env bash
# Per-instruction measurement of validate/sm90/cases/ld8cap.trace (or CASES=FILE
# NAME=SET, e.g. ld8pair) (8-byte
# loads that bound the merge of paired half warps; predictions committed in
# validate/sm90/ld8cap_predictions.txt before this ran). On the GPU machine,
# from the repository root: OUT=DIR [MICROBENCH=binary] bash validate/sm90/run_ld8cap.sh
# Writes $OUT/ld8cap.sass.csv (ncu's SASS source page, one block per case)
# and $OUT/ld8cap.raw.csv (kernel-level counters).
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
BIN=${MICROBENCH:-/tmp/sm90_microbench}
[ -x "$BIN" ] || nvcc -arch=sm_90 -O2 -std=c++20 -o "$BIN" validate/sm90/microbench.cu
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
CASES=${CASES:-validate/sm90/cases/ld8cap.trace}
NAME=${NAME:-ld8cap}
timeout 240 "$NCU" --section SourceCounters --metrics \
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
  -f -o "$OUT/$NAME" "$BIN" "$CASES" >"$OUT/$NAME.ncu.log" 2>&1
timeout 60 "$NCU" -i "$OUT/$NAME.ncu-rep" --page source --print-source sass --csv >"$OUT/$NAME.sass.csv" 2>&1
timeout 60 "$NCU" -i "$OUT/$NAME.ncu-rep" --page raw --csv >"$OUT/$NAME.raw.csv" 2>&1
rm -f "$OUT/$NAME.ncu-rep"
echo "$NAME: $(grep -c '^"Kernel Name"' "$OUT/$NAME.sass.csv") launches in the source page"
