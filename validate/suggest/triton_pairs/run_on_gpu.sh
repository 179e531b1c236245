#!/usr/bin/env bash
# The Triton pairs against bankcheck's suggestions (docs/layout.md, "Against
# Triton's own choice"), on the GPU machine from the repository root:
#
#   OUT=DIR bash validate/suggest/triton_pairs/run_on_gpu.sh      (about 2 minutes)
#   ONLY_CAPTURE=1 OUT=DIR bash ...                                (step 4 alone, about 1 minute)
#
# with build-gpu/capture carried for step 4 (validate/capture/build_carry.sh
# capture; without it step 4 says skipped). predictions.json was made before
# the run (predict.py) and names each suggestion.
# 1. ttgir: the plain Triton kernels' TTGIR (Triton's own shared layouts) and
#    every Gluon variant's TTGIR and PTX (its shared-memory instructions);
# 2. check: every variant on 128 MiB of tiles, output == input bitwise, median time;
# 3. ncu: one launch of every variant (8 tiles), SourceCounters (wavefronts per
#    SASS instruction) and the kernel-level l1tex counters;
# 4. capture: Triton's convert_layout variants under `bankcheck capture`, and
#    `bankcheck suggest` on each (bankcheck's count of Triton's own layout; a
#    full trace, --no-dedup, as suggest needs every record's location).
# Packs everything into $OUT/triton-pairs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
# the run within BUDGET_S seconds (default 230); each step gets at most what is left, less 15 s to pack
gpu_results triton-pairs "${BUDGET_S:-230}"
STEP_RESERVE=15
P=validate/suggest/triton_pairs
BC=${BANKCHECK:-build-gpu/capture/bankcheck}
{
  gpu_environment
  echo "python: $(python3 -c 'import sys, torch, triton; print(sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1)"
  echo "bankcheck: $BC $([ -x "$BC" ] && echo present || echo absent)"
} >"$R/environment.txt"
cp "$P/predictions.json" "$R/predictions.json"

if [ -z "${ONLY_CAPTURE:-}" ]; then  # ONLY_CAPTURE=1: step 4 alone (a run whose 1-3 are already in)
gpu_step ttgir 90 python3 "$P/pairs.py" ttgir "$R/ir"
gpu_step check 100 python3 "$P/pairs.py" check --reps 21
cp "$R/check.log" "$R/check.txt"
gpu_pack

metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum
gpu_step ncu 120 "$NCU" --section SourceCounters --metrics "$metrics" -k regex:pair_kernel -f -o "$W/prof" \
  python3 "$P/pairs.py" profile "$R/manifest.txt" --tiles 8
gpu_step export 60 "$NCU" -i "$W/prof.ncu-rep" --page source --print-source sass --csv
cp "$R/export.log" "$R/ncu-source.csv"
gpu_step raw 60 "$NCU" -i "$W/prof.ncu-rep" --page raw --csv --metrics "$metrics"
cp "$R/raw.log" "$R/ncu-raw.csv"
gpu_pack
fi

if [ -x "$BC" ]; then
  for c in $(python3 -c "from validate.suggest.triton_pairs import cases; print(' '.join(c['name'] for c in cases.CASES if c['triton'] == 'convert'))"); do
    gpu_step "capture-$c" 45 "$BC" capture --kernel pair_kernel --launch-count 1 --no-dedup -o "$W/cap-$c" -- \
      python3 "$P/pairs.py" capture "$c" triton --tiles 4
    "$BC" suggest "$W/cap-$c" >"$R/suggest-$c.txt" 2>&1
    "$BC" suggest "$W/cap-$c" --json >"$R/suggest-$c.json" 2>>"$R/suggest-$c.txt"
  done
else
  log "no $BC: the captures of Triton's convert_layout skipped"
fi
log "done in $SECONDS s"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" "$R/check.txt" "$R/manifest.txt" 2>/dev/null | head -c 8000
