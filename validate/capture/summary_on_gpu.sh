#!/usr/bin/env bash
# `bankcheck capture --summary` on the GPU machine, after
# the capture pieces are in $B (build-gpu/smoke, from validate/capture/build_carry.sh smoke,
# or the copy validate/capture/gpu_smoke.sh makes in its OUT/build):
#   OUT=DIR B=DIR/build bash validate/capture/summary_on_gpu.sh     (from the repository root)
# (a) Equality: each program is captured twice, with --summary (the sm90
#     rules evaluated on the GPU) and as full traces; `smoke_driver
#     summary-check` compares every (launch, instruction) row of summary.csv
#     with the CPU replay of the traces (executions, lanes, wavefronts, ideal,
#     worst degree, unmodelled) and re-costs each worst record on the CPU.
# (b) Overhead: wall time of the whole program uninstrumented, with
#     --summary, as full traces (and the GB/s of trace written), and under
#     `compute-sanitizer --tool memcheck`, printed as a table.
# Writes $OUT/summary_on_gpu.txt (results), $OUT/summary-tables.tar.gz (the
# summary.csv/json of each capture) and $OUT/summary-logs.tar.gz (every log).
# Captures go to $WORK (default /tmp/bankcheck-summary), full traces are
# deleted once measured. Every step has a timeout; steps stop being started
# after $DEADLINE seconds (default 440) so the whole run stays under 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}" "${B:?set B to the capture pieces (build-gpu/smoke)}"
WORK=${WORK:-/tmp/bankcheck-summary}
DEADLINE=${DEADLINE:-440}
SIZES=${SIZES:-"24 26 28"}      # log2 keys for the overhead table (CUB sorts)
CHECK_LOG2=${CHECK_LOG2:-20}    # log2 keys of the sorts whose summaries are checked against full traces
FULL_LOG2=${FULL_LOG2:-22}      # log2 keys of the full-trace timing (the trace is written to $WORK)
mkdir -p "$OUT" "$WORK/logs"
RES="$OUT/summary_on_gpu.txt"
: >"$RES"
L="$WORK/logs"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(dirname "$(dirname "$NVCC")")
SAN=$(command -v compute-sanitizer || echo "$CUDA/compute-sanitizer/compute-sanitizer")
DRIVER="$B/smoke_driver"
log() { echo "$*" | tee -a "$RES"; }
late() { [ "$SECONDS" -ge "$DEADLINE" ]; }
step() {  # step NAME SECONDS COMMAND...: timeout, log in $L/NAME.log, wall seconds in $L/NAME.time
  local name=$1 limit=$2
  shift 2
  if late; then echo "skipped (deadline)" >"$L/$name.log"; echo "-" >"$L/$name.time"; return 124; fi
  local left=$((DEADLINE + 40 - SECONDS))
  [ "$limit" -gt "$left" ] && limit=$left
  local start end
  start=$(date +%s.%N)
  timeout "$limit" "$@" >"$L/$name.log" 2>&1
  local rc=$?
  end=$(date +%s.%N)
  if [ $rc -eq 124 ]; then echo ">$limit" >"$L/$name.time"; else awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }' >"$L/$name.time"; fi
  printf '%-40s rc=%-3s %8ss  %s\n' "$name" "$rc" "$(cat "$L/$name.time")" "$(tail -n 1 "$L/$name.log" | cut -c1-100)" >>"$L/steps.txt"
  return $rc
}
t() { cat "$L/$1.time" 2>/dev/null || echo "-"; }
ratio() { echo "$1 $2" | awk '$1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ && $2 > 0 { printf "%.1fx", $1 / $2; next } { print "-" }'; }
# capture SLOTS DIR PROGRAM...: the words `step` runs for a capture (SLOTS 0: full traces, else --summary)
capture() { echo env SMOKE_SUMMARY_SLOTS="$1" "$DRIVER" capture "$2" "$B/libbankcheck_capture.so" "$B/bankcheck_capture_patches.fatbin" 65536 --; }
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
log "nvcc: $("$NVCC" --version | tail -n 1); compute-sanitizer: $SAN"
for f in smoke_driver smoke_kernels libbankcheck_capture.so bankcheck_capture_patches.fatbin; do
  [ -e "$B/$f" ] || log "MISSING $B/$f: carry build-gpu/smoke (validate/capture/build_carry.sh smoke)"
done
CUB="$B/cub_device"
if [ ! -x "$CUB" ] && [ -x "$OUT/programs/bin/cub_device" ]; then cp "$OUT/programs/bin/cub_device" "$CUB"; fi
[ -x "$CUB" ] || step build.cub_device 240 "$NVCC" -arch=sm_90 -O2 -std=c++17 -o "$CUB" validate/programs/cub_device.cu

