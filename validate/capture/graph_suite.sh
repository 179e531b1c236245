#!/usr/bin/env bash
# The capture suite: programs run plainly (twice: their output must not vary
# by itself) and under `bankcheck capture`, full and --summary, whose output
# bytes must be identical (validate/capture/programs/graphs/): CUDA graphs of
# every kind (stream capture, explicit nodes, updated executable graphs, a
# child graph, device-side launch), streams with events, stream-ordered
# allocation, 100 KB of dynamic shared memory, a cooperative launch,
# clusters with distributed shared memory, a child process that uses CUDA,
# exit() from a host thread while a kernel runs, a host segfault, a
# device-side assert, two GPUs (skipped on one), a PyTorch CUDA graph, a
# torch.compile(mode="reduce-overhead") model and a DataLoader with worker
# processes; and the occupancy probe, whose answers plainly and under capture
# are diffed (occupancy_probe.diff). graph_suite_check.py checks each capture
# against what the program declares on its standard output.
#
#   OUT=DIR [BANKCHECK=build/bankcheck] [PROBE=1] [NCU=1] [BUDGET=420] [ONLY="prog ..."] bash validate/capture/graph_suite.sh
#
# NCU=1 (with BANKCHECK) also profiles the programs that Nsight Compute
# profiles whole (every graph kernel node is a profiled launch) and compares
# the full capture with it (`bankcheck
# compare --ncu ... --ncu-launches ...`). PROBE=1 also runs each C++ program
# under graph_callbacks_probe.cpp (built here) to log which sanitizer
# callbacks it raises. Writes $OUT/summary.txt and, per program, $OUT/NAME/
# (results, logs, capture folders); packs $OUT/suite.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
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
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tr '\n' ';' || echo none)"
log "nvcc: $("$NVCC" --version | tail -n 1)"
log "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"
log "command: OUT=$OUT BANKCHECK=${BANKCHECK:-} NCU=${NCU:-} PROBE=${PROBE:-} bash validate/capture/graph_suite.sh"
t_start=$SECONDS

CXX_PROGRAMS=(graph_capture graph_nodes graph_update graph_child streams_events malloc_async big_smem
  graph_device_launch cooperative clusters fork_child exit_thread crash_segfault device_assert two_gpus occupancy_probe)
PY_PROGRAMS=(torch_graph torch_compile dataloader)
# Nsight Compute profiles these whole and the same way as the capture sees them (graph_device_launch: ncu's
# source page holds the device-launched kernel, its launch list does not; exit_thread and device_assert end
# inside a launch; occupancy_probe's launches are not the point; two_gpus skips on one GPU).
NCU_PROGRAMS=" graph_capture graph_nodes graph_update graph_child streams_events malloc_async big_smem cooperative clusters fork_child crash_segfault torch_graph torch_compile "
# Nsight Compute runs only while the suite is within BUDGET seconds (default 420), so that it ends, packed,
# within the GPU machine's 10 minutes a call; a comparison left out says so.
for p in "${CXX_PROGRAMS[@]}"; do
  extra=()
  [ "$p" = graph_device_launch ] && extra=(-rdc=true -lcudadevrt)
  [ "$p" = occupancy_probe ] && extra=(-lcuda)
  "$NVCC" -arch=sm_90 -std=c++17 -O2 "${extra[@]}" "$P/$p.cu" -o "$B/$p" >"$B/$p.build.log" 2>&1 &
done
if [ -n "${PROBE:-}" ]; then
  SAN=$(dirname "$(find "$CUDA/" /usr/local/cuda*/ -name libsanitizer-public.so 2>/dev/null | head -n 1)")
  SANINC=$(dirname "$(find "$CUDA/" /usr/local/cuda*/ -name sanitizer_patching.h 2>/dev/null | head -n 1)")
  g++ -std=c++17 -O1 -shared -fPIC -I"$SANINC" -I"$CUDA/include" validate/capture/graph_callbacks_probe.cpp \
    -L"$SAN" -lsanitizer-public -Wl,-rpath,"$SAN" -o "$B/probe.so" >"$B/probe.build.log" 2>&1 &
fi
wait
for p in "${CXX_PROGRAMS[@]}"; do [ -x "$B/$p" ] || log "build $p FAILED: $(tail -n 3 "$B/$p.build.log")"; done
log "built in $((SECONDS - t_start)) s"
PROGRAMS=("${CXX_PROGRAMS[@]}" "${PY_PROGRAMS[@]}")
[ -n "${ONLY:-}" ] && read -r -a PROGRAMS <<<"$ONLY"

is_python() { [[ " ${PY_PROGRAMS[*]} " == *" $1 "* ]]; }
cmd() {  # cmd NAME RESULT: the program's command line
  if is_python "$1"; then echo python3 "$P/$1.py" "$2"; else echo "$B/$1" "$2"; fi
}
limit() { if is_python "$1"; then echo 150; else echo 60; fi; }

