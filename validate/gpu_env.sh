# shellcheck shell=bash
# What the GPU scripts of validate/ share, sourced (from the repository root, or by path
# from the script's folder) instead of spelled out in each:
#
#   gpu_environment        the run's header: UTC date, GPU and driver, nvcc, ncu and the
#                          git commit, one line each (what a result README quotes)
#   log MESSAGE...         MESSAGE on stdout and appended to $GPU_LOG (the script's summary file)
#   now                    a timestamp (seconds, with nanoseconds)
#   since T [DIGITS]       seconds from timestamp T to now, DIGITS decimals (default 2)
#   gpu_results NAME [BUDGET]
#                          the run's folders: OUT (required) made absolute, R=$OUT/NAME and a
#                          scratch folder W; log and gpu_step write to R (GPU_LOG and STEP_LOG
#                          $R/steps.log, STEP_DIR $R); with BUDGET (seconds) the run ends that
#                          long from now (STEP_BUDGET); gpu_pack tars R into $OUT/NAME.tar.gz
#   gpu_step NAME SECONDS CMD...
#                          CMD under `timeout SECONDS`, its stdout and stderr in
#                          $STEP_DIR/NAME.log (default $OUT); then "== NAME: exit RC after S s"
#                          on stdout and appended to $STEP_LOG where set. With STEP_BUDGET
#                          set (the run's end on bash's SECONDS), the limit is cut to what is
#                          left of it less STEP_RESERVE (seconds kept to pack the results,
#                          default 0), and a step with under 5 s left is skipped, and says
#                          so. A step still running 5 s after its limit is killed. Returns RC.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}

gpu_environment() {
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
  echo "nvcc: $("$NVCC" --version 2>/dev/null | tail -n 1)"
  echo "ncu: $("$NCU" --version 2>/dev/null | tail -n 1)"
  echo "git: $(git rev-parse HEAD 2>/dev/null || echo 'not a git checkout')"
}

log() { echo "$*" | tee -a "${GPU_LOG:?set GPU_LOG to the file log appends to}"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" -v d="${2:-2}" 'BEGIN { printf "%.*f", d, b - a }'; }

gpu_step() {
  local name=$1 limit=$2 t0=$SECONDS rc
  shift 2
  if [ -n "${STEP_BUDGET:-}" ]; then
    local left=$((STEP_BUDGET - SECONDS - ${STEP_RESERVE:-0}))
    ((left < limit)) && limit=$left
    if ((limit < 5)); then
      echo "== $name: skipped, ${left} s of the budget left" | tee -a "${STEP_LOG:-/dev/null}"
      return 124
    fi
  fi
  echo "== $name: start" | tee -a "${STEP_LOG:-/dev/null}"
  timeout -k 5 "$limit" "$@" >"${STEP_DIR:-$OUT}/$name.log" 2>&1
  rc=$?
  echo "== $name: exit $rc after $((SECONDS - t0)) s" | tee -a "${STEP_LOG:-/dev/null}"
  return $rc
}

gpu_results() {
  : "${OUT:?set OUT}"
  mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
  R="$OUT/$1"
  mkdir -p "$R"
  W=$(mktemp -d)
  GPU_LOG="$R/steps.log" STEP_LOG="$R/steps.log" STEP_DIR="$R"
  if [ -n "${2:-}" ]; then STEP_BUDGET=$((SECONDS + $2)); fi
}

gpu_pack() { tar -C "$OUT" -czf "$OUT/$(basename "$R").tar.gz" "$(basename "$R")"; }
