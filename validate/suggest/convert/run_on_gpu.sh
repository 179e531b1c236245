#!/usr/bin/env bash
# The conversions whose instructions bankcheck chose with the layout
# (docs/layout.md, "Choosing the instructions"), on the GPU machine from the
# repository root, needing nothing carried:
#
#   OUT=DIR bash validate/suggest/convert/run_on_gpu.sh      (about 1-2 minutes)
#
# predictions/ was made before the run (predict.py: every `bankcheck layout
# --suggest --from --to` command and its output). Steps:
# 1. build: gen_kernel.py writes convert_kernels.cu from predictions/; nvcc
#    for sm_90a; the SASS (which instructions ptxas emitted) and nvdisasm -gi
#    (source lines per instruction);
# 2. check: every kernel on 128 MiB of tiles: output == input transposed, bit for
#    bit (`wrong` elements), median time of 21 samples of 10 launches;
# 3. ncu: one launch of 8 tiles per kernel, SourceCounters (wavefronts per SASS
#    instruction) and the kernel-level l1tex counters; table.py sets them beside
#    bankcheck's counts.
# Packs everything into $OUT/convert.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
# the run within BUDGET_S seconds (default 240); each step gets at most what is left, less 15 s to pack
gpu_results convert "${BUDGET_S:-240}"
STEP_RESERVE=15
P=validate/suggest/convert
gpu_environment >"$R/environment.txt"
cp -r "$P/predictions" "$R/predictions"
gpu_step generate 30 python3 "$P/gen_kernel.py" "$R/convert_kernels.cu" "$P/predictions" || { gpu_pack; exit 1; }
gpu_step build 150 nvcc -gencode arch=compute_90a,code=sm_90a -O3 -lineinfo -std=c++17 -Xptxas -v \
  "$R/convert_kernels.cu" -o "$W/ck" || { gpu_pack; exit 1; }
cuobjdump -sass "$W/ck" >"$R/convert_kernels.sass" 2>&1
mkdir -p "$W/elf" && (cd "$W/elf" && cuobjdump -xelf all "$W/ck" >/dev/null 2>&1)
cubin=$(ls "$W"/elf/*.cubin 2>/dev/null | head -n 1)
[ -n "$cubin" ] && nvdisasm -gi "$cubin" >"$R/convert_kernels.gi.txt" 2>/dev/null
gpu_step check 60 "$W/ck" check
cp "$R/check.log" "$R/check.txt"
gpu_pack

metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_stsm.sum
gpu_step ncu 90 "$NCU" --section SourceCounters --metrics "$metrics" -f -o "$W/prof" "$W/ck" profile
gpu_step export 60 "$NCU" -i "$W/prof.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled
cp "$R/export.log" "$R/ncu-source.csv"
gpu_step raw 60 "$NCU" -i "$W/prof.ncu-rep" --page raw --csv --metrics "$metrics"
cp "$R/raw.log" "$R/ncu-raw.csv"
python3 validate/suggest/ncu_shared.py --sass "$R/ncu-source.csv" --disasm "$R/convert_kernels.gi.txt" \
  --csv "$R/ncu_shared.csv" >"$R/ncu_shared.txt" 2>&1
python3 "$P/table.py" "$R" >"$R/table.md" 2>&1
log "done in $SECONDS s"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" "$R/check.txt" "$R/table.md" 2>/dev/null | head -c 8000
