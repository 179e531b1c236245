#!/usr/bin/env bash
# A whole training script under `bankcheck capture` (docs/scaling.md, "Full
# traces of a training script"): validate/capture/programs/gpt2_train.py (a
# 4-layer GPT-2 of GPT-2 small's width, 3 AdamW steps under bf16 autocast, a
# greedy generate() of 32 tokens), run
#   1. plainly, twice (its output must not vary by itself),
#   2. under `capture --summary`,
#   3. under a full capture (identical records merged, the default) with
#      --max-bytes $MAX_BYTES (default 4 GB) and a time limit,
#   4. under a full capture with --no-dedup (every record with its location,
#      as before deduplication), stopped by SIGINT after $STOP_AFTER seconds
#      (default 60): its folder must exist, say partial, be readable by replay,
#      and no staging folder (.NAME.capture-*) may be left,
# then replays the full capture (`bankcheck replay DIR --json`) and checks it
# against the summary capture, launch by launch (records) and in total
# (wavefronts, ideal), and that every run's program output equals the plain
# run's. Times are wall seconds of the whole command (Python start included).
#
#   OUT=DIR [BANKCHECK=build-gpu/capture/bankcheck] [PROG_ARGS="--batch 2 --seq 128"] [FULL_LIMIT=200]
#       [SKIP_STOP=1] bash validate/capture/scaling_on_gpu.sh
#
# PROG_ARGS go to the program (its defaults: batch 8, 256 tokens); FULL_LIMIT
# is the full capture's time limit in seconds; SKIP_STOP=1 leaves out step 4.
#
# BANKCHECK comes from `bash validate/capture/build_carry.sh capture` on the
# development machine (build-gpu/capture, carried). Captures go to $WORK
# (default /tmp/bankcheck-scaling); $OUT/scaling/ gets the logs, each
# capture's capture.json, launches.csv, status.log, summaries, packed into
# $OUT/scaling.tar.gz (the only file at the top of $OUT).
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT to a folder for the results}"
TOP=$OUT
OUT=$TOP/scaling
read -r -a ARGS <<<"${PROG_ARGS:-}"
BANKCHECK=${BANKCHECK:-build-gpu/capture/bankcheck}
MAX_BYTES=${MAX_BYTES:-4000000000}
STOP_AFTER=${STOP_AFTER:-60}
WORK=${WORK:-/tmp/bankcheck-scaling}
PROG=validate/capture/programs/gpt2_train.py
CHECK=validate/capture/scaling_check.py
mkdir -p "$OUT"
rm -rf "$WORK" && mkdir -p "$WORK"
RES=$OUT/scaling.txt
: >"$RES"
GPU_LOG=$RES
source validate/gpu_env.sh  # log, now, since (with one decimal here)
bytes() { du -sb "$1" 2>/dev/null | cut -f1; }
# PyTorch loads hundreds of modules; only the kernels it runs need loading (as graph_suite.sh runs torch).
export CUDA_MODULE_LOADING=LAZY

log "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
log "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none); $(nproc) cores"
log "disk free at $WORK: $(df -B1 --output=avail "$WORK" | tail -n 1) bytes"
log "bankcheck: $BANKCHECK ($(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
[ -x "$BANKCHECK" ] || { log "FAIL: no $BANKCHECK (bash validate/capture/build_carry.sh capture, and carry build-gpu/capture)"; exit 1; }

for i in 1 2; do
  t=$(now)
  timeout 90 python3 "$PROG" "${ARGS[@]}" --out "$OUT/plain$i.txt" >"$OUT/plain$i.log" 2>&1
  log "plain $i: rc=$? $(since "$t" 1) s"
done
log "plain runs agree: $(cmp -s "$OUT/plain1.txt" "$OUT/plain2.txt" && echo yes || echo NO)"

t=$(now)
timeout 150 "$BANKCHECK" capture --summary -o "$WORK/summary" -- python3 "$PROG" "${ARGS[@]}" --out "$OUT/summary.txt" \
  >"$OUT/summary.log" 2>&1
log "summary: rc=$? $(since "$t" 1) s, $(bytes "$WORK/summary") bytes"

t=$(now)
timeout "${FULL_LIMIT:-200}" "$BANKCHECK" capture --max-bytes "$MAX_BYTES" -o "$WORK/full" -- python3 "$PROG" "${ARGS[@]}" --out "$OUT/full.txt" \
  >"$OUT/full.log" 2>&1
log "full (deduplicated, --max-bytes $MAX_BYTES): rc=$? $(since "$t" 1) s, $(bytes "$WORK/full") bytes"

if [ -z "${SKIP_STOP:-}" ]; then
t=$(now)
"$BANKCHECK" capture --no-dedup --max-bytes 12000000000 -o "$WORK/stopped" -- python3 "$PROG" "${ARGS[@]}" --out "$OUT/stopped.txt" \
  >"$OUT/stopped.log" 2>&1 &
pid=$!
sleep "$STOP_AFTER"
at_stop=$(bytes "$WORK")
kill -INT "$pid"
for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
kill -0 "$pid" 2>/dev/null && { log "stopped: still running 60 s after SIGINT: SIGKILL"; kill -KILL "$pid"; }
wait "$pid"
log "stopped (--no-dedup, SIGINT after $STOP_AFTER s): rc=$? $(since "$t" 1) s, $(bytes "$WORK/stopped") bytes" \
  "(the work folder held $at_stop bytes at the signal)"
log "left in $WORK: $(ls -A "$WORK" | tr '\n' ' ')"
fi

for c in full stopped; do
  [ -d "$WORK/$c" ] || continue
  [ "$SECONDS" -lt 500 ] || { log "replay $c: not run (the call's time is spent: $SECONDS s)"; continue; }
  t=$(now)
  timeout 90 "$BANKCHECK" replay "$WORK/$c" --json >"$OUT/replay-$c.json" 2>"$OUT/replay-$c.err"
  log "replay $c: rc=$? $(since "$t" 1) s"
done

python3 "$CHECK" "$OUT" "$WORK" 2>&1 | tee -a "$RES"
for c in summary full stopped; do
  mkdir -p "$OUT/$c"
  cp "$WORK/$c"/{capture.json,launches.csv,status.log,summary.json,summary.csv} "$OUT/$c/" 2>/dev/null
  ls -l "$WORK/$c" >"$OUT/$c/files.txt" 2>&1
done
gzip -f "$OUT"/*/launches.csv "$OUT"/*/summary.csv 2>/dev/null
log "program arguments: ${PROG_ARGS:-(defaults)}"
tar -czf "$TOP/scaling.tar.gz" -C "$TOP" scaling 2>/dev/null
log "packed $TOP/scaling.tar.gz ($(du -h "$TOP/scaling.tar.gz" | cut -f1))"
rm -rf "$WORK" "$OUT"