for p in "${PROGRAMS[@]}"; do
  d=$OUT/$p
  mkdir -p "$d"
  is_python "$p" || [ -x "$B/$p" ] || continue
  t0=$SECONDS
  # shellcheck disable=SC2046
  timeout "$(limit "$p")" $(cmd "$p" "$d/plain.bin") >"$d/plain.out" 2>&1
  plain_rc=$?
  if grep -q '^skipped: ' "$d/plain.out"; then
    log "$(printf '%-20s SKIP     %s' "$p" "$(grep -m1 '^skipped: ' "$d/plain.out")")"
    continue
  fi
  timeout "$(limit "$p")" $(cmd "$p" "$d/plain2.bin") >"$d/plain2.out" 2>&1
  plain2_rc=$?
  det=$(cmp -s "$d/plain.bin" "$d/plain2.bin" && [ "$plain_rc" = "$plain2_rc" ] && echo deterministic || echo NONDETERMINISTIC)
  log "$(printf '%-20s plain    rc=%s/%s %s, %s bytes (%s s)' "$p" "$plain_rc" "$plain2_rc" "$det" \
    "$(stat -c %s "$d/plain.bin" 2>/dev/null)" "$((SECONDS - t0))")"
  if [ -n "${PROBE:-}" ] && [ -f "$B/probe.so" ] && ! is_python "$p"; then
    for v in "0 0" "1 1"; do
      set -- $v
      t0=$SECONDS
      CUDA_INJECTION64_PATH=$B/probe.so PROBE_SET=$1 PROBE_SYNC=$2 PROBE_LOG=$d/probe-set$1-sync$2.log \
        CUDA_MODULE_LOADING=LAZY timeout 60 $(cmd "$p" "$d/probe$1$2.bin") >"$d/probe$1$2.out" 2>&1
      rc=$?
      log "$(printf '%-20s probe set=%s sync=%s rc=%s %ss, result %s' "$p" "$1" "$2" "$rc" "$((SECONDS - t0))" "$(cmp -s "$d/plain.bin" "$d/probe$1$2.bin" && echo same || echo DIFFERS)")"
    done
  fi
  [ -n "${BANKCHECK:-}" ] || continue
  for mode in full summary; do
    flags=()
    [ "$mode" = summary ] && flags=(--summary)
    lazy=()
    is_python "$p" && lazy=(env CUDA_MODULE_LOADING=LAZY)
    t0=$SECONDS
    rm -rf "$d/cap-$mode"
    timeout "$(limit "$p")" "${lazy[@]}" "$BANKCHECK" capture "${flags[@]}" -o "$d/cap-$mode" -- $(cmd "$p" "$d/$mode.bin") \
      >"$d/$mode.out" 2>&1
    rc=$?
    line=$(python3 validate/capture/graph_suite_check.py "$p" "$mode" "$d/plain.bin" "$d/$mode.bin" "$d/plain.out" \
      "$d/cap-$mode" "$rc" "$plain_rc")
    log "$line ($((SECONDS - t0)) s)"
  done
  if [ "$p" = occupancy_probe ]; then
    diff "$d/plain.bin" "$d/full.bin" >"$OUT/occupancy_probe.diff"
    log "$(printf '%-20s answers  %s of %s differ under capture (occupancy_probe.diff)' "$p" \
      "$(grep -c '^<' "$OUT/occupancy_probe.diff")" "$(wc -l <"$d/plain.bin")")"
    [ -f "$d/cap-full/queries.csv" ] &&
      log "$(printf '%-20s queries  %s rows in queries.csv, %s about a kernel (may_differ yes)' "$p" \
        "$(($(wc -l <"$d/cap-full/queries.csv") - 1))" "$(grep -c ',yes$' "$d/cap-full/queries.csv")")"
  fi
  if [ -n "${NCU:-}" ] && [[ "$NCU_PROGRAMS" == *" $p "* ]] && ls "$d"/cap-full/launch-*.bktrace >/dev/null 2>&1; then
    if [ $((SECONDS - t_start)) -gt "${BUDGET:-420}" ]; then
      log "$(printf '%-20s compare  skipped: the suite had run %s s, past its budget of %s s' "$p" "$((SECONDS - t_start))" "${BUDGET:-420}")"
      continue
    fi
    t0=$SECONDS
    # shellcheck disable=SC2046
    timeout 150 ncu --target-processes application-only --section SourceCounters --clock-control none \
      --print-kernel-base mangled -o "$d/rep" -f $(cmd "$p" "$d/ncu.bin") >"$d/ncu.out" 2>&1
    ncu -i "$d/rep.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled >"$d/ncu.csv" 2>/dev/null
    ncu -i "$d/rep.ncu-rep" --page raw --csv --metrics launch__grid_size,launch__block_size --print-kernel-base mangled \
      >"$d/launches.ncu.csv" 2>/dev/null
    "$BANKCHECK" compare --ncu "$d/ncu.csv" --ncu-launches "$d/launches.ncu.csv" "$d"/cap-full/launch-*.bktrace \
      >"$d/compare.txt" 2>&1
    rc=$?
    verdict=$([ "$rc" = 0 ] && echo PASS || echo FAIL)
    log "$(printf '%-20s compare  %s  rc=%s (0: every row yes) %s; %s (%s s)' "$p" "$verdict" "$rc" \
      "$(grep -m1 '^verdicts:' "$d/compare.txt")" "$(grep -m1 '^launches:' "$d/compare.txt")" "$((SECONDS - t0))")"
  fi
done
log "passed: $(grep -c ' PASS ' "$SUMMARY"), failed: $(grep -c ' FAIL ' "$SUMMARY"), skipped: $(grep -c ' SKIP ' "$SUMMARY"); $((SECONDS - t_start)) s"
tar -czf "$OUT/suite.tar.gz" -C "$OUT" --exclude=build --exclude='*.bktrace' --exclude='*.partial' --exclude='*.cubin' \
  --exclude='*.ncu-rep' --exclude=suite.tar.gz . 2>/dev/null
log "packed $OUT/suite.tar.gz ($(du -h "$OUT/suite.tar.gz" | cut -f1))"
