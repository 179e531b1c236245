#!/usr/bin/env bash
# The graph suite: programs that launch through CUDA graphs (stream capture,
# explicit kernel nodes, updated executable graphs, a child graph, device-side
# launch), two streams with events, stream-ordered allocation, 100 KB of
# dynamic shared memory, and a PyTorch CUDA graph (validate/capture/programs/graphs/),
# each run plainly (twice: its output must not vary by itself) and under
# `bankcheck capture`, full and --summary. A capture passes when the program's
# output bytes equal the plain run's, capture.json says complete, and
# launches.csv has one captured row per kernel execution (graph_suite_check.py).
#
#   OUT=DIR [BANKCHECK=build/bankcheck] [PROBE=1] [NCU=1] bash validate/capture/graph_suite.sh
#
# NCU=1 (with BANKCHECK) also profiles each C++ program with Nsight Compute
# (every graph kernel node is a profiled launch) and compares the full
# capture with it (`bankcheck compare --ncu ... --ncu-launches ...`).
# PROBE=1 also runs each program under graph_callbacks_probe.cpp (built here)
# to log which sanitizer callbacks it raises. Writes $OUT/summary.txt and,
# per program, $OUT/NAME/ (results, logs, capture folders); packs $OUT/graphs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT to a folder for the results}"
mkdir -p "$OUT/build"
B=$OUT/build
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
log() { echo "$*" | tee -a "$SUMMARY"; }
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(dirname "$(dirname "$NVCC")")
P=validate/capture/programs/graphs
log "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
log "nvcc: $("$NVCC" --version | tail -n 1)"
log "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"

PROGRAMS=(graph_capture graph_nodes graph_update graph_child streams_events malloc_async big_smem graph_device_launch)
for p in "${PROGRAMS[@]}"; do
  extra=()
  [ "$p" = graph_device_launch ] && extra=(-rdc=true -lcudadevrt)
  "$NVCC" -arch=sm_90 -std=c++17 -O2 "${extra[@]}" "$P/$p.cu" -o "$B/$p" >"$B/$p.build.log" 2>&1 &
done
if [ -n "${PROBE:-}" ]; then
  SAN=$(dirname "$(find "$CUDA/" /usr/local/cuda*/ -name libsanitizer-public.so 2>/dev/null | head -n 1)")
  SANINC=$(dirname "$(find "$CUDA/" /usr/local/cuda*/ -name sanitizer_patching.h 2>/dev/null | head -n 1)")
  g++ -std=c++17 -O1 -shared -fPIC -I"$SANINC" -I"$CUDA/include" validate/capture/graph_callbacks_probe.cpp \
    -L"$SAN" -lsanitizer-public -Wl,-rpath,"$SAN" -o "$B/probe.so" >"$B/probe.build.log" 2>&1 &
fi
wait
for p in "${PROGRAMS[@]}"; do [ -x "$B/$p" ] || log "build $p FAILED: $(tail -n 3 "$B/$p.build.log")"; done
PROGRAMS+=(torch_graph)

