#!/usr/bin/env bash
# The whole pipeline on the paired 8-byte load campaign's kernels, on the GPU
# machine, from the repository root, with build-gpu/capture carried
# (bash validate/capture/build_carry.sh capture):
#   OUT=DIR bash validate/fidelity/lds64_capture_on_gpu.sh
# Generates the patterns (validate/fidelity/make_lds64_cases.py, seed SEED,
# default 4646), keeps the launches of lds64.plan named by PLAN_LINES (one of
# each form and shape), captures them with `bankcheck capture`, profiles the
# same launches with Nsight Compute and compares per SASS instruction
# (docs/capture.md, "Comparing with Nsight Compute"): what a user of the tool
# would see on these LDS.64 sites, the capture's addresses and lanes
# included. Then, with LIBRARY=1 (default), re-captures the library rows the
# cp.async refinement changed (validate/programs/run_compare.sh library,
# LIBRARY_ONLY, LAUNCHES=2) within what is left of BUDGET_S seconds.
# Packs everything into $OUT/lds64cap.tar.gz.
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
HERE=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-4646}
BUDGET=${BUDGET_S:-270}
PLAN_LINES=${PLAN_LINES:-"1 9 17 18 21 33 35 39 43 45 47 53 59 65 69 75"}
C=$PWD/build-gpu/capture
START=$SECONDS
W=$(mktemp -d /tmp/lds64cap.XXXXXX)
R=$W/lds64cap
mkdir -p "$R" "$OUT"
. "$HERE/probe_env.sh"
probe_environment "seed: $SEED" \
  "command: SEED=$SEED PLAN_LINES=\"$PLAN_LINES\" LIBRARY=${LIBRARY:-1} OUT=DIR bash validate/fidelity/lds64_capture_on_gpu.sh"
[ -x "$C/bankcheck" ] || { echo "no $C/bankcheck: carry build-gpu/capture" | tee -a "$R/environment.txt"; }
python3 "$HERE/make_lds64_cases.py" "$R" "$SEED" || exit 1
grep -v '^#' "$R/lds64.plan" | awk -v keep="$PLAN_LINES" 'BEGIN {n = split(keep, k, " "); for (i = 1; i <= n; ++i) want[k[i]] = 1}
  want[NR]' > "$R/capture.plan"
echo "$(wc -l < "$R/capture.plan") launches: $(cut -d' ' -f1-4 "$R/capture.plan" | tr '\n' ';')"
nvcc -arch=sm_90 -O2 -std=c++20 -lineinfo -I validate -o "$W/lds64" "$HERE/lds64.cu" > "$R/compile-lds64.log" 2>&1 || exit 1
N=$(wc -l < "$R/capture.plan")
RE='lds64_sites'
step() {  # step NAME LIMIT CMD...
  local name=$1 limit=$2 t0=$SECONDS
  shift 2
  timeout "$limit" "$@" > "$R/$name.log" 2>&1
  echo "$name: exit $? after $((SECONDS - t0)) s" | tee -a "$R/steps.txt"
}
step capture 90 "$C/bankcheck" capture --kernel-name-base mangled --kernel "$RE" --launch-count "$N" -o "$W/cap" \
  -- "$W/lds64" "$R/lds64.cases" "$R/capture.plan"
step ncu 90 ncu --section SourceCounters --kernel-name-base mangled -k "regex:$RE" -c "$N" --print-kernel-base mangled \
  -o "$W/rep" -f "$W/lds64" "$R/lds64.cases" "$R/capture.plan"
ncu -i "$W/rep.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled > "$R/ncu.csv" 2>&1
ncu -i "$W/rep.ncu-rep" --page raw --csv --metrics launch__grid_size --print-kernel-base mangled > "$R/launches.ncu.csv" 2>&1
cp "$W/cap/sass.csv" "$R/capture-sass.csv" 2>/dev/null
cp "$W/cap/launches.csv" "$R/capture-launches.csv" 2>/dev/null
step compare 60 "$C/bankcheck" compare --ncu "$R/ncu.csv" --ncu-launches "$R/launches.ncu.csv" "$W"/cap/launch-*.bktrace
"$C/bankcheck" compare --ncu "$R/ncu.csv" --ncu-launches "$R/launches.ncu.csv" --csv "$W"/cap/launch-*.bktrace \
  > "$R/compare.csv" 2>/dev/null
tail -n 5 "$R/compare.log"
# a sample of the captured records of the first launch, as text
timeout 60 "$C/bankcheck" convert "$(ls "$W"/cap/launch-*.bktrace | head -n 1)" - --to text 2>/dev/null | head -n 2000 \
  > "$R/launch0.sample.trace"
if [ "${LIBRARY:-1}" = 1 ]; then
  left=$((BUDGET - (SECONDS - START)))
  echo "library: $left s left" | tee -a "$R/steps.txt"
  if [ "$left" -gt 60 ]; then
    timeout "$left" env CUDA_MODULE_LOADING=LAZY LAUNCHES=2 KEEP_OPS='cpasync[.a-z]*' CAPTURE_S=60 NCU_S=60 EXPORT_S=40 \
      ONLY="${LIBRARY_ONLY:-triton_mm_s2|triton_mm_s3|sdpa_efficient$}" OUT="$R/library" B="$C" BANKCHECK="$C/bankcheck" \
      bash validate/programs/run_compare.sh library > "$R/library.log" 2>&1
    echo "library: exit $?" | tee -a "$R/steps.txt"
    find "$R/library" -name '*.ncu-rep' -delete 2>/dev/null
    rm -rf "$R"/library/programs/cap-* 2>/dev/null
    cat "$R/library/compare-summary.txt" 2>/dev/null
  fi
fi
tar -C "$W" -czf "$OUT/lds64cap.tar.gz" lds64cap
ls -la "$OUT"
