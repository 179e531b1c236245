#!/usr/bin/env bash
# The negated-operand rule (docs/bank-model.md, rule 6c) on running kernels:
# on the GPU machine, from the repository root, with build-gpu/capture carried
# (bash validate/capture/build_carry.sh capture):
#   OUT=DIR bash validate/fidelity/cpasync_library_on_gpu.sh
# Re-captures Triton's matmuls (the library's triton_mm_s2, _s3, _s4, _big, cuDNN's tf32
# implicit-GEMM convolution conv_f32, and
# validate/programs/triton_kernels.py matmul) with `bankcheck capture`,
# profiles the same launches with Nsight Compute and compares per SASS
# instruction (validate/programs/run_compare.sh, LAUNCHES=2), keeping the
# first cp.async records of each as text (KEEP_OPS) so their lanes can be
# replayed off the GPU. Within BUDGET_S seconds (default 270); packs
# everything into $OUT/cpasynclib.tar.gz.
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
BUDGET=${BUDGET_S:-270}
C=$PWD/build-gpu/capture
START=$SECONDS
W=$(mktemp -d /tmp/cpasynclib.XXXXXX)
R=$W/cpasynclib
mkdir -p "$R" "$OUT"
. validate/fidelity/probe_env.sh
probe_environment "command: OUT=DIR bash validate/fidelity/cpasync_library_on_gpu.sh"
[ -x "$C/bankcheck" ] || { echo "no $C/bankcheck: carry build-gpu/capture" | tee -a "$R/environment.txt"; exit 1; }
for group in library triton; do
  left=$((BUDGET - (SECONDS - START)))
  echo "$group: $left s left" | tee -a "$R/steps.txt"
  ((left > 40)) || { echo "skipped: $group" | tee -a "$R/environment.txt"; continue; }
  only='triton_mm_s2|triton_mm_s3|triton_mm_s4|triton_mm_big|conv_f32'
  [[ $group == triton ]] && only='triton.matmul'
  timeout "$left" env CUDA_MODULE_LOADING=LAZY LAUNCHES=2 KEEP_OPS='cpasync[.a-z0-9]*' CAPTURE_S=60 NCU_S=60 EXPORT_S=40 \
    ONLY="$only" OUT="$R/$group" B="$C" BANKCHECK="$C/bankcheck" bash validate/programs/run_compare.sh "$group" \
    > "$R/$group.log" 2>&1
  echo "$group: exit $?" | tee -a "$R/steps.txt"
  find "$R/$group" -name '*.ncu-rep' -delete 2>/dev/null
  rm -rf "$R/$group"/programs/cap-* 2>/dev/null
  cat "$R/$group/compare-summary.txt" 2>/dev/null
done
echo "wall: $((SECONDS - START)) s" | tee -a "$R/environment.txt"
tar -C "$W" -czf "$OUT/cpasynclib.tar.gz" cpasynclib
ls -la "$OUT"
