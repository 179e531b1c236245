# shellcheck shell=bash
# The step functions of validate/sm90/probes/run_on_gpu.sh, which sources this
# file once its paths and budget are set (OUT, BUDGET, RESERVE, MAXCHUNK,
# ROOT, WORK, RES, BIN, CASES, LD8, LOG). The functions read those, and the
# globals the run sets as it goes (TK, SRC_OPTS, CMD, PROBE_KINDS), when
# they are called.

# a non-negative integer, or 0: guards arithmetic on tool output (under
# set -u a stray word in $(( )) would end the whole run)
int() { if [[ ${1:-} =~ ^[0-9]+$ ]]; then echo "$1"; else echo 0; fi; }
log() { echo "[$(date -u +%H:%M:%S) +${SECONDS}s] $*" | tee -a "$LOG"; }
record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >> "$RES/steps.tsv"; }
remaining() { echo $((BUDGET - SECONDS)); }

# run NAME CAP CMD...: CMD under a timeout of min(CAP, what the budget
# leaves), output in logs/NAME.log; records and returns its status.
run() {
  local name=$1 cap=$2
  shift 2
  local left=$(( $(remaining) - RESERVE ))
  if (( left < 5 )); then
    log "SKIP $name: time budget spent"
    record "$name" skipped 0 budget
    return 99
  fi
  local t=$(( cap < left ? cap : left ))
  local t0=$SECONDS
  timeout -k 5 "$t" "$@" > "$RES/logs/$name.log" 2>&1
  local rc=$?
  local dt=$((SECONDS - t0)) status
  if (( rc == 0 )); then status=ok
  elif (( rc == 124 || rc == 137 )); then status="timeout(${t}s)"
  else status="failed(rc=$rc)"; fi
  record "$name" "$status" "$dt"
  log "$name: $status in ${dt}s"
  if (( rc != 0 )); then tail -n 5 "$RES/logs/$name.log" | sed 's/^/    /' | tee -a "$LOG"; fi
  return $rc
}

# have PROGRAM: was it compiled?
have() { [[ -x $BIN/$1 ]]; }

export_step() {  # STEP: raw and source pages of RES/ncu/STEP.ncu-rep
  local step=$1 rep=$RES/ncu/$1.ncu-rep
  if [[ ! -f $rep ]]; then log "no report for $step"; return 1; fi
  local t=$(( $(remaining) - 10 ))
  (( t > 120 )) && t=120
  (( t < 15 )) && t=15
  timeout -k 5 "$t" ncu -i "$rep" --page raw --csv --print-units base > "$RES/ncu/$step.raw.csv" 2> "$RES/logs/export-$step.err"
  timeout -k 5 "$t" ncu -i "$rep" --page source --csv --print-source sass > "$RES/ncu/$step.source.csv" 2>> "$RES/logs/export-$step.err"
  log "exported $step: $(grep -c '^"[0-9]' "$RES/ncu/$step.raw.csv") kernel rows, $(grep -c '^"Kernel Name"' "$RES/ncu/$step.source.csv") source blocks"
}

count_kinds() {  # KINDS (comma list) -> number of manifest rows of those kinds
  python3 - "$CASES" "$1" <<'PY'
import sys
kinds = sys.argv[2].split(",")
n = sum(1 for l in open(sys.argv[1]) if not l.startswith("#") and l.split(",")[1:2] and l.split(",")[1] in kinds)
print(n)
PY
}

# profile GROUP TOTAL KERNEL_REGEX LAUNCH_FN: runs chunks of the group; LAUNCH_FN
# FIRST COUNT STEP sets CMD to the program's command line and writes (or has
# the program write) STEP.launches.txt.
profile() {
  local group=$1 total regex=$3 launch=$4 first=0 chunk=0
  total=$(int "$2")
  while (( first < total )); do
    local left=$(( $(remaining) - RESERVE - 15 ))
    local n=$(( total - first ))
    local fit
    fit=$(int "$(awk -v l="$left" -v t="$TK" 'BEGIN{if (t < 0.05) t = 0.05; n = int(l / (t * 1.5)); print (n < 0 ? 0 : n)}')")
    (( n > fit )) && n=$fit
    (( n > MAXCHUNK )) && n=$MAXCHUNK
    # a chunk too small to pay for ncu's start-up is not worth it; CUB's
    # program always launches all of its 15 kernels
    if (( n < 1 )) || { (( n < 10 && n < total - first )); } || { [[ $group == cub12 ]] && (( n < total )); }; then
      log "SKIP $group cases $first..$((total - 1)): time budget"
      record "ncu-$group" skipped 0 "cases $first..$((total - 1)) not measured"
      return
    fi
    local step=$group.$chunk t0=$SECONDS cap
    $launch "$first" "$n" "$step"
    cap=$(int "$(awk -v n="$n" -v t="$TK" 'BEGIN{print int(40 + 3 * n * t)}')")
    (( cap < 40 )) && cap=40
    run "ncu-$step" "$cap" ncu --clock-control none "${SRC_OPTS[@]}" -k "regex:$regex" -f -o "$RES/ncu/$step" "${CMD[@]}"
    export_step "$step"
    local dt=$((SECONDS - t0))
    if (( n >= 20 )); then TK=$(awk -v d="$dt" -v n="$n" 'BEGIN{t = d / n; if (t < 0.05) t = 0.05; printf "%.3f", t}'); fi
    first=$((first + n)); chunk=$((chunk + 1))
  done
}

probes_launch() {  # the kinds are in PROBE_KINDS
  CMD=("$BIN/probes" "$CASES" --kind "$PROBE_KINDS" --first "$1" --count "$2" --log "$RES/ncu/$3.launches.txt")
}
ld8_launch() {  # a chunk of ld8mix.trace for the unchanged microbench
  local f=$WORK/$3.trace
  { echo "warp 32"; grep '^@' "$LD8" | sed -n "$(( $1 + 1 )),$(( $1 + $2 ))p"; } > "$f"
  grep '^@' "$f" | sed 's/^@\([^ ]*\) .*/\1/' > "$RES/ncu/$3.launches.txt"
  CMD=("$BIN/microbench" "$f")
}
cub_launch() { CMD=("$BIN/cub12" --log "$RES/ncu/$3.launches.txt"); }
