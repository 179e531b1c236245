#!/usr/bin/env bash
# Follow-up of the 2026-11-22 H100 run: PBS's wavefronts matched the model
# exactly except at the largest shared-memory sizes (K = 32768 4-byte keys,
# K = 16384 8-byte keys, >= 128 KiB per block), where ncu counted 0.01-0.4%
# more wavefronts, loads and stores alike. Questions, one ncu run each:
#   repeat   is the excess the same on a second run of the same launches?
#   pad      K = 16384 (64 KiB, matched) plus 70000 unused bytes per block:
#            does the allocation size alone bring the excess?
#   carveout K = 16384 with the shared carveout forced to 100%
#   source   per-SASS-instruction shared wavefronts (SourceCounters) of the
#            K = 32768 PBS-CF random launch (predicted conflict-free)
#   BIN=build-gpu/bin PRED=build-gpu/predicted bash validate/harness/investigate_pbs.sh RESULTS_DIR
set -uo pipefail
res=$1
mkdir -p "$res"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
cmp() {  # name predicted-dir
  python3 validate/harness/launch_compare.py --title "$1" --predicted "$2/pbs.predicted.csv" --manifest "$res/$1/pbs.manifest.csv" \
    --ncu "$res/$1.ncu.csv" --csv "$res/$1.compare.csv" --markdown "$res/$1.summary.md"
}
prof() {  # name predicted-dir args...
  local name=$1 pred=$2
  shift 2
  mkdir -p "$res/$name"
  ncu --clock-control none --csv --page raw --metrics "$metrics" -k regex:phased_kernel \
    "$BIN/kernel.pbs" --mode profile --out "$res/$name" "$@" > "$res/$name.ncu.csv" 2>> "$res/investigate.err"
  cmp "$name" "$pred"
}
for rep in 1 2; do
  prof "repeat$rep-K32768" "$PRED" --bytes 4 --log-k-min 15 --log-k-max-4 15
done
prof "pad-K16384" "$PRED/pad" --bytes 4 --log-k-min 14 --log-k-max-4 14 --pad-shared 70000
prof "carveout100-K16384" "$PRED/carveout" --bytes 4 --log-k-min 14 --log-k-max-4 14 --carveout 100
for k in 14 15; do
  ncu --clock-control none --section SourceCounters -k regex:phased_kernel --launch-skip 1 --launch-count 1 \
    -o "$res/source-K$k" -f "$BIN/kernel.pbs" --mode profile --out "$res" --bytes 4 --log-k-min $k --log-k-max-4 $k \
    > /dev/null 2>> "$res/investigate.err"
  ncu -i "$res/source-K$k.ncu-rep" --page source --csv --print-source sass > "$res/source-K$k.csv" 2>> "$res/investigate.err"
  echo "source K=2^$k: $(wc -l < "$res/source-K$k.csv") lines"
  grep -E "LDS|STS" "$res/source-K$k.csv" | head -20
  rm -f "$res/source-K$k.ncu-rep"
done
