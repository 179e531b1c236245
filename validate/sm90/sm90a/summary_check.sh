#!/usr/bin/env bash
# `capture --summary` of wgmma kernels against full traces (rule 8
# evaluated on the GPU, model/sm90_warp_cost.hpp's operand_bytes_cost), on
# the GPU machine from the repository root, with build-gpu/ carried:
#   OUT=DIR B=DIR BANKCHECK=build/bankcheck bash validate/sm90/sm90a/summary_check.sh
# Programs: the wgmma probes (make_wgmma_probes.py, every set but timing)
# and the TMA + wgmma GEMM (tma_wgmma_gemm.cu). Each is captured with
# --summary and as full traces; `smoke_driver summary-check` compares every
# (launch, instruction) row of summary.csv with the CPU replay of the traces.
# Writes $OUT/summary_check.txt and each capture's summary.csv.
set -uo pipefail
cd "$(dirname "$0")/../../.."
: "${OUT:?set OUT}" "${B:?set B}" "${BANKCHECK:?set BANKCHECK}"
mkdir -p "$OUT"
W=$(mktemp -d /tmp/wgmma-summary.XXXXXX)
RES="$OUT/summary_check.txt"
: >"$RES"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ARCH=(-gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -diag-suppress 550)
for set in default blind int8; do
  args=()
  [ "$set" != default ] && args=(--set "$set")
  python3 validate/sm90/sm90a/make_wgmma_probes.py "${args[@]}" >validate/sm90/sm90a/wgmma_probes.cu
  "$NVCC" "${ARCH[@]}" -o "$W/probes-$set" validate/sm90/sm90a/wgmma_probes.cu >"$OUT/build.probes-$set.log" 2>&1
done
"$NVCC" "${ARCH[@]}" -o "$W/gemm" validate/sm90/sm90a/tma_wgmma_gemm.cu -lcuda >"$OUT/build.gemm.log" 2>&1
for name in probes-default probes-blind probes-int8 gemm; do
  for mode in summary full; do
    extra=()
    [ "$mode" = summary ] && extra=(--summary)
    timeout 180 "$BANKCHECK" capture --library "$B/libbankcheck_capture.so" --patches "$B/bankcheck_capture_patches.fatbin" \
      "${extra[@]}" -o "$W/$mode-$name" -- "$W/$name" >"$OUT/capture.$mode.$name.log" 2>&1
    echo "capture $mode $name: exit $?" >>"$RES"
  done
  cp "$W/summary-$name/summary.csv" "$OUT/$name.summary.csv" 2>/dev/null
  timeout 180 "$B/smoke_driver" summary-check "$W/summary-$name/summary.csv" "$W/full-$name"/launch-*.bktrace \
    >"$OUT/check.$name.log" 2>&1
  echo "summary-check $name: exit $? ($(tail -n 1 "$OUT/check.$name.log"))" >>"$RES"
  echo "$name wgmma rows in summary.csv: $(grep -c ',wgmma,' "$W/summary-$name/summary.csv" 2>/dev/null)" >>"$RES"
done
rm -rf "$W"
cat "$RES"
