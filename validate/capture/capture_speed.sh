#!/usr/bin/env bash
# How long capture takes against the program's own run, compute-sanitizer's
# memcheck and Nsight Compute on the same program, one device call,
# on the GPU machine from the repository root, with build-gpu/ carried:
#   OUT=DIR B=DIR BANKCHECK=build/bankcheck bash validate/capture/capture_speed.sh
# The program is validate/library/library_kernels.py's PyTorch script (SDPA,
# cuBLAS, cuDNN, sorts, reductions; about 250 launches). Writes OUT/speed.csv
# (step, exit status, wall seconds) and each capture's capture.json and
# status.log, whose `seconds` and `modules:` lines give the stages.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}" "${B:?set B}" "${BANKCHECK:?set BANKCHECK}"
mkdir -p "$OUT"
W=$(mktemp -d /tmp/speed.XXXXXX)
export CUDA_MODULE_LOADING=LAZY
PROGRAM=(python3 validate/library/library_kernels.py script)
RE='gemm|xmma|nvjet|reduce|softmax|SoftMax|sort|Sort|fmha|flash|conv|fprop|unique|scan|Scan|median'
CAP=("$BANKCHECK" capture --library "$B/libbankcheck_capture.so" --patches "$B/bankcheck_capture_patches.fatbin")
echo "step,exit,seconds" >"$OUT/speed.csv"
step() {  # step NAME LIMIT CMD...
  local name=$1 limit=$2
  shift 2
  local t0
  t0=$(date +%s%N)
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  echo "$name,$rc,$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')" | tee -a "$OUT/speed.csv"
}
keep() {  # keep NAME: the capture's own account of its stages
  cp "$W/$1/capture.json" "$OUT/$1.capture.json" 2>/dev/null
  cp "$W/$1/status.log" "$OUT/$1.status.log" 2>/dev/null
  echo "$1: sass.csv $(wc -l <"$W/$1/sass.csv" 2>/dev/null) lines, $(ls "$W/$1/cubins" 2>/dev/null | wc -l) cubins kept" >>"$OUT/kept.txt"
}
step plain 120 "${PROGRAM[@]}"
step plain-again 120 "${PROGRAM[@]}"
step memcheck 300 compute-sanitizer --tool memcheck "${PROGRAM[@]}"
step capture 300 "${CAP[@]}" --kernel-name-base mangled --kernel "$RE" --launch-count 200 -o "$W/capture" -- "${PROGRAM[@]}"
keep capture
step capture-one 200 "${CAP[@]}" --kernel softmax --launch-count 1 -o "$W/capture-one" -- "${PROGRAM[@]}"
keep capture-one
step summary 300 "${CAP[@]}" --summary --kernel-name-base mangled --kernel "$RE" --launch-count 200 -o "$W/summary" -- "${PROGRAM[@]}"
keep summary
step ncu 300 ncu --section SourceCounters --kernel-name-base mangled -k "regex:$RE" -c 200 -f -o "$W/rep" "${PROGRAM[@]}"
rm -rf "$W"
