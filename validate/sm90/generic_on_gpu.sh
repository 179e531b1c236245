#!/usr/bin/env bash
# Loads and stores through generic pointers into shared memory (LD.E, ST.E),
# against the same cases measured as LDS/STS. Capture records a generic access
# that lands in shared memory as "ld"/"st" (docs/capture.md) and the model
# costs it with the LDS/STS rules: this measures whether the hardware does.
# On the GPU machine, repository root:
#   OUT=DIR bash validate/sm90/generic_on_gpu.sh [SET...]      (default: blind)
# Compiles validate/sm90/microbench.cu, runs each set's cases as single
# generic-form instructions under Nsight Compute (the LDS/STS set's metrics
# and the shared-memory totals of every operation), keeps the generic kernels'
# SASS, and packs $OUT/generic.tar.gz. Then, anywhere:
#   python3 validate/sm90/generic_compare.py DIR/generic SET...
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(blind)
W=$(mktemp -d /tmp/generic.XXXXXX)
R=$W/generic
mkdir -p "$R" "$OUT"
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
  echo "command: OUT=DIR bash validate/sm90/generic_on_gpu.sh ${sets[*]}"
} > "$R/environment.txt"
cat "$R/environment.txt"
nvcc -arch=sm_90 -O2 -std=c++20 -o "$W/microbench" validate/sm90/microbench.cu > "$R/compile.log" 2>&1 ||
  { cat "$R/compile.log"; exit 1; }
cuobjdump -sass "$W/microbench" | grep -E "Function|LD|ST" | grep -vE "LDC|LDG|STG|ULDC" > "$R/sass.txt"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics=$metrics,smsp__inst_executed_op_generic_ld.sum,smsp__inst_executed_op_generic_st.sum
# each set in chunks of CHUNK cases, both forms (shared: LDS/STS, as the set's
# committed H100 measurement; generic: LD.E/ST.E), so a timeout loses one chunk
CHUNK=${CHUNK:-250}
for set in "${sets[@]}"; do
  grep -E '^warp ' "validate/sm90/cases/$set.trace" > "$W/head"
  grep -E '^@' "validate/sm90/cases/$set.trace" | split -l "$CHUNK" -d - "$W/$set.part."
  for part in "$W/$set".part.*; do
    cat "$W/head" "$part" > "$part.trace"
    for form in shared generic; do
      t0=$SECONDS
      arg=$([ "$form" = generic ] && echo generic)
      name=$set.$form.${part##*.}
      timeout 120 ncu --clock-control none --metrics "$metrics" --csv --page raw \
        "$W/microbench" "$part.trace" $arg > "$R/$name.ncu.csv" 2> "$R/$name.ncu.log"
      echo "$name: exit $? after $((SECONDS - t0)) s, $(grep -c '^"[0-9]' "$R/$name.ncu.csv") kernels profiled"
    done
  done
done
tar -C "$W" -czf "$OUT/generic.tar.gz" generic
ls -la "$OUT"
