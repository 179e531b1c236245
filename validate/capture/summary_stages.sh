#!/usr/bin/env bash
# Where the time of `capture --summary` goes, on the GPU machine:
#   OUT=DIR B=DIR bash validate/capture/summary_stages.sh [PROGRAM ARGS...]
# B holds the capture pieces (validate/capture/build_carry.sh smoke) and
# cub_device; the default program is `cub_device merge_sort_u32 2^24`.
# Wall seconds of the whole program, each run REPS times (median printed):
#   plain            uninstrumented
#   memcheck         compute-sanitizer --tool memcheck
#   stage3           patch installed, every call returns at once (BANKCHECK_CAPTURE_SUMMARY_STAGE=3)
#   stage1           patch installed, lanes grouped, nothing else
#                    (BANKCHECK_CAPTURE_SUMMARY_STAGE=1)
#   stage2           + the 32 offsets gathered and the request costed, no table
#   summary          the whole --summary (+ the per-instruction table)
#   summary-nogeneric  the same without patching generic accesses
# Differences between neighbours attribute the overhead.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}" "${B:?set B}"
REPS=${REPS:-3}
mkdir -p "$OUT"
RES="$OUT/summary_stages.txt"
: >"$RES"
[ $# -gt 0 ] || set -- "$B/cub_device" merge_sort_u32 $((1 << 24))
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
WORK=$(mktemp -d)
GPU_LOG=$RES
source validate/gpu_env.sh  # log
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
log "program: $*"
timed() {  # timed NAME ENV... -- CMD...: median wall seconds of REPS runs
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local times=()
  for ((i = 0; i < REPS; ++i)); do
    local s e
    s=$(date +%s.%N)
    env "${envs[@]}" timeout 300 "$@" >"$WORK/$name.$i.log" 2>&1
    local rc=$?
    e=$(date +%s.%N)
    times+=("$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }')")
    [ $rc -eq 0 ] || { log "$name: rc=$rc ($(tail -n 1 "$WORK/$name.$i.log"))"; break; }
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v n="$name" '{ t[NR] = $1 } END { printf "%-20s median %7.3f s  (runs: %d)\n", n, t[int((NR + 1) / 2)], NR }' | tee -a "$RES"
}
cap() { echo "$B/smoke_driver" capture "$WORK/cap" "$B/libbankcheck_capture.so" "$B/bankcheck_capture_patches.fatbin" 65536 --; }
timed plain X=0 -- "$@"
timed memcheck X=0 -- "$SAN" --tool memcheck --print-limit 10 "$@"
timed stage3 SMOKE_SUMMARY_SLOTS=1024 BANKCHECK_CAPTURE_SUMMARY_STAGE=3 -- $(cap) "$@"
timed stage1 SMOKE_SUMMARY_SLOTS=1024 BANKCHECK_CAPTURE_SUMMARY_STAGE=1 -- $(cap) "$@"
timed stage2 SMOKE_SUMMARY_SLOTS=1024 BANKCHECK_CAPTURE_SUMMARY_STAGE=2 -- $(cap) "$@"
timed summary SMOKE_SUMMARY_SLOTS=1024 -- $(cap) "$@"
timed summary-nogeneric SMOKE_SUMMARY_SLOTS=1024 SMOKE_GENERIC=0 -- $(cap) "$@"
tar -czf "$OUT/summary_stages-logs.tar.gz" -C "$WORK" . 2>/dev/null
rm -rf "$WORK"
