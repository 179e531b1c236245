#!/usr/bin/env bash
# `bankcheck suggest` on the default (deduplicated) capture against the same
# program's `--no-dedup` capture (docs/capture.md, "Suggesting a layout from a
# capture"), on the GPU machine from the repository root, with build-gpu/capture
# carried (bash validate/capture/build_carry.sh capture, from this commit):
#
#   OUT=DIR bash validate/suggest/dedup_on_gpu.sh          (about 3 minutes)
#
# 1. builds suggest_kernels.cu (sm_90a, -lineinfo), as run_cases.sh does;
# 2. captures each case's naive kernel (4 blocks) twice, with the record table
#    (the default) and with --no-dedup, and runs `bankcheck suggest --json` and
#    text on both (suggest-CASE.{dedup,full}.{json,txt});
# 3. profiles the same launch with Nsight Compute (SourceCounters) and exports
#    the source page and the launch list (ncu-CASE.csv, ncu-launches-CASE.csv),
#    so that `bankcheck compare` (and the suggestion it offers) can run on the
#    returned captures without a GPU;
# 4. the Triton transpose, captured both ways, when torch and triton import;
# 5. validate/suggest/dedup_compare.py: dedup against --no-dedup, buffer by
#    buffer, and --no-dedup against the committed validate/results/h200-2026-11-29/suggest/cases.
# Packs everything into $OUT/dedup-suggest.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
# the run within BUDGET_S seconds (default 280); each step gets at most what is left, less 15 s to pack
gpu_results dedup-suggest "${BUDGET_S:-280}"
STEP_RESERVE=15
BC=${BANKCHECK:-build-gpu/capture/bankcheck}
CASES=${CASES:-"ldsm_trans cpasync_ldsm sgemm row_scan softmax transpose_fp16 matvec stmatrix transpose_int8"}
{
  gpu_environment
  echo "bankcheck: $BC; $("$BC" --version 2>&1 | head -n 1)"
} >"$R/environment.txt"
if [ ! -x "$BC" ]; then
  log "no $BC: nothing to capture"
  gpu_pack
  exit 1
fi
FLAGS=(-gencode arch=compute_90a,code=sm_90a -O3 -lineinfo -std=c++17)
gpu_step build0 150 nvcc "${FLAGS[@]}" validate/suggest/suggest_kernels.cu -o "$W/sk0" || { gpu_pack; exit 1; }

suggest_both() {  # suggest_both CASE: suggest on both captures of CASE, text and JSON
  local c=$1 kind
  for kind in dedup full; do
    "$BC" suggest "$W/cap-$kind-$c" >"$R/suggest-$c.$kind.txt" 2>&1
    "$BC" suggest "$W/cap-$kind-$c" --json >"$R/suggest-$c.$kind.json" 2>>"$R/suggest-$c.$kind.txt"
    mkdir -p "$R/captures/$kind/$c" &&  # all but the cubins
      cp "$W/cap-$kind-$c"/{launches.csv,capture.json,sass.csv,status.log,queries.csv} "$W/cap-$kind-$c"/launch-* \
        "$R/captures/$kind/$c/" 2>/dev/null
  done
}

for c in $CASES; do
  gpu_step "capture-dedup-$c" 40 "$BC" capture --kernel-name-base mangled -o "$W/cap-dedup-$c" -- "$W/sk0" capture "$c"
  gpu_step "capture-full-$c" 40 "$BC" capture --no-dedup --kernel-name-base mangled -o "$W/cap-full-$c" -- "$W/sk0" capture "$c"
  suggest_both "$c"
done
gpu_pack
for c in $CASES; do
  gpu_step "ncu-$c" 40 "$NCU" --section SourceCounters --kernel-name-base mangled --print-kernel-base mangled \
    -f -o "$W/rep-$c" "$W/sk0" capture "$c" &&
    "$NCU" -i "$W/rep-$c.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled \
      >"$R/ncu-$c.csv" 2>"$R/ncu-export-$c.log" &&
    "$NCU" -i "$W/rep-$c.ncu-rep" --page raw --csv --metrics launch__grid_size --print-kernel-base mangled \
      >"$R/ncu-launches-$c.csv" 2>>"$R/ncu-export-$c.log"
  "$BC" compare --ncu "$R/ncu-$c.csv" --ncu-launches "$R/ncu-launches-$c.csv" "$W/cap-dedup-$c"/launch-*.bktrace \
    >"$R/compare-$c.txt" 2>&1
done
gpu_pack

if [ -z "${SKIP_TRITON:-}" ] && python3 -c "import triton, torch" 2>/dev/null; then
  gpu_step capture-dedup-triton_transpose 60 "$BC" capture --kernel transpose_kernel --launch-count 1 \
    -o "$W/cap-dedup-triton_transpose" -- python3 validate/suggest/triton_transpose.py 256 1
  gpu_step capture-full-triton_transpose 60 "$BC" capture --no-dedup --kernel transpose_kernel --launch-count 1 \
    -o "$W/cap-full-triton_transpose" -- python3 validate/suggest/triton_transpose.py 256 1
  suggest_both triton_transpose
else
  log "no triton/torch: the Triton case skipped"
fi
python3 validate/suggest/dedup_compare.py "$R" validate/results/h200-2026-11-29/suggest/cases >"$R/dedup_compare.txt" 2>&1
log "dedup_compare rc=$?"
log "done in $SECONDS s"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" "$R/dedup_compare.txt"
