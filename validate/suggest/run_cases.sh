#!/usr/bin/env bash
# The suggestions applied and measured, nine CUDA tiles and a Triton kernel
# (docs/layout.md, "Suggesting a layout"), on the GPU machine from the
# repository root, with build-gpu/capture carried (validate/capture/build_carry.sh capture):
#
#   OUT=DIR bash validate/suggest/run_cases.sh          (about 5 minutes)
#
# 1. builds suggest_kernels.cu (sm_90a, -lineinfo);
# 2. captures each naive kernel on 4 blocks with `bankcheck capture` and runs
#    `bankcheck suggest` on it (suggest-CASE.txt/.json: the buffer, the
#    instructions, the map and its predicted wavefronts, before anything is measured);
# 3. rebuilds with those maps (capmaps.h: the capture-map variant);
# 4. times every variant at full size (times.txt: median of 15 launches,
#    outputs checked bitwise against the naive variant and it against the CPU);
# 5. profiles one small launch of every variant with Nsight Compute
#    (SourceCounters: wavefronts per SASS instruction, ncu_shared.txt; and the
#    kernel-level l1tex counters, ncu-raw.csv);
# 6. the Triton transpose: time, kernel-level counters, capture and suggest.
# Packs everything into $OUT/suggest.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
# the run within BUDGET_S seconds (default 500); each step gets at most what is left, less 20 s to pack
gpu_results suggest "${BUDGET_S:-500}"
STEP_RESERVE=20
BC=${BANKCHECK:-build-gpu/capture/bankcheck}
CASES=${CASES:-"ldsm_trans cpasync_ldsm sgemm row_scan softmax transpose_fp16 matvec stmatrix transpose_int8"}  # CASES=... runs some
{
  gpu_environment
  echo "bankcheck: $BC"
} >"$R/environment.txt"
FLAGS=(-gencode arch=compute_90a,code=sm_90a -O3 -lineinfo -std=c++17)
gpu_step build0 150 nvcc "${FLAGS[@]}" validate/suggest/suggest_kernels.cu -o "$W/sk0" || { gpu_pack; exit 1; }

if [ -x "$BC" ]; then
  for c in $CASES; do
    gpu_step "capture-$c" 60 "$BC" capture -o "$W/cap-$c" -- "$W/sk0" capture "$c"
    "$BC" suggest "$W/cap-$c" >"$R/suggest-$c.txt" 2>&1
    "$BC" suggest "$W/cap-$c" --json >"$R/suggest-$c.json" 2>>"$R/suggest-$c.txt"
    mkdir -p "$R/captures/$c" && cp "$W/cap-$c"/{launches.csv,capture.json,sass.csv,status.log} "$R/captures/$c/" 2>/dev/null
  done
else
  log "no $BC: captures skipped"
fi
python3 validate/suggest/capmaps.py "$R" >"$W/capmaps.h" 2>"$R/capmaps.err"
cp "$W/capmaps.h" "$R/capmaps.h"
gpu_step build 150 nvcc "${FLAGS[@]}" -DHAVE_CAPMAPS -I"$W" validate/suggest/suggest_kernels.cu -o "$W/sk" || cp "$W/sk0" "$W/sk"
mkdir -p "$W/elf" && (cd "$W/elf" && cuobjdump -xelf all "$W/sk" >/dev/null 2>&1)
cubin=$(ls "$W"/elf/*.cubin 2>/dev/null | head -n 1)
[ -n "$cubin" ] && nvdisasm -gi "$cubin" >"$R/suggest_kernels.gi.txt" 2>/dev/null
gpu_step time 150 "$W/sk" time $CASES
cp "$R/time.log" "$R/times.txt"
gpu_pack

metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_stsm.sum,smsp__inst_executed_op_ldgsts.sum
gpu_step ncu 240 "$NCU" --section SourceCounters --metrics "$metrics" -f -o "$W/prof" "$W/sk" profile $CASES
gpu_step export 120 "$NCU" -i "$W/prof.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled
cp "$R/export.log" "$R/ncu-source.csv"
gpu_step raw 120 "$NCU" -i "$W/prof.ncu-rep" --page raw --csv --metrics "$metrics"
cp "$R/raw.log" "$R/ncu-raw.csv"
python3 validate/suggest/ncu_shared.py --sass "$R/ncu-source.csv" --disasm "$R/suggest_kernels.gi.txt" \
  --csv "$R/ncu_shared.csv" >"$R/ncu_shared.txt" 2>&1
gpu_pack

if [ -z "${SKIP_TRITON:-}" ] && python3 -c "import triton, torch" 2>/dev/null; then
  gpu_step triton-time 90 python3 validate/suggest/triton_transpose.py 8192 15
  gpu_step triton-ncu 90 "$NCU" --metrics "$metrics" --csv --page raw -k regex:transpose_kernel -c 1 \
    python3 validate/suggest/triton_transpose.py 1024 1
  if [ -x "$BC" ]; then
    gpu_step triton-capture 90 "$BC" capture --kernel transpose_kernel --launch-count 1 -o "$W/cap-triton" -- \
      python3 validate/suggest/triton_transpose.py 256 1
    "$BC" suggest "$W/cap-triton" >"$R/suggest-triton_transpose.txt" 2>&1
    "$BC" suggest "$W/cap-triton" --json >"$R/suggest-triton_transpose.json" 2>>"$R/suggest-triton_transpose.txt"
    mkdir -p "$R/captures/triton" && cp "$W/cap-triton"/{launches.csv,capture.json,sass.csv,status.log} "$R/captures/triton/" 2>/dev/null
  fi
else
  log "no triton/torch: the Triton case skipped"
fi
log "done in $SECONDS s"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" "$R/times.txt"
head -c 6000 "$R/ncu_shared.txt"
