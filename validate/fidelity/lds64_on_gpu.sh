#!/usr/bin/env bash
# The paired 8-byte load campaign on the GPU machine, from the repository root:
#   OUT=DIR bash validate/fidelity/lds64_on_gpu.sh
# Generates the patterns and the launch plan (validate/fidelity/make_lds64_cases.py,
# seed SEED, default 4646), compiles validate/fidelity/lds64.cu (256 LDS.64
# sites per kernel, eight SASS forms) and validate/sm90/microbench.cu (the
# single-instruction form of the earlier probes, for the first SINGLE patterns
# of each pool), runs lds64 once natively, then profiles both with Nsight
# Compute (SourceCounters: per-instruction "L1 Wavefronts Shared" and
# "Instructions Executed"; the kernel-level shared load wavefronts for
# reference), exports the source and raw pages as CSV and packs everything into
# $OUT/lds64.tar.gz. Then, on any machine:
#   python3 validate/fidelity/collect_lds64.py DIR/lds64
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
HERE=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-4646}
SINGLE=${SINGLE:-64}
PART_A=${PART_A:-36}
W=$(mktemp -d /tmp/lds64.XXXXXX)
R=$W/lds64  # the results folder: the binary is lds64.bin beside it
mkdir -p "$R" "$OUT"
. "$HERE/probe_env.sh"
probe_environment "seed: $SEED" "command: SEED=$SEED SINGLE=$SINGLE OUT=DIR bash validate/fidelity/lds64_on_gpu.sh"
python3 "$HERE/make_lds64_cases.py" "$R" "$SEED" || exit 1
# the single-instruction form: the first SINGLE full and SINGLE masked patterns as a microbench trace
python3 - "$R" "$SINGLE" <<'EOF'
import sys
r, n = sys.argv[1], int(sys.argv[2])
pats = [l.split() for l in open(f"{r}/lds64.cases") if not l.startswith("#")]
full = [p for p in pats if "-1" not in p[1:]][:n]
masked = [p for p in pats if "-1" in p[1:]][:n]
with open(f"{r}/single.trace", "w") as f:
    f.write("# validate/fidelity/lds64_on_gpu.sh: patterns of lds64.cases as single-instruction kernels\nwarp 32\n")
    for p in full + masked:
        f.write(f"@{p[0]} ld 8 " + " ".join("-" if o == "-1" else o for o in p[1:]) + "\n")
EOF
NV=(-arch=sm_90 -O2 -std=c++20 -lineinfo -I validate)
nvcc "${NV[@]}" -o "$W/lds64.bin" "$HERE/lds64.cu" > "$R/compile-lds64.log" 2>&1 &
nvcc "${NV[@]}" -o "$W/microbench" validate/sm90/microbench.cu > "$R/compile-microbench.log" 2>&1 &
wait
[ -x "$W/lds64.bin" ] || { echo "lds64.cu did not compile:"; head -n 5 "$R/compile-lds64.log"; }
cuobjdump -sass "$W/lds64.bin" > "$R/lds64.sass" 2>&1
cuobjdump -sass "$W/microbench" > "$R/microbench.sass" 2>&1
python3 "$HERE/lds64_sites.py" "$R/lds64.sass" | tee "$R/sites.txt"
grep -E "LDS" "$R/lds64.sass" | sed -E 's/.*\*\/ +//; s/ ;.*//; s/R[0-9]+/R/g; s/UR[0-9]+/UR/g; s/P[0-9]/P/g' | sort | uniq -c
t0=$SECONDS
timeout 60 "$W/lds64.bin" "$R/lds64.cases" "$R/lds64.plan" > "$R/native.txt" 2>&1
echo "lds64 native: exit $? after $((SECONDS - t0)) s: $(tail -n 1 "$R/native.txt")"
SRC=(--section SourceCounters --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum)
prof() {  # prof NAME KERNEL_REGEX LIMIT CMD...: ncu_profile with the counters above, both pages
  local name=$1 k=$2 limit=$3
  shift 3
  NCU_RAW=1 ncu_profile "$name" "$limit" "${SRC[@]}" -k "regex:$k" "$@"
}
# the plan in two parts (a part cut short by its timeout loses only its own report)
grep -v '^#' "$R/lds64.plan" | head -n "$PART_A" > "$W/plan-a"
grep -v '^#' "$R/lds64.plan" | tail -n +"$((PART_A + 1))" > "$W/plan-b"
prof lds64a lds64_sites 120 "$W/lds64.bin" "$R/lds64.cases" "$W/plan-a"
prof lds64b lds64_sites 90 "$W/lds64.bin" "$R/lds64.cases" "$W/plan-b"
prof single one_instruction 50 "$W/microbench" "$R/single.trace"
tar -C "$W" -czf "$OUT/lds64.tar.gz" lds64
ls -la "$OUT"
