#!/usr/bin/env bash
# wgmma probes on the H100, in one go, on the GPU machine from
# the repository root, with build-gpu/ carried:
#   OUT=DIR B=DIR BANKCHECK=build/bankcheck [WGMMA_SET=blind] bash validate/sm90/sm90a/run_hopper.sh
# 1. generates and builds validate/sm90/sm90a/wgmma_probes.cu (sm_90a), checks its SASS holds HGMMA;
# 2. runs it (every probe must run without a CUDA error);
# 3. Nsight Compute per instruction (SourceCounters) and the kernel-level shared
#    counters of every op (regex metrics), exported as the source page and the raw page;
# 4. lists the metrics this ncu knows about gmma, TMA and shared memory;
# 5. captures the probe with `bankcheck capture` and compares it per instruction;
# 6. the same for the TMA probes (validate/sm90/sm90a/tma_probes.cu), and checks the capture's
#    tensor maps against the probe's (validate/sm90/sm90a/check_tensor_maps.py, step tma-maps).
# TMA_ONLY=1: step 6 alone.
set -uo pipefail
cd "$(dirname "$0")/../../.."
: "${OUT:?set OUT}" "${B:?set B}" "${BANKCHECK:?set BANKCHECK}"
mkdir -p "$OUT"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
W=$(mktemp -d /tmp/hopper.XXXXXX)
source validate/gpu_env.sh  # gpu_step: each step's output in $OUT/NAME.log, its status in summary.txt
STEP_LOG=$OUT/summary.txt
step() { gpu_step "$@"; }
# WGMMA_SET=blind: the blind set (validate/sm90/sm90a/wgmma_blind_predictions.txt), without the TMA probes;
# WGMMA_SET=int8: the s8/u8 set (validate/sm90/sm90a/wgmma_int8_predictions.txt), likewise;
# WGMMA_SET=timing: one shape in good and bad layouts, timed (cycles per wgmma) and counted, nothing captured
if [ -z "${TMA_ONLY:-}" ]; then
set_args=()
[ -n "${WGMMA_SET:-}" ] && set_args=(--set "$WGMMA_SET")
python3 validate/sm90/sm90a/make_wgmma_probes.py "${set_args[@]}" >validate/sm90/sm90a/wgmma_probes.cu
step build 300 nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -diag-suppress 550 -lineinfo \
  -o "$W/wgmma_probes" validate/sm90/sm90a/wgmma_probes.cu
cuobjdump -sass "$W/wgmma_probes" >"$W/sass.txt" 2>&1
grep -oE "[A-Z]GMMA\.[^ ]*" "$W/sass.txt" | sort | uniq -c >"$OUT/hgmma_forms.txt"
step native 60 "$W/wgmma_probes"
step ncu 300 "$NCU" --section SourceCounters \
  --metrics "regex:^l1tex__data_(bank_conflicts_pipe_lsu|pipe_lsu_wavefronts)_mem_shared.*\.sum$" \
  -f -o "$W/wgmma" "$W/wgmma_probes"
step export 120 "$NCU" -i "$W/wgmma.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled
cp "$OUT/export.log" "$OUT/wgmma.sass.csv"
step raw 120 "$NCU" -i "$W/wgmma.ncu-rep" --page raw --csv --print-kernel-base mangled
cp "$OUT/raw.log" "$OUT/wgmma.raw.csv"
[ "${WGMMA_SET:-}" = timing ] && exit 0
step metrics 60 sh -c "'$NCU' --query-metrics --chip gh100 | grep -iE 'gmma|tma|utma|shared|dsmem|bulk'"
step capture 180 "$BANKCHECK" capture --library "$B/libbankcheck_capture.so" --patches "$B/bankcheck_capture_patches.fatbin" \
  -o "$W/cap" -- "$W/wgmma_probes"
cp "$W/cap/launches.csv" "$OUT/capture-launches.csv" 2>/dev/null
cp "$W/cap/capture.json" "$OUT/capture.json" 2>/dev/null
step compare 120 "$BANKCHECK" compare --ncu "$OUT/wgmma.sass.csv" "$W"/cap/launch-*.bktrace
"$BANKCHECK" compare --ncu "$OUT/wgmma.sass.csv" --csv "$W"/cap/launch-*.bktrace >"$OUT/wgmma.compare.csv" 2>/dev/null
for t in "$W"/cap/launch-*.bktrace; do  # every wgmma record, as text
  "$BANKCHECK" convert "$t" - --to text 2>/dev/null | grep -E "^(at launch|@[^ ]+ wgmma )" >>"$OUT/wgmma-records.trace"
done
[ "${WGMMA_SET:-}" = blind ] || [ "${WGMMA_SET:-}" = int8 ] && exit 0
fi
# TMA: swizzled tiles in and out, read right and wrong (validate/sm90/sm90a/tma_probes.cu)
step tma-build 200 nvcc -arch=sm_90 -O2 -std=c++17 -lineinfo -o "$W/tma_probes" validate/sm90/sm90a/tma_probes.cu -lcuda
cuobjdump -sass "$W/tma_probes" 2>&1 | grep -oE "(UTMA|UBLK|SYNCS)[A-Z0-9.]*" | sort | uniq -c >"$OUT/tma_forms.txt"
step tma-native 60 "$W/tma_probes"
step tma-ncu 200 "$NCU" --section SourceCounters \
  --metrics "regex:^l1tex__data_(bank_conflicts_pipe_lsu|pipe_lsu_wavefronts)_mem_shared.*\.sum$" \
  -f -o "$W/tma" "$W/tma_probes"
step tma-export 120 "$NCU" -i "$W/tma.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled
cp "$OUT/tma-export.log" "$OUT/tma.sass.csv"
step tma-raw 120 "$NCU" -i "$W/tma.ncu-rep" --page raw --csv --print-kernel-base mangled
cp "$OUT/tma-raw.log" "$OUT/tma.raw.csv"
step tma-capture 120 "$BANKCHECK" capture --library "$B/libbankcheck_capture.so" --patches "$B/bankcheck_capture_patches.fatbin" \
  -o "$W/tcap" -- "$W/tma_probes"
cp "$W/tcap/launches.csv" "$OUT/tma-capture-launches.csv" 2>/dev/null
step tma-compare 120 "$BANKCHECK" compare --ncu "$OUT/tma.sass.csv" "$W"/tcap/launch-*.bktrace
"$BANKCHECK" compare --ncu "$OUT/tma.sass.csv" --csv "$W"/tcap/launch-*.bktrace >"$OUT/tma.compare.csv" 2>/dev/null
cp "$W/tcap/tensor_maps.csv" "$W/tcap/launch_tensor_maps.csv" "$W/tcap/status.log" "$OUT/" 2>/dev/null
# The tensor maps the probe encodes, each launch given its two (PASS/FAIL lines)
step tma-maps 30 python3 validate/sm90/sm90a/check_tensor_maps.py "$W/tcap" "$OUT/tma.compare.csv"
rm -rf "$W"
