#!/usr/bin/env bash
# The device's record table (capture/host/ring/record_table.hpp) on the GPU:
#   1. correctness: validate/capture/programs/record_stress.cu captured three
#      ways (the default: records merged on the device; --no-dedup: every
#      record through the ring; --summary) in two cases: `distinct` (more
#      distinct records than the table holds, so the ring takes the rest) and
#      `repeating`; the replays must agree site by site, and with the GPU's
#      summary (record_table_check.py);
#   2. speed: the stress program at $ITERATIONS iterations, plain, with the
#      table, and --no-dedup: warp executions per second;
#   3. the GPT-2 training script (scaling_on_gpu.sh, SKIP_STOP=1) when
#      GPT2=1, into the same archive.
#
#   OUT=DIR [BANKCHECK=build-gpu/capture/bankcheck] [ITERATIONS=1024] [GPT2=1] bash validate/capture/record_table_on_gpu.sh
#
# $OUT gets record_table.tar.gz alone (and scaling.tar.gz with GPT2=1).
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT to a folder for the results}"
TOP=$OUT
OUT=$TOP/record_table
BANKCHECK=${BANKCHECK:-build-gpu/capture/bankcheck}
ITERATIONS=${ITERATIONS:-1024}
WORK=${WORK:-/tmp/bankcheck-record-table}
mkdir -p "$OUT"
rm -rf "$WORK" && mkdir -p "$WORK"
RES=$OUT/record_table.txt
: >"$RES"
GPU_LOG=$RES
source validate/gpu_env.sh  # log, now, since
log "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none); $(nproc) cores"
log "bankcheck: $BANKCHECK ($(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
[ -x "$BANKCHECK" ] || { log "FAIL: no $BANKCHECK"; exit 1; }
PROG=$WORK/record_stress
nvcc -O2 -arch=sm_90 -lineinfo -o "$PROG" validate/capture/programs/record_stress.cu >"$OUT/nvcc.log" 2>&1 ||
  { log "FAIL: nvcc ($(tail -n 3 "$OUT/nvcc.log"))"; exit 1; }

run_case() {  # run_case NAME ITERATIONS DISTINCT
  local name=$1 it=$2 distinct=$3 t
  t=$(now)
  timeout 60 "$PROG" "$it" "$distinct" "$OUT/$name-plain.bin" >"$OUT/$name-plain.log" 2>&1
  log "$name plain: rc=$? $(since "$t") s"
  for run in table ring summary; do
    local flags=()
    [ "$run" = ring ] && flags=(--no-dedup)
    [ "$run" = summary ] && flags=(--summary)
    t=$(now)
    timeout 200 "$BANKCHECK" capture "${flags[@]}" -o "$WORK/$name-$run" -- "$PROG" "$it" "$distinct" "$OUT/$name-$run.bin" \
      >"$OUT/$name-$run.log" 2>&1
    log "$name $run: rc=$? $(since "$t") s, $(du -sb "$WORK/$name-$run" 2>/dev/null | cut -f1) bytes," \
      "launches captured: $(grep -c ",captured," "$WORK/$name-$run/launches.csv" 2>/dev/null)"
    cp "$WORK/$name-$run/launches.csv" "$OUT/$name-$run-launches.csv" 2>/dev/null
    cp "$WORK/$name-$run/capture.json" "$OUT/$name-$run-capture.json" 2>/dev/null
    [ "$run" = summary ] && continue
    timeout 120 "$BANKCHECK" replay "$WORK/$name-$run" --json >"$OUT/$name-$run.json" 2>"$OUT/$name-$run-replay.err"
  done
}
run_case distinct 64 1
run_case repeating 64 0
python3 validate/capture/record_table_check.py "$OUT" "$WORK" distinct repeating 2>&1 | tee -a "$RES"

# Speed: executions per second with the table and through the ring.
run_case speed "$ITERATIONS" 0
python3 validate/capture/record_table_check.py "$OUT" "$WORK" speed 2>&1 | tee -a "$RES"
python3 - "$OUT" <<'PY' 2>&1 | tee -a "$RES"
import json, sys, re
out = sys.argv[1]
def secs(run):
    for line in open(f"{out}/record_table.txt"):
        m = re.match(rf"speed {run}: rc=\d+ ([0-9.]+) s", line)
        if m: return float(m.group(1))
n = json.load(open(f"{out}/speed-table.json"))["totals"]["instructions"]
plain = secs("plain")
for run in ("table", "ring", "summary"):
    s = secs(run)
    print(f"INFO speed {run}: {n} warp executions in {s} s (plain {plain} s): {n / s:.3e} per second, {s / plain:.1f}x plain")
PY
rm -rf "$WORK"
tar -czf "$TOP/record_table.tar.gz" -C "$TOP" record_table && rm -rf "$OUT"
if [ -n "${GPT2:-}" ]; then
  SKIP_STOP=1 FULL_LIMIT=${FULL_LIMIT:-200} OUT=$TOP BANKCHECK=$BANKCHECK bash validate/capture/scaling_on_gpu.sh
fi
ls -la "$TOP"
