#!/usr/bin/env bash
# GPU smoke test of `bankcheck capture` (issue 13), for the H100 machine:
#   OUT=/some/dir bash validate/capture/gpu_smoke.sh        (from the repository root)
# Builds the capture pieces with the CUDA toolkit and g++ only (the patch
# fatbin, libbankcheck_capture.so against the toolkit's own sanitizer, and
# the minimal driver validate/capture/smoke_driver.cpp), builds the test
# programs in validate/capture/programs/, captures each, checks the records
# against the addresses each program computed on the host, replays them on
# sm90, and writes $OUT/summary.txt. Every step has a timeout and a log;
# a failing step is reported and the script goes on. Budget: < 3 minutes.
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

NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(dirname "$(dirname "$NVCC")")
SAN=${SAN:-}
[ -n "$SAN" ] || for d in "$CUDA/compute-sanitizer" /usr/local/cuda*/compute-sanitizer /opt/nvidia/*/compute-sanitizer; do
  if [ -f "$d/include/sanitizer_patching.h" ]; then SAN=$d; break; fi
done
log "nvcc: $NVCC ($("$NVCC" --version | tail -n 1))"
log "sanitizer: ${SAN:-NOT FOUND}"
log "driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
SANLIB=$(dirname "$(find "$SAN" -name 'libsanitizer-public.so' | head -n 1)")

# capture/host without summary_results.cpp, the one file that needs the results schema (nlohmann/json),
# and the one file of sim/layout it uses (hgmma_descriptors.cpp: the wgmma descriptor's fields). This list
# must follow CMake's; validate/capture/build_carry.sh capture carries the CMake-built library and patches
# instead (PREBUILT_B below takes them, with the smoke driver built here).
HOST_SOURCES=($(ls capture/host/*.cpp | grep -v summary_results.cpp) sim/trace/*.cpp sim/layout/wgmma_descriptor.cpp)
# The library is linked with --no-undefined: the driver loads it with every
# symbol resolved, and silently skips a library that does not load.
MODEL_SOURCES=(sim/replay/replay.cpp model/bank_model.cpp model/phase_rules.cpp model/simd_degree.cpp model/simd_path_choice.cpp model/global_access.cpp)
if [ -n "${PREBUILT_B:-}" ]; then
  # Pieces built on another machine against the same toolkit (saves the GPU
  # machine's time): copied, not rebuilt.
  cp -r "$PREBUILT_B"/. "$B"/
  log "prebuilt: $(ls "$B" | tr '\n' ' ')"
else
step build.patches 400 "$NVCC" -std=c++20 -arch=sm_90 --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch \
  -I. -I"$SAN/include" capture/device/patches.cu -o "$B/bankcheck_capture_patches.fatbin"
step build.library 180 g++ -std=c++20 -O2 -fPIC -shared -I. -I"$CUDA/include" -I"$SAN/include" \
  capture/injection/injection.cpp "${HOST_SOURCES[@]}" "${MODEL_SOURCES[@]}" -L"$SANLIB" -lsanitizer-public \
  -Wl,-rpath,"$SANLIB" -Wl,--no-undefined -ldl -pthread -o "$B/libbankcheck_capture.so"
step build.driver 180 g++ -std=c++20 -O2 -I. validate/capture/smoke_driver.cpp "${HOST_SOURCES[@]}" \
  "${MODEL_SOURCES[@]}" -ldl -pthread -o "$B/smoke_driver"
step build.kernels 120 "$NVCC" -std=c++17 -arch=sm_90 -O2 validate/capture/programs/smoke_kernels.cu -o "$B/smoke_kernels"
step build.driver_kernel 60 "$NVCC" -arch=sm_90 -cubin validate/capture/programs/driver_kernel.cu -o "$B/driver_kernel.cubin"
step build.driver_api 60 g++ -O2 -I"$CUDA/include" validate/capture/programs/driver_api.cpp -L"$CUDA/lib64/stubs" \
  -L"$CUDA/lib64" -lcuda -o "$B/driver_api"
fi
# BUILD_ONLY=1: stop after building (validate/capture/build_carry.sh builds
# the pieces here, against the GPU machine's sanitizer version, with SAN=).
[ -n "${BUILD_ONLY:-}" ] && exit 0

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
# Where a bankcheck CLI was carried here: its replay with SASS, and the same for the ncu comparison.
if [ -x build/bankcheck ] && build/bankcheck --help >/dev/null 2>&1; then
  step cli.replay.conflicts 30 build/bankcheck replay --per-instruction "$OUT/cap-conflicts/launch-0.bktrace"
  if command -v ncu >/dev/null; then
    step ncu.conflicts 120 ncu --section SourceCounters --page source --print-source sass --csv \
      "$B/smoke_kernels" conflicts /dev/null
    cp "$OUT/ncu.conflicts.log" "$OUT/ncu-conflicts.csv"
    step cli.compare.conflicts 30 build/bankcheck compare --ncu "$OUT/ncu-conflicts.csv" "$OUT/cap-conflicts/launch-0.bktrace"
  fi
fi
tar -czf "$OUT/capture-smoke.tar.gz" -C "$OUT" --exclude=build --exclude=capture-smoke.tar.gz . 2>/dev/null
log "done in ${SECONDS}s; logs in $OUT, packed in $OUT/capture-smoke.tar.gz"
