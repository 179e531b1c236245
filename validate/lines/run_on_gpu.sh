#!/usr/bin/env bash
# Source lines on the GPU: captures a CUDA C++ program built with -lineinfo
# (lines_kernels.cu), Triton kernels (lines_triton.py) and a PyTorch script
# (lines_torch.py), profiles the same launches with Nsight Compute, exports
# its source page twice (SASS alone, for `bankcheck compare`; CUDA source
# with SASS, ncu's own line of each SASS address), and checks the line
# bankcheck gives every conflicting instruction against ncu's
# (check_lines.py). Also times `bankcheck report` on each capture.
#
#   bash validate/capture/build_carry.sh capture                  # dev machine: build-gpu/capture
#   OUT=DIR bash validate/lines/run_on_gpu.sh                      # GPU machine, repository root
#
# BANKCHECK (default build-gpu/capture/bankcheck): the CLI with the capture
# library and patches beside it. ONLY=REGEX: only the programs (cuda, triton,
# torch) whose name matches. Every step has a timeout and a line in
# $OUT/summary.txt (exit status, seconds); a failing step is reported and
# the script goes on. BUDGET (seconds, default 270): later steps are skipped.
# Packs everything but a capture's traces over 24 MB, the cubins and the
# PyTorch script's ncu report into $OUT/lines.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT to a folder for the results}"
BANKCHECK=${BANKCHECK:-build-gpu/capture/bankcheck}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$OUT/build"
SUM=$OUT/summary.txt
: >"$SUM"
log() { echo "$*" | tee -a "$SUM"; }
BUDGET=${BUDGET:-270}  # seconds: a step that would start later is skipped (the archive still gets packed)
step() {  # step LOG SECONDS CMD...: run, log the exit status and time
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  if [ "$SECONDS" -ge "$BUDGET" ]; then
    log "$(printf '%-28s skipped: the time budget (%ss) is spent' "$name" "$BUDGET")"
    return 124
  fi
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  log "$(printf '%-28s rc=%-3s %4ss' "$name" "$rc" "$((SECONDS - start))")"
  return $rc
}
now() { date +%s.%N; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
  echo "nvcc: $("$NVCC" --version | tail -n 1)"
  echo "ncu: $("$NCU" --version | tail -n 1)"
  echo "nvdisasm: $(command -v nvdisasm || echo 'not on PATH')"
  python3 -c 'import torch, triton; print("torch:", torch.__version__, "triton:", triton.__version__)' 2>&1 | tail -n 1
  echo "bankcheck: $BANKCHECK"
} >"$OUT/environment.txt"
cat "$OUT/environment.txt" | tee -a "$SUM"

# name, kernel regex (mangled names, both tools), launches, command
declare -A RE=([cuda]="." [triton]="^(column|trans|colsum|cumsum|fmadot)_kernel$" [torch]=".")
declare -A COUNT=([cuda]=8 [triton]=8 [torch]=60)
declare -A CMD=([cuda]="$OUT/build/lines_kernels" [triton]="python3 validate/lines/lines_triton.py"
                [torch]="python3 validate/lines/lines_torch.py")
NAMES=()
for n in cuda triton torch; do [[ -z ${ONLY:-} || $n =~ $ONLY ]] && NAMES+=("$n"); done

step build.cuda 120 "$NVCC" -arch=sm_90 -O2 -lineinfo -o "$OUT/build/lines_kernels" validate/lines/lines_kernels.cu

# Captures in parallel (each its own process and sanitizer); ncu one program at a time after them.
for n in "${NAMES[@]}"; do
  mkdir -p "$OUT/$n"
  lazy=()
  [ "$n" != cuda ] && lazy=(env CUDA_MODULE_LOADING=LAZY)
  # shellcheck disable=SC2086
  step "$n/capture" 200 "${lazy[@]}" "$BANKCHECK" capture --kernel-name-base mangled --kernel "${RE[$n]}" \
    --launch-count "${COUNT[$n]}" -o "$OUT/$n/cap" -- ${CMD[$n]} &