cmd() {  # cmd NAME RESULT: the program's command line
  if [ "$1" = torch_graph ]; then echo python3 "$P/torch_graph.py" "$2"; else echo "$B/$1" "$2"; fi
}
for p in "${PROGRAMS[@]}"; do
  d=$OUT/$p
  mkdir -p "$d"
  [ "$p" = torch_graph ] || [ -x "$B/$p" ] || continue
  # shellcheck disable=SC2046
  timeout 120 $(cmd "$p" "$d/plain.bin") >"$d/plain.out" 2>&1
  rc=$?
  timeout 120 $(cmd "$p" "$d/plain2.bin") >"$d/plain2.out" 2>&1
  det=$(cmp -s "$d/plain.bin" "$d/plain2.bin" && echo deterministic || echo NONDETERMINISTIC)
  log "$(printf '%-20s plain    rc=%s %s, %s bytes, %s' "$p" "$rc" "$det" "$(stat -c %s "$d/plain.bin" 2>/dev/null)" "$(grep -h 'expected_launches\|device_launched' "$d/plain.out" | tr '\n' ' ')")"
  if [ -n "${PROBE:-}" ] && [ -f "$B/probe.so" ]; then
    for v in "0 0" "1 1"; do
      set -- $v
      t0=$SECONDS
      CUDA_INJECTION64_PATH=$B/probe.so PROBE_SET=$1 PROBE_SYNC=$2 PROBE_LOG=$d/probe-set$1-sync$2.log \
        CUDA_MODULE_LOADING=LAZY timeout 60 $(cmd "$p" "$d/probe$1$2.bin") >"$d/probe$1$2.out" 2>&1
      rc=$?
      log "$(printf '%-20s probe set=%s sync=%s rc=%s %ss, result %s' "$p" "$1" "$2" "$rc" "$((SECONDS - t0))" "$(cmp -s "$d/plain.bin" "$d/probe$1$2.bin" && echo same || echo DIFFERS)")"
    done
  fi
  if [ -n "${BANKCHECK:-}" ]; then
    for mode in full summary; do
      flags=()
      [ "$mode" = summary ] && flags=(--summary)
      lazy=()
      [ "$p" = torch_graph ] && lazy=(env CUDA_MODULE_LOADING=LAZY)
      t0=$SECONDS
      rm -rf "$d/cap-$mode"
      timeout 300 "${lazy[@]}" "$BANKCHECK" capture "${flags[@]}" -o "$d/cap-$mode" -- $(cmd "$p" "$d/$mode.bin") \
        >"$d/$mode.out" 2>&1
      rc=$?
      line=$(python3 validate/capture/graph_suite_check.py "$p" "$mode" "$d/plain.bin" "$d/$mode.bin" "$d/plain.out" \
        "$d/cap-$mode" "$rc")
      log "$line ($((SECONDS - t0)) s)"
    done
    # (graph_device_launch: ncu's source page holds the device-launched kernel, its launch list does not.)
    if [ -n "${NCU:-}" ] && [ "$p" != torch_graph ] && [ "$p" != graph_device_launch ] &&
      ls "$d"/cap-full/launch-*.bktrace >/dev/null 2>&1; then
      timeout 300 ncu --section SourceCounters --clock-control none --print-kernel-base mangled -o "$d/rep" -f \
        "$B/$p" "$d/ncu.bin" >"$d/ncu.out" 2>&1
      ncu -i "$d/rep.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled >"$d/ncu.csv" 2>/dev/null
      ncu -i "$d/rep.ncu-rep" --page raw --csv --metrics launch__grid_size --print-kernel-base mangled \
        >"$d/launches.ncu.csv" 2>/dev/null
      "$BANKCHECK" compare --ncu "$d/ncu.csv" --ncu-launches "$d/launches.ncu.csv" "$d"/cap-full/launch-*.bktrace \
        >"$d/compare.txt" 2>&1
      rc=$?
      verdict=$([ "$rc" = 0 ] && echo PASS || echo FAIL)
      log "$(printf '%-20s compare  %s  rc=%s (0: every row yes) %s; %s' "$p" "$verdict" "$rc" \
        "$(grep -m1 '^verdicts:' "$d/compare.txt")" "$(grep -m1 '^launches:' "$d/compare.txt")")"
    fi
  fi
done
log "passed: $(grep -c ' PASS ' "$SUMMARY"), failed: $(grep -c ' FAIL ' "$SUMMARY")"
tar -czf "$OUT/graphs.tar.gz" -C "$OUT" --exclude=build --exclude='*.bktrace' --exclude='*.cubin' --exclude='*.ncu-rep' --exclude=graphs.tar.gz . 2>/dev/null
log "packed $OUT/graphs.tar.gz ($(du -h "$OUT/graphs.tar.gz" | cut -f1))"
