#!/usr/bin/env bash
# The full-trace capture rate, on the GPU machine:
#   OUT=DIR B=DIR bash validate/capture/full_trace_rate.sh
# B holds the capture pieces (validate/capture/build_carry.sh smoke) and
# cub_device. For CUB's merge and radix sorts of 2^LOG2 keys (default 22):
# wall seconds of the plain program and of a full-trace capture (every
# launch), the trace bytes written and their rate; then the host's own bound,
# bench.capture_host (one drain thread, no GPU), when build/ has it.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}" "${B:?set B}"
LOG2=${LOG2:-22}
mkdir -p "$OUT"
RES="$OUT/full_trace_rate.txt"
: >"$RES"
WORK=$(mktemp -d)
GPU_LOG=$RES
source validate/gpu_env.sh  # log
seconds() {  # seconds LOG CMD...: wall seconds of CMD, its output in LOG
  local log=$1 s e
  shift
  s=$(date +%s.%N)
  timeout 240 "$@" >"$log" 2>&1 || echo "rc=$? $(tail -n 1 "$log")" >>"$RES"
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'
}
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none); $(nproc) cores"
log "$(printf '%-28s %9s %9s %14s %7s' program plain capture trace_bytes GB/s)"
for a in merge_sort_u32 radix_sort_u32; do
  p=$(seconds "$WORK/plain.log" "$B/cub_device" "$a" $((1 << LOG2)))
  c=$(seconds "$WORK/capture.log" "$B/smoke_driver" capture "$WORK/cap" "$B/libbankcheck_capture.so" \
    "$B/bankcheck_capture_patches.fatbin" 65536 -- "$B/cub_device" "$a" $((1 << LOG2)))
  bytes=$(cat "$WORK/cap"/launch-*.bktrace 2>/dev/null | wc -c)
  log "$(printf '%-28s %9s %9s %14s %7s' "cub.$a.2^$LOG2" "$p" "$c" "$bytes" \
    "$(awk -v b="$bytes" -v c="$c" 'BEGIN { if (c > 0) printf "%.3f", b / c / 1e9; else print "-" }')")"
  rm -rf "$WORK/cap"
done
if [ -x build/bench.capture_host ]; then
  log "host bound: build/bench.capture_host --runs 5"
  build/bench.capture_host --runs 5 2>&1 | tee -a "$RES"
fi
rm -rf "$WORK"
