#!/usr/bin/env bash
# Karsin 2015 Section 4.2.2 on an H100: GMS vs the static B-tree vs PBS, and
# Nsight Compute's per-instruction global sectors of a small case for the
# comparison with the model (validate/global_search/sector_compare.py, run on the
# development machine). Run from the repository root on the GPU machine:
#
#   OUT=/path/to/out bash validate/global_search/run_on_gpu.sh
#
# Needs nvcc and ncu only (no CMake). Every step runs under `timeout`; the
# whole run keeps under 5 minutes. Files in $OUT (at most 8):
#   env.txt          date, GPU, driver, nvcc and ncu versions
#   timings.csv      search_bench's CSV: median and minimum of 11 timed runs (CUDA events) per algorithm and K
#   ncu_source.csv   ncu --section SourceCounters --page source --print-source sass --csv of the small case
#   run.log          every step's command, exit status and seconds
#   global_search.tar.gz  all of the above plus the build log and the SASS-free binary's stderr
set -u
export LC_ALL=C
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:?set OUT to the directory that receives the results}
ROOT=$(pwd)
WORK=$(mktemp -d /tmp/bankcheck-global.XXXXXX)
mkdir -p "$OUT"
LOG=$WORK/run.log
: > "$LOG"

step() {  # step SECONDS NAME COMMAND...: run under timeout, log status and time
  local limit=$1 name=$2
  shift 2
  local t0=$SECONDS
  echo "== $name: $*" >> "$LOG"
  timeout "$limit" "$@" >> "$WORK/$name.out" 2>> "$WORK/$name.err"
  local rc=$?
  echo "== $name: exit $rc after $((SECONDS - t0)) s" >> "$LOG"
  return $rc
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "repo: $ROOT ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo 'no git'))"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -2
  ncu --version 2>&1 | tail -1
} > "$WORK/env.txt"

BIN=$WORK/search_bench
step 150 build nvcc -arch=sm_90 -O2 -std=c++20 -lineinfo --expt-relaxed-constexpr -I"$ROOT" -o "$BIN" \
  "$ROOT/validate/global_search/search_bench.cu"

if [ -x "$BIN" ]; then
  # Timings: K in shared memory (PBS fits: 2^14, 2^15 keys) and K far beyond it (2^20, 2^24).
  first=1
  for K in 16384 32768 1048576 16777216; do
    if step 40 "time_K$K" "$BIN" --K "$K" --queries 4194304 --per-thread 4 --runs 11; then :; fi
    if [ $first = 1 ]; then cat "$WORK/time_K$K.out" > "$WORK/timings.csv"; first=0
    else tail -n +2 "$WORK/time_K$K.out" >> "$WORK/timings.csv"; fi
  done
  # The small case of `bankcheck run gms|btree K=65536 u=256 q=1 blocks=8 cached=1` (same keys, queries, layout).
  step 120 ncu ncu --section SourceCounters --page source --print-source sass --csv \
    -k regex:'gms_kernel|btree_kernel' "$BIN" --K 65536 --queries 2048 --per-thread 1 --cached 1 --runs 1
  grep -v '^==PROF==' "$WORK/ncu.out" > "$WORK/ncu_source.csv" || true
fi

cp "$WORK/env.txt" "$WORK/run.log" "$OUT/"
[ -f "$WORK/timings.csv" ] && cp "$WORK/timings.csv" "$OUT/"
[ -f "$WORK/ncu_source.csv" ] && cp "$WORK/ncu_source.csv" "$OUT/"
tar -czf "$OUT/global_search.tar.gz" -C "$WORK" . 2>/dev/null
echo "--- env"; cat "$WORK/env.txt"
echo "--- timings"; cat "$WORK/timings.csv" 2>/dev/null
echo "--- steps"; grep 'exit' "$LOG"
