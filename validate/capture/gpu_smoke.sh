#!/usr/bin/env bash
# GPU smoke test of `bankcheck capture`, for the H100/H200 machine:
#   bash validate/capture/build_carry.sh smoke                  (development machine: build-gpu/smoke)
#   OUT=/some/dir bash validate/capture/gpu_smoke.sh            (GPU machine, repository root, build-gpu/smoke carried)
# The capture pieces (the patch fatbin, libbankcheck_capture.so, the minimal
# driver validate/capture/smoke_driver.cpp and the test programs in
# validate/capture/programs/) are CMake's targets, built on the development
# machine and carried (PREBUILT_B, default build-gpu/smoke); nothing is built
# here. The script captures each program, checks the records against the
# addresses each program computed on the host, replays them on sm90, and
# writes $OUT/summary.txt. Every step has a timeout and a log; a failing step
# is reported and the script goes on. Budget: < 3 minutes. SKIP_PYTHON=1: without
# the PyTorch and Triton programs.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT to a folder for the logs}"
mkdir -p "$OUT"
B="$OUT/build"
mkdir -p "$B"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
log() { echo "$*" | tee -a "$SUMMARY"; }
step() {  # step NAME SECONDS COMMAND...: run with a timeout, log to $OUT/NAME.log
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  log "$(printf '%-28s rc=%-3s %3ss  %s' "$name" "$rc" "$((SECONDS - start))" "$(tail -n 1 "$OUT/$name.log" | cut -c1-110)")"
  return $rc
}

PREBUILT_B=${PREBUILT_B:-build-gpu/smoke}
if [ ! -x "$PREBUILT_B/smoke_driver" ]; then
  log "FAIL: no $PREBUILT_B/smoke_driver (bash validate/capture/build_carry.sh smoke on the development machine, and carry build-gpu/smoke)"
  exit 1
fi
cp -r "$PREBUILT_B"/. "$B"/
log "prebuilt: $(ls "$B" | tr '\n' ' ')"
log "nvcc: $(nvcc --version 2>/dev/null | tail -n 1)"
log "sanitizer: $(ldd "$B/libbankcheck_capture.so" | grep -o '/[^ ]*libsanitizer-public[^ ]*' || echo NOT FOUND)"
log "driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"

capture() {  # capture NAME RING_SLOTS -- PROGRAM...
  local name=$1 ring=$2
  shift 3
  rm -rf "$OUT/cap-$name"
  step "capture.$name" "${CAPTURE_TIMEOUT:-60}" "$B/smoke_driver" capture "$OUT/cap-$name" "$B/libbankcheck_capture.so" \
    "$B/bankcheck_capture_patches.fatbin" "$ring" -- "$@"
}
for c in conflicts wide atomic ldmatrix cpasync; do
  capture "$c" 65536 -- "$B/smoke_kernels" "$c" "$OUT/expected-$c.trace"
  step "check.$c" 30 "$B/smoke_driver" check "$OUT/cap-$c/launch-0.bktrace" "$OUT/expected-$c.trace"
  step "replay.$c" 30 "$B/smoke_driver" replay "$OUT/cap-$c/launch-0.bktrace"
done
# 32 blocks x 8 warps x 2001 records = 512k records through a 256-slot ring: 2000 times over.
capture fill 256 -- "$B/smoke_kernels" fill "$OUT/expected-fill.trace"
step check.fill 60 "$B/smoke_driver" check "$OUT/cap-fill/launch-0.bktrace" "$OUT/expected-fill.trace"
step replay.fill 60 "$B/smoke_driver" replay "$OUT/cap-fill/launch-0.bktrace"
# A faulting kernel: the program fails, the capture must say partial and pass the exit code on.
capture fault 65536 -- "$B/smoke_kernels" fault "$OUT/expected-fault.trace"
log "  fault: capture.json says $(grep -o '"status": "[a-z]*"' "$OUT/cap-fault/capture.json" 2>/dev/null || echo nothing) (expected partial, nonzero rc)"
capture driver_api 65536 -- "$B/driver_api" "$B/driver_kernel.cubin" "$OUT/expected-driver_api.trace"
step check.driver_api 30 "$B/smoke_driver" check "$OUT/cap-driver_api/launch-0.bktrace" "$OUT/expected-driver_api.trace"
log "  driver_api launches.csv: $(sed -n 2p "$OUT/cap-driver_api/launches.csv" 2>/dev/null | cut -c1-150) (dynamic shared 256 expected)"
if [ -z "${SKIP_PYTHON:-}" ]; then
  # Lazy module loading: only the modules a launch uses are loaded and patched.
  # PyTorch registers thousands of kernels; with EAGER, capture's default, the
  # torch program did not finish within 60 s on the H100 (2026-11-23).
  CUDA_MODULE_LOADING=LAZY capture torch 65536 -- python3 validate/capture/programs/torch_smoke.py
  CUDA_MODULE_LOADING=LAZY capture triton 65536 -- python3 validate/capture/programs/triton_smoke.py
fi
for t in torch triton; do
  for f in "$OUT/cap-$t"/launch-*.bktrace; do
    [ -f "$f" ] && step "replay.$t.$(basename "$f" .bktrace)" 30 "$B/smoke_driver" replay "$f"
  done
done
# Where a bankcheck CLI was carried here (BANKCHECK: build/bankcheck from build_carry.sh cli, or
# build-gpu/capture/bankcheck, with the capture library and patches beside it): a capture through it,
# its replay with SASS, and the ncu comparison.
BANKCHECK=${BANKCHECK:-build/bankcheck}
if [ -x "$BANKCHECK" ] && "$BANKCHECK" --help >/dev/null 2>&1; then
  step cli.capture.conflicts 60 "$BANKCHECK" capture --no-dedup -o "$OUT/cli-cap-conflicts" -- "$B/smoke_kernels" conflicts /dev/null
  step cli.check.conflicts 30 "$B/smoke_driver" check "$OUT/cli-cap-conflicts/launch-0.bktrace" "$OUT/expected-conflicts.trace"
  step cli.replay.conflicts 30 "$BANKCHECK" replay --per-instruction "$OUT/cap-conflicts/launch-0.bktrace"
  if command -v ncu >/dev/null; then
    step ncu.conflicts 120 ncu --section SourceCounters --page source --print-source sass --csv \
      "$B/smoke_kernels" conflicts /dev/null
    cp "$OUT/ncu.conflicts.log" "$OUT/ncu-conflicts.csv"
    step cli.compare.conflicts 30 "$BANKCHECK" compare --ncu "$OUT/ncu-conflicts.csv" "$OUT/cap-conflicts/launch-0.bktrace"
  fi
fi
tar -czf "$OUT/capture-smoke.tar.gz" -C "$OUT" --exclude=build --exclude=capture-smoke.tar.gz . 2>/dev/null
log "done in ${SECONDS}s; logs in $OUT, packed in $OUT/capture-smoke.tar.gz"