done
wait
# Then per program, in turn (the quick ones first: a spent budget skips the last): ncu, its pages, compare,
# report, check.
for n in "${NAMES[@]}"; do
  d=$OUT/$n
  # shellcheck disable=SC2086
  step "$n/ncu" 150 "$NCU" --section SourceCounters --import-source yes --kernel-name-base mangled \
    -k "regex:${RE[$n]}" -c "${COUNT[$n]}" -f -o "$d/rep" ${CMD[$n]}
  rep=$d/rep.ncu-rep
  step "$n/export.sass" 90 "$NCU" -i "$rep" --page source --print-source sass --csv --print-kernel-base mangled
  cp "$OUT/$n/export.sass.log" "$d/ncu.sass.csv"
  step "$n/export.cuda_sass" 90 "$NCU" -i "$rep" --page source --print-source cuda,sass --csv \
    --print-kernel-base mangled
  cp "$OUT/$n/export.cuda_sass.log" "$d/ncu.cuda_sass.csv"
  # the page as text too (its layout, where the CSV reads otherwise); not for the PyTorch script's many kernels
  [ "$n" != torch ] &&
    step "$n/export.cuda_sass_text" 90 "$NCU" -i "$rep" --page source --print-source cuda,sass --print-kernel-base mangled
  step "$n/export.launches" 60 "$NCU" -i "$rep" --page raw --csv --metrics launch__grid_size --print-kernel-base mangled
  cp "$OUT/$n/export.launches.log" "$d/ncu.launches.csv"
  traces=("$d"/cap/launch-*.bktrace)
  shapes=(--ncu-launches "$d/ncu.launches.csv")
  "$BANKCHECK" compare --ncu "$d/ncu.sass.csv" "${shapes[@]}" "${traces[@]}" >/dev/null 2>&1
  [ $? -eq 2 ] && shapes=() && log "$n: --ncu-launches refused, compared without shapes"
  step "$n/compare" 120 "$BANKCHECK" compare --ncu "$d/ncu.sass.csv" "${shapes[@]}" "${traces[@]}"
  step "$n/compare.json" 120 "$BANKCHECK" compare --ncu "$d/ncu.sass.csv" "${shapes[@]}" --json -o "$d/compare.json" \
    "${traces[@]}"
  log "$n: $(grep -E 'instructions equal' "$OUT/$n/compare.log" | tail -n 1) | $(grep -E '^verdicts:' "$OUT/$n/compare.log")"
  for i in 1 2 3; do  # three runs of the report: its time, as the README quotes it
    t0=$(now)
    step "$n/report.$i" 120 "$BANKCHECK" report "$d/cap" --compare "$d/compare.json" -o "$d/report.html"
    t1=$(now)
    echo "$n report run $i: $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s, $(stat -c %s "$d/report.html" 2>/dev/null) bytes" | tee -a "$SUM"
  done
  step "$n/check_lines" 120 python3 validate/lines/check_lines.py --compare "$d/compare.json" --capture "$d/cap" \
    --ncu-sass "$d/ncu.sass.csv" --ncu-source "$d/ncu.cuda_sass.csv" --root . --title "$n" --csv "$d/lines.csv" \
    --report "$d/report.html"
  cat "$OUT/$n/check_lines.log" >>"$SUM"
done

log "done in ${SECONDS}s"
excludes=(--exclude=build --exclude=cubins --exclude=torch/rep.ncu-rep --exclude=lines.tar.gz)
for n in "${NAMES[@]}"; do  # a large capture's traces stay behind (the report made from them comes back)
  kb=$(du -sk "$OUT/$n/cap" 2>/dev/null | cut -f1)
  [ "${kb:-0}" -gt 24576 ] && excludes+=("--exclude=$n/cap/launch-*.bktrace") && log "$n: traces (${kb} KB) not packed"
done
tar -czf "$OUT/lines.tar.gz" -C "$OUT" "${excludes[@]}" . 2>/dev/null
log "packed $OUT/lines.tar.gz ($(du -h "$OUT/lines.tar.gz" | cut -f1))"