# (a) equality, per (launch, instruction)
log ""
log "(a) --summary against full traces replayed on the CPU, per (launch, instruction)"
check() {  # check NAME PROGRAM...
  local name=$1
  shift
  step "sum.$name" 120 $(capture 1024 "$WORK/sum-$name") "$@"
  step "full.$name" 180 $(capture 0 "$WORK/full-$name") "$@"
  local traces=("$WORK/full-$name"/launch-*.bktrace)
  if [ -e "${traces[0]}" ] && [ -f "$WORK/sum-$name/summary.csv" ]; then
    step "check.$name" 180 "$DRIVER" summary-check "$WORK/sum-$name/summary.csv" "${traces[@]}"
    log "$(printf '  %-28s %s' "$name" "$(tail -n 1 "$L/check.$name.log")")"
  else
    log "$(printf '  %-28s %s' "$name" "NOT CHECKED: $(tail -n 2 "$L/sum.$name.log" "$L/full.$name.log" | tr '\n' ' ' | cut -c1-160)")"
  fi
  mkdir -p "$WORK/tables/$name"
  cp "$WORK/sum-$name"/{summary.csv,capture.json,launches.csv} "$WORK/tables/$name/" 2>/dev/null
  rm -rf "$WORK/full-$name"
}
for k in conflicts wide atomic ldmatrix cpasync fill; do
  check "smoke.$k" "$B/smoke_kernels" "$k" "$WORK/expected-$k.trace"
done
N=$((1 << CHECK_LOG2))
for a in merge_sort_u32 merge_sort_u64 radix_sort_u32 histogram scan; do
  check "cub.$a.2^$CHECK_LOG2" "$CUB" "$a" "$N"
done

# (b) overhead: whole-program wall time
log ""
log "(b) overhead, whole-program wall seconds (slowdown against uninstrumented)"
log "$(printf '  %-26s %10s %16s %18s' program plain summary memcheck)"
overhead() {  # overhead NAME MEMCHECK(0/1) PROGRAM...
  local name=$1 memcheck=$2
  shift 2
  step "plain.$name" 120 "$@"
  step "tsum.$name" 180 $(capture 1024 "$WORK/tsum-$name") "$@"
  if [ "$memcheck" = 1 ]; then step "memcheck.$name" 120 "$SAN" --tool memcheck --print-limit 10 "$@"; fi
  local p s m
  p=$(t "plain.$name") s=$(t "tsum.$name") m=$(t "memcheck.$name")
  log "$(printf '  %-26s %10s %9s %6s %11s %6s' "$name" "$p" "$s" "$(ratio "$s" "$p")" "$m" "$(ratio "$m" "$p")")"
  mkdir -p "$WORK/tables/$name"
  cp "$WORK/tsum-$name"/{summary.csv,capture.json,launches.csv} "$WORK/tables/$name/" 2>/dev/null
  rm -rf "$WORK/tsum-$name"
}
overhead smoke.conflicts 1 "$B/smoke_kernels" conflicts "$WORK/expected-conflicts.trace"
FIRST=${SIZES%% *}
for a in merge_sort_u32 radix_sort_u32; do overhead "cub.$a.2^$FIRST" 1 "$CUB" "$a" $((1 << FIRST)); done

log ""
log "(b) full-trace mode: trace bytes written per second of the whole capture"
log "$(printf '  %-26s %10s %10s %14s %10s' program plain capture trace_bytes GB/s)"
for a in merge_sort_u32 radix_sort_u32; do
  name="cub.$a.2^$FULL_LOG2"
  step "plain.$name" 120 "$CUB" "$a" $((1 << FULL_LOG2))
  step "tfull.$name" 240 $(capture 0 "$WORK/tfull-$name") "$CUB" "$a" $((1 << FULL_LOG2))
  bytes=$(cat "$WORK/tfull-$name"/launch-*.bktrace 2>/dev/null | wc -c)
  c=$(t "tfull.$name")
  log "$(printf '  %-26s %10s %10s %14s %10s' "$name" "$(t "plain.$name")" "$c" "$bytes" \
    "$(echo "$bytes $c" | awk '$2 ~ /^[0-9.]+$/ && $2 > 0 { printf "%.2f", $1 / $2 / 1e9; next } { print "-" }')")"
  rm -rf "$WORK/tfull-$name"
done

log ""
log "(b) --summary on larger sorts (memcheck left out: it would not finish in the budget)"
for e in ${SIZES#"$FIRST"}; do
  for a in merge_sort_u32 radix_sort_u32; do overhead "cub.$a.2^$e" 0 "$CUB" "$a" $((1 << e)); done
done

log ""
log "success: every (a) line says MATCH; summary slowdowns are below memcheck's; full-trace GB/s >= 1"
log "done in ${SECONDS}s"
cp "$L/steps.txt" "$OUT/summary-steps.txt" 2>/dev/null
tar -czf "$OUT/summary-tables.tar.gz" -C "$WORK" tables 2>/dev/null
tar -czf "$OUT/summary-logs.tar.gz" -C "$WORK" logs 2>/dev/null
