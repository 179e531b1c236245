#!/usr/bin/env bash
# The cp.async and TMA-forms campaign on the GPU machine, from the repository root:
#   OUT=DIR bash validate/fidelity/cpasync_on_gpu.sh
# Generates the cases (validate/fidelity/make_cpasync_cases.py, seed SEED,
# default 4646), compiles validate/fidelity/cpasync.cu and tma_forms.cu,
# runs both once natively (tma_forms checks every tile it loads), then
# profiles them with Nsight Compute (SourceCounters: per-instruction "L1
# Wavefronts Shared" and "Instructions Executed"): tma_forms first, then the
# cp.async cases in chunks, in priority order (the held-out pattern, the
# zero-fill form with its predicate in fixed registers, the many-warp cases and
# their timing twins, the single-warp random cases, the
# partial source sizes), each chunk under a timeout and within a budget of
# BUDGET_S seconds (default 270) in all; a chunk that no longer fits is
# skipped and named in environment.txt (the run is then partial). CHUNKS
# (default "rows pred occ rand:0 rand:1 part") and TMA=0 limit a run to what
# an earlier one missed (the cases of a seed are the same every time). Packs
# everything into $OUT/cpasync.tar.gz. GEN=make_cpasync_reg_cases.py (with
# its seed, 4848, and CHUNKS="sweep tri negocc negrand zfill") runs the
# negated-operand and .ZFILL part instead (it reads Triton's trace through
# the Python module: build-gpu/python/, which build_carry.sh carries by
# default). Then, on any machine:
#   python3 validate/fidelity/collect_cpasync.py DIR/cpasync NAME        (a new set: NAME not taken)
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
HERE=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-4646}
GEN=${GEN:-make_cpasync_cases.py}
BUDGET=${BUDGET_S:-270}
START=$SECONDS
W=$(mktemp -d /tmp/cpasync.XXXXXX)
R=$W/cpasync
mkdir -p "$R" "$OUT"
. "$HERE/probe_env.sh"
probe_environment "seed: $SEED" "generator: $GEN" \
  "command: SEED=$SEED GEN=$GEN CHUNKS=\"${CHUNKS:-rows pred occ rand:0 rand:1 part}\" TMA=${TMA:-1} OUT=DIR bash validate/fidelity/cpasync_on_gpu.sh"
python3 "$HERE/$GEN" "$R" "$SEED" || exit 1
NV=(-arch=sm_90a -O2 -std=c++20 -lineinfo -I validate)
nvcc "${NV[@]}" -o "$W/cpasync.bin" "$HERE/cpasync.cu" > "$R/compile-cpasync.log" 2>&1 &
nvcc "${NV[@]}" -o "$W/tma_forms" "$HERE/tma_forms.cu" -lcuda > "$R/compile-tma_forms.log" 2>&1 &
wait
cuobjdump -sass "$W/cpasync.bin" > "$R/cpasync.sass" 2>&1
cuobjdump -sass "$W/tma_forms" > "$R/tma_forms.sass" 2>&1
grep -hE "LDGSTS|UTMA" "$R/cpasync.sass" "$R/tma_forms.sass" | sed -e 's/^ *//' -e 's/ *;.*//' -e 's/^\/\*[0-9a-f]*\*\/ *//' | sort | uniq -c
if [[ ${TMA:-1} == 1 ]]; then timeout 60 "$W/tma_forms" > "$R/tma_forms.native.txt" 2>&1; echo "tma_forms native: exit $?"; cat "$R/tma_forms.native.txt"; fi
t0=$SECONDS
timeout 90 "$W/cpasync.bin" "$R/cpasync.cases" "$R/native.launches.txt" > "$R/cpasync.native.txt" 2>&1
echo "cpasync native: exit $? after $((SECONDS - t0)) s: $(tail -n 1 "$R/cpasync.native.txt")"

prof() {  # prof NAME LIMIT CMD...: ncu_profile of SourceCounters, the source page only
  local name=$1 limit=$2
  shift 2
  ncu_profile "$name" "$limit" --section SourceCounters "$@"
}
[[ ${TMA:-1} == 1 ]] && prof tma_forms 60 "$W/tma_forms"
# the chunks, in priority order: the family prefixes of the case names (CHUNKS: a subset, e.g. "pred")
for chunk in ${CHUNKS:-rows pred occ rand:0 rand:1 part}; do
  family=${chunk%%:*}
  part=${chunk#*:}
  [[ $part == "$chunk" ]] && part=all
  file=$R/chunk-$family-$part.cases
  grep "^cpa-$family-" "$R/cpasync.cases" | { if [[ $part == all ]]; then cat; else awk -v p="$part" 'NR % 2 == p'; fi; } > "$file"
  n=$(wc -l < "$file")
  left=$((BUDGET - (SECONDS - START)))
  need=$((n * 35 / 100 + 10))
  if ((left < need)); then
    echo "skipped: chunk $family-$part ($n cases, about $need s; $left s left)" | tee -a "$R/environment.txt"
    continue
  fi
  prof "cpasync-$family-$part" "$left" -k "regex:cpasync_probe|cg_srcsize_p1|cg_ignore_p[02]|reg_probe" "$W/cpasync.bin" "$file" "$R/chunk-$family-$part.launches.txt"
done
echo "wall: $((SECONDS - START)) s" | tee -a "$R/environment.txt"
tar -C "$W" -czf "$OUT/cpasync.tar.gz" cpasync
ls -la "$OUT"
