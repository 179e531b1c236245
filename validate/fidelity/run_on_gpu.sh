#!/usr/bin/env bash
# The fidelity campaign on the GPU machine, from the repository root:
#   OUT=DIR bash validate/fidelity/run_on_gpu.sh
# Generates the cases (validate/fidelity/make_cases.py, seed SEED, default
# 4646), compiles validate/sm90/microbench.cu and validate/fidelity/atom64.cu,
# runs atom64 natively (the ranks: which execution each lane succeeded in),
# profiles both with Nsight Compute (SourceCounters: per-instruction "L1
# Wavefronts Shared" and "Instructions Executed", one block per launch),
# exports the source and raw pages as CSV and packs everything into
# $OUT/fidelity.tar.gz. Compare on any machine: validate/fidelity/compare.py.
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
HERE=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-4646}
W=$(mktemp -d /tmp/fidelity.XXXXXX)
R=$W/fidelity
mkdir -p "$R" "$OUT"
. "$HERE/probe_env.sh"
probe_environment "seed: $SEED" "command: OUT=DIR bash validate/fidelity/run_on_gpu.sh"
python3 "$HERE/make_cases.py" "$R" "$SEED" || exit 1
NV=(-arch=sm_90 -O2 -std=c++20 -lineinfo -I validate)
nvcc "${NV[@]}" -o "$W/microbench" validate/sm90/microbench.cu > "$R/compile-microbench.log" 2>&1 &
nvcc "${NV[@]}" -o "$W/atom64" "$HERE/atom64.cu" > "$R/compile-atom64.log" 2>&1 &
wait
cuobjdump -sass "$W/microbench" > "$R/microbench.sass" 2>&1
cuobjdump -sass "$W/atom64" > "$R/atom64.sass" 2>&1
grep -E "ATOMS|LDS|STS" "$R/atom64.sass" | head
timeout 60 "$W/atom64" "$R/atom64.cases" "$R/atom64.ranks.txt" 2>&1 | tail -n 2
SRC=(--section SourceCounters --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum)
prof() {  # prof NAME KERNEL_REGEX LIMIT CMD...: ncu_profile with the counters above, both pages
  local name=$1 k=$2 limit=$3
  shift 3
  NCU_RAW=1 ncu_profile "$name" "$limit" "${SRC[@]}" -k "regex:$k" "$@"
}
prof atom64 atom64_probe 130 "$W/atom64" "$R/atom64.cases" "$R/atom64.ranks-ncu.txt"
cmp -s "$R/atom64.ranks.txt" "$R/atom64.ranks-ncu.txt" && echo "ranks: same under ncu" || echo "ranks: DIFFER under ncu"
prof ldst8 one_instruction 200 "$W/microbench" "$R/ldst8.trace"
tar -C "$W" -czf "$OUT/fidelity.tar.gz" fidelity
ls -la "$OUT"
