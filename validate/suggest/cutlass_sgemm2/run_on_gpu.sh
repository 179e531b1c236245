#!/usr/bin/env bash
# CUTLASS 4.2's CuTe tutorial sgemm_2.cu (the nvidia-cutlass wheel's examples),
# TN GEMM, as shipped and with bankcheck's suggestion for its padded sA/sB
# (predictions.txt), on the GPU machine from the repository root:
#
#   OUT=DIR bash validate/suggest/cutlass_sgemm2/run_on_gpu.sh      (about 2 minutes)
#
# with .deps/cutlass-wheel carried (fetch_wheel.sh on the development machine;
# else the installed cutlass_library package is used)
# 1. make_variants.py: orig.cu and suggested.cu from the wheel's example;
# 2. builds both for sm_90 (-O3 -lineinfo), in parallel;
# 3. runs both at the example's default size, transposes T N (times, result hash);
# 4. profiles the first TN launch of each at 512 x 512 x 256 with Nsight
#    Compute's SourceCounters (wavefronts per SASS instruction).
# Packs everything into $OUT/cutlass-sgemm2.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
gpu_results cutlass-sgemm2
D=validate/suggest/cutlass_sgemm2
{
  gpu_environment
  echo "cutlass: $(python3 -c 'import importlib.metadata as m; print(m.version("nvidia-cutlass"))' 2>&1)"
} >"$R/environment.txt"
WHEEL=$(ls .deps/cutlass-wheel/nvidia_cutlass-4.2.0.0-*.whl 2>/dev/null | head -n 1)  # fetch_wheel.sh, carried
python3 "$D/make_variants.py" "$W" ${WHEEL:+--wheel "$WHEEL"} >"$R/make_variants.log" 2>&1 ||
  { log "make_variants failed"; gpu_pack; exit 1; }
SRC=$(dirname "$(dirname "$(dirname "$(dirname "$(head -n 1 "$R/make_variants.log")")")")")  # the wheel's source/
cp "$W/orig.cu" "$W/suggested.cu" "$R/"
for v in orig suggested; do
  timeout 240 nvcc -arch=sm_90 -O3 -std=c++17 -lineinfo -I"$SRC/include" -I"$SRC/tools/util/include" \
    "$W/$v.cu" -o "$W/$v" >"$R/build-$v.log" 2>&1 &
done
wait
log "built: $(ls "$W" | tr '\n' ' ')"
for v in orig suggested; do
  [ -x "$W/$v" ] || { log "$v: no binary"; continue; }
  timeout 60 "$W/$v" 5120 5120 4096 T N >"$R/run-$v.txt" 2>&1
  log "run $v rc=$?"
done
gpu_pack
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for v in orig suggested; do
  [ -x "$W/$v" ] || continue
  timeout 90 "$NCU" --section SourceCounters --metrics "$metrics" -k regex:gemm_device -c 1 -f -o "$W/prof-$v" \
    "$W/$v" 512 512 256 T N >"$R/ncu-$v.log" 2>&1
  log "ncu $v rc=$?"
  "$NCU" -i "$W/prof-$v.ncu-rep" --page source --print-source sass --csv >"$R/ncu-source-$v.csv" 2>&1
  "$NCU" -i "$W/prof-$v.ncu-rep" --page raw --csv --metrics "$metrics" >"$R/ncu-raw-$v.csv" 2>&1
done
python3 "$D/summarize.py" "$R" >"$R/summary.txt" 2>&1
log "done"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" "$R/summary.txt" "$R"/run-*.txt 2>/dev/null | head -c 6000
