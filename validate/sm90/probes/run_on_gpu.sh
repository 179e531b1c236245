#!/usr/bin/env bash
# One entry point for the probe measurements on an H100 (run from the
# repository root on the GPU machine; results go to $OUT):
#
#   OUT=/path/to/out bash validate/sm90/probes/run_on_gpu.sh
#
# What it does, in order (each step logged, timed, and allowed to fail
# without stopping the others; the whole run keeps to a time budget,
# PROBES_BUDGET_S seconds, default 270, and skips what no longer fits):
#   1. environment (date, GPU, driver, clocks, ncu/nvcc/sanitizer versions)
#   2. compiles the four programs (nvcc -arch=sm_90 -O2 -std=c++20 -lineinfo)
#      in parallel, dumps their SASS and checks that every probe kernel holds
#      exactly the intended instruction (validate/sm90/probes/check_sass.py)
#   3. runs every program once without the profiler (a crash shows here)
#   4. shared-memory latency and throughput (validate/latency), plot
#   5. lists the metrics this ncu knows (grep for ldsm, stsm, ldgsts, atom,
#      shared) and picks the kernel-level counters to collect
#   6. calibrates: three microbench cases with known answers (1, 32 and 2
#      wavefronts) must come out right per instruction and per kernel; this
#      also picks how per-instruction counters are collected (the source
#      metrics alone, else the SourceCounters section) and times ncu
#   7. profiles, in priority order, one ncu run per group (split into chunks
#      when the budget requires): atom, matrix (ldsm/stsm), cpasync, cgsrc
#      (cp.async.cg, source and destination in 16-byte chunks), cgline (the
#      cgsrc patterns of several source lines, the lines' spacing varied),
#      cgwarm (the same with the sources read into L2 first), cgforms (the
#      same in Triton's forms: kinds cgsrcsize and cgignore; in pairs:
#      cgpair, cgpairplain; warm: cgwarmsrcsize), casrcsize (the .ca
#      copies of cpasync in the source-size form), zfill (the ignore-src
#      form with zero-filling lanes), caltc and cgltc (the copies of cpasync
#      and cgsrc with the L2::128B hint), s12
#      (12-byte structs), cub12 (CUB with a 12-byte type), ld8mix (8-byte
#      loads, validate/sm90/cases/ld8mix.trace on the existing microbench),
#      ld8pred (the ld8mix loads with idle lanes, predicated off or
#      diverged instead of exited), global (sectors)
#   8. joins the exports with the cases (validate/sm90/probes/probe_summary.py)
#   9. compute-sanitizer memcheck of the probe program, if time is left
#  10. packs $OUT/probes.tar.gz and prints a summary table
#
# PROBE_GROUPS (comma-separated, default all) limits steps 4 and 7 to some of
# latency, atom, matrix, cpasync, cgsrc, cgline, cgwarm, cgforms, casrcsize, zfill, caltc, cgltc, s12, cub12,
# ld8mix, ld8pred, global. One more group runs only when named: layout (the
# layout x access cases of validate/layout/: their ldmatrix, stmatrix and
# cp.async instructions on the probe program, group `layout`, and their ld/st
# on the microbench, group `layoutldst`), e.g.
#   PROBE_GROUPS=layout PROBES_BUDGET_S=600 OUT=DIR bash validate/sm90/probes/run_on_gpu.sh
#
# Files in $OUT: probes.tar.gz (everything), summary.txt (per-case table),
# run.log, sass_check.txt, latency.csv, latency_fit.txt, latency.png, and
# ncu-reports.tar (the .ncu-rep files) when it fits in 15 MiB.
set -u
export LC_ALL=C
export PATH="$PATH:/usr/local/cuda/bin"   # ncu, nvcc, cuobjdump, nvdisasm where the toolkit keeps them

OUT=${OUT:?set OUT to the directory that receives the results}
BUDGET=${PROBES_BUDGET_S:-270}
RESERVE=25          # seconds kept for summarising and packing
MAXCHUNK=${PROBES_MAXCHUNK:-130}
ROOT=$(pwd)
WORK=${PROBES_WORK:-$(mktemp -d /tmp/bankcheck-probes.XXXXXX)}
RES=$WORK/results
BIN=$WORK/bin
CASES=$ROOT/validate/sm90/probes/cases/probes.csv
LD8=$ROOT/validate/sm90/cases/ld8mix.trace
LAYOUT_CASES=$ROOT/validate/layout/cases/layout.csv
LAYOUT_LDST=$ROOT/validate/layout/cases/layout_ldst.trace
NVFLAGS=(-arch=sm_90 -O2 -std=c++20 -lineinfo)
GROUPS_WANTED=${PROBE_GROUPS:-latency,atom,matrix,cpasync,cgsrc,cgline,cgwarm,cgforms,casrcsize,zfill,caltc,cgltc,s12,cub12,ld8mix,ld8pred,global}
want() { [[ ",$GROUPS_WANTED," == *",$1,"* ]]; }
mkdir -p "$OUT" "$RES"/{ncu,sass,latency,cases,logs} "$BIN"
LOG=$RES/run.log
: > "$RES/steps.tsv"

# the step functions: run, log, record, remaining, int, have, export_step,
# count_kinds, profile and the launch functions profile takes
# shellcheck source=steps.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/steps.sh"

log "probe run: repo $ROOT, work $WORK, out $OUT, budget ${BUDGET}s"

# ---------------------------------------------------------------- 1. environment
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  timeout 30 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv 2>&1
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
  echo "compute-sanitizer: $(compute-sanitizer --version 2>&1 | tail -n 1)"
  echo "python: $(python3 --version 2>&1); matplotlib: $(python3 -c 'import matplotlib; print(matplotlib.__version__)' 2>&1 | tail -n 1)"
  echo "git: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo 'not a git checkout') $(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l) changed files"
  echo "nvcc flags: ${NVFLAGS[*]}"
} > "$RES/environment.txt" 2>&1
tee -a "$LOG" < "$RES/environment.txt"
record environment ok 0

# The committed case files must be what the generators write (a stale file
# would be measured under the wrong names): regenerate and compare.
gen=$WORK/cases-check
mkdir -p "$gen"
if python3 validate/sm90/probes/make_probe_cases.py "$gen" 2> "$RES/logs/generate.log" \
   && python3 validate/sm90/make_cases.py ld8mix > "$gen/ld8mix.trace" 2>> "$RES/logs/generate.log"; then
  stale=""
  for f in "$gen"/*; do
    b=$(basename "$f")
    committed=$ROOT/validate/sm90/probes/cases/$b
    [[ $b == ld8mix.trace ]] && committed=$LD8
    cmp -s "$f" "$committed" || stale="$stale $b"
  done
  if [[ -z $stale ]]; then record cases-fresh ok 0; log "case files equal the generators' output"
  else record cases-fresh "differ:$stale" 0; log "WARNING: committed case files differ from the generators:$stale"; fi
else
  record cases-fresh failed 0 "generator failed"
  log "WARNING: a case generator failed (logs/generate.log)"
fi
cp "$CASES" "$ROOT"/validate/sm90/probes/cases/*.trace "$LD8" "$RES/cases/" 2>/dev/null
if want layout; then
  lgen=$WORK/layout-cases-check
  if python3 validate/layout/make_layout_cases.py "$lgen" 2>> "$RES/logs/generate.log"; then
    lstale=""
    for f in "$lgen"/*; do cmp -s "$f" "$ROOT/validate/layout/cases/$(basename "$f")" || lstale="$lstale $(basename "$f")"; done
    if [[ -z $lstale ]]; then record layout-cases-fresh ok 0; else record layout-cases-fresh "differ:$lstale" 0; log "WARNING: layout case files differ from the generator:$lstale"; fi
  else
    record layout-cases-fresh failed 0 "generator failed"
  fi
  cp "$ROOT"/validate/layout/cases/* "$RES/cases/" 2>/dev/null
fi

# ---------------------------------------------------------------- 2. compile
declare -A SRC=(
  [probes]=validate/sm90/probes/probes.cu
  [microbench]=validate/sm90/microbench.cu   # also the calibration's instrument
)
want cub12 && SRC[cub12]=validate/sm90/probes/cub12.cu
want latency && SRC[shmem_latency]=validate/latency/shmem_latency.cu
declare -A PID
t0=$SECONDS
for p in "${!SRC[@]}"; do
  timeout -k 5 300 nvcc "${NVFLAGS[@]}" -o "$BIN/$p" "${SRC[$p]}" > "$RES/logs/compile-$p.log" 2>&1 &
  PID[$p]=$!
done
for p in "${!SRC[@]}"; do
  if wait "${PID[$p]}"; then record "compile-$p" ok $((SECONDS - t0)); log "compiled $p"
  else record "compile-$p" failed $((SECONDS - t0)); log "FAILED to compile $p:"; tail -n 5 "$RES/logs/compile-$p.log" | tee -a "$LOG"; fi
done

# ---------------------------------------------------------------- SASS
for p in probes cub12 microbench shmem_latency; do
  have "$p" && timeout -k 5 60 cuobjdump -sass "$BIN/$p" > "$RES/sass/$p.sass" 2> "$RES/logs/cuobjdump-$p.log"
done
check_args=()
[[ -s $RES/sass/probes.sass ]] && check_args+=(probes "$RES/sass/probes.sass")
[[ -s $RES/sass/microbench.sass ]] && check_args+=(microbench "$RES/sass/microbench.sass")
[[ -s $RES/sass/shmem_latency.sass ]] && check_args+=(latency "$RES/sass/shmem_latency.sass")
[[ -s $RES/sass/cub12.sass ]] && check_args+=(cub12 "$RES/sass/cub12.sass")
if (( ${#check_args[@]} )); then
  timeout -k 5 60 python3 validate/sm90/probes/check_sass.py "${check_args[@]}" > "$RES/sass/check.txt" 2>&1
  rc=$?
  record sass-check "$([[ $rc == 0 ]] && echo ok || echo "mismatch(rc=$rc)")" 0
  log "SASS check: $(tail -n 1 "$RES/sass/check.txt")"
  grep '^FAIL' "$RES/sass/check.txt" | head -n 10 | tee -a "$LOG"
fi
# line info for CUB's instructions (inline chain per SASS instruction)
if have cub12; then
  ( cd "$WORK" && mkdir -p cubin && cd cubin && cuobjdump -xelf all "$BIN/cub12" > /dev/null 2>&1 \
    && for f in *.cubin; do timeout -k 5 60 nvdisasm -gi -c "$f"; done > "$RES/sass/cub12.gi.txt" 2>&1 ) || true
fi

# ---------------------------------------------------------------- 3. plain runs
have probes && run native-probes 60 "$BIN/probes" "$CASES" --log "$RES/logs/native-probes.launches.txt"
have cub12 && run native-cub12 60 "$BIN/cub12"
have microbench && run native-ld8mix 60 "$BIN/microbench" "$LD8"

# ---------------------------------------------------------------- 4. latency
if have shmem_latency; then
  run latency 90 "$BIN/shmem_latency" "$RES/latency" --reps 7
  run latency-analyze 60 python3 validate/latency/analyze.py "$RES/latency"
  head -n 20 "$RES/latency/latency_fit.txt" 2>/dev/null | sed 's/^/    /' | tee -a "$LOG"
fi

# ---------------------------------------------------------------- 5. metrics
timeout -k 5 60 ncu --query-metrics > "$RES/ncu/query-metrics.txt" 2>&1
if ! grep -q "l1tex__" "$RES/ncu/query-metrics.txt"; then
  timeout -k 5 60 ncu --query-metrics --chip gh100 > "$RES/ncu/query-metrics.txt" 2>&1
fi
grep -iE 'ldsm|stsm|ldgsts|atom|shared' "$RES/ncu/query-metrics.txt" > "$RES/ncu/query-metrics-grep.txt" 2>/dev/null
log "ncu knows $(grep -cE '^[a-z0-9_]+__' "$RES/ncu/query-metrics.txt") base metrics; $(wc -l < "$RES/ncu/query-metrics-grep.txt") mention ldsm/stsm/ldgsts/atom/shared"
CORE="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
KM=$(python3 - "$RES/ncu/query-metrics.txt" "$CORE" <<'PY'
import re, sys
names = []
for line in open(sys.argv[1], errors="replace"):
    w = line.split()
    if w and re.fullmatch(r"[a-z0-9]+__[a-z0-9_]+", w[0]):
        names.append(w[0])
core = sys.argv[2].split(",")
# Counters that can tell which unit and operation a probe's traffic lands
# in; each gets .sum. The rest of the list is logged, not collected.
patterns = [  # in priority order: the list is cut at 60
    r"l1tex__t_(requests|sectors)_pipe_lsu_mem_global_op_(ld|st|atom|red|ldgsts(_cache_access|_cache_bypass)?)",
    r"l1tex__data_pipe_lsu_wavefronts(_mem_shared)?(_op_\w+|_cmd_\w+)?",
    r"l1tex__data_bank_conflicts_pipe_lsu(_mem_shared)?(_op_\w+|_cmd_\w+)?",
    r"smsp__inst_executed_op_(shared|ldsm|stsm|ldgsts|atom|red|global)\w*",
    r"l1tex__data_bank_(reads|writes)(_pipe_lsu)?(_mem_shared)?(_op_\w+)?",
    r"smsp__sass_data_bytes_mem_shared\w*",
    r"smsp__sass_inst_executed_op_(shared|ldsm|stsm|ldgsts|atom|global)\w*",
    r"sm__sass_data_bytes_mem_shared\w*",
]
chosen = list(core)
for p in patterns:
    for n in names:
        m = n + ".sum"
        if re.fullmatch(p, n) and m not in chosen:
            chosen.append(m)
print(",".join(chosen[:60]))
PY
)
[[ -z $KM ]] && KM=$CORE
echo "$KM" | tr ',' '\n' > "$RES/ncu/metrics-chosen.txt"
log "kernel-level metrics chosen: $(wc -l < "$RES/ncu/metrics-chosen.txt") (ncu/metrics-chosen.txt)"
LIGHT="inst_executed,thread_inst_executed_true,memory_type,memory_access_type,memory_access_size_type,memory_l1_wavefronts_shared,memory_l1_wavefronts_shared_ideal,memory_l1_tag_requests_global,memory_l2_theoretical_sectors_global,memory_l2_theoretical_sectors_global_ideal"

# ---------------------------------------------------------------- 6. calibration
SRC_OPTS=()
LAST_RAN_OPTS=()
TK=0.5   # seconds per profiled kernel, refined after every chunk
if have microbench; then
  st=$WORK/selftest.trace
  python3 - "$st" <<'PY'
import sys
rows = [("selftest-ld4-bcast", 4, [0] * 32),            # 1 wavefront
        ("selftest-ld4-column", 4, [128 * l for l in range(32)]),  # 32
        ("selftest-ld8-row", 8, [8 * l for l in range(32)])]       # 2
with open(sys.argv[1], "w") as f:
    f.write("warp 32\n")
    for rep in range(4):
        for name, w, a in rows:
            f.write(f"@{name}-{rep} ld {w} " + " ".join(map(str, a)) + "\n")
PY
  grep '^@' "$st" | sed 's/^@\([^ ]*\) .*/\1/' > "$WORK/selftest.names"
  expect=1,32,2,1,32,2,1,32,2,1,32,2   # the three cases, four times over
  # Attempts, best first. A failed ncu run blames the metric list (skip the
  # other attempts with that list; KM2 is KM without the metrics ncu names in
  # its errors); wrong answers blame the way source counters are collected
  # (skip that mode).
  declare -A bad_set=() bad_mode=()
  for attempt in light:KM full:KM light:KM2 full:KM2 light:CORE full:CORE; do
    mode=${attempt%%:*}; set=${attempt##*:}
    [[ -n ${bad_set[$set]:-} || -n ${bad_mode[$mode]:-} ]] && continue
    case $set in
      KM) mets=$KM ;;
      CORE) mets=$CORE ;;
      KM2)
        # drop what ncu complained about, else keep the core and the
        # instruction counters (the family of the proven ones)
        mets=$(python3 - "$KM" "$CORE" "$RES"/logs/ncu-selftest-*-KM.log <<'PY'
import re, sys
km, core = sys.argv[1].split(","), sys.argv[2].split(",")
bad = set()
for path in sys.argv[3:]:
    for line in open(path, errors="replace"):
        if "ERROR" in line:
            bad.update(re.findall(r"[a-z0-9]+__[a-z0-9_]+", line))
keep = [m for m in km if m.split(".")[0] not in bad and m not in bad]
if keep == km:
    keep = core + [m for m in km if m.startswith("smsp__inst_executed_op_") and m not in core]
print(",".join(keep))
PY
)
        [[ -z $mets || $mets == "$KM" || $mets == "$CORE" ]] && continue ;;
    esac
    if [[ $mode == light ]]; then opts=(--metrics "$mets,$LIGHT"); else opts=(--section SourceCounters --metrics "$mets"); fi
    step=selftest-$mode-$set
    cp "$WORK/selftest.names" "$RES/ncu/$step.launches.txt"
    t0=$SECONDS
    if ! run "ncu-$step" 90 ncu --clock-control none "${opts[@]}" -k regex:one_instruction -f -o "$RES/ncu/$step" \
         "$BIN/microbench" "$st"; then
      # an error naming a source metric blames the light mode, else the list
      if [[ $mode == light ]] && grep -i error "$RES/logs/ncu-$step.log" \
           | grep -qE "(^|[^a-z0-9_])(${LIGHT//,/|})([^a-z0-9_]|$)"; then
        bad_mode[light]=1
      else
        bad_set[$set]=1
      fi
      continue
    fi
    export_step "$step"
    LAST_RAN_OPTS=("${opts[@]}")
    if python3 validate/sm90/probes/probe_summary.py --selftest "$RES/ncu/$step" "$expect" > "$RES/logs/$step.check.log" 2>&1; then
      SRC_OPTS=("${opts[@]}")
      KM_USED=$mets
      TK=$(awk -v d=$((SECONDS - t0)) 'BEGIN{t=d/12; if (t<0.2) t=0.2; printf "%.2f", t}')
      record "calibration" ok $((SECONDS - t0)) "$mode source metrics, $set kernel metrics"
      log "calibration passed with $mode source counters and $set metrics; about ${TK}s per kernel (upper bound)"
      sed 's/^/    /' "$RES/logs/$step.check.log" | tee -a "$LOG"
      echo "$KM_USED" | tr ',' '\n' > "$RES/ncu/metrics-used.txt"
      break
    fi
    bad_mode[$mode]=1
    log "calibration $step: wrong answers:"; sed 's/^/    /' "$RES/logs/$step.check.log" | tee -a "$LOG"
  done
fi
if (( ${#SRC_OPTS[@]} == 0 )); then
  # No attempt gave the known answers. Measure anyway with the last options
  # ncu accepted (or the core metrics), and say so: the numbers need a look.
  if (( ${#LAST_RAN_OPTS[@]} )); then SRC_OPTS=("${LAST_RAN_OPTS[@]}"); else SRC_OPTS=(--metrics "$CORE"); fi
  record calibration failed 0 "profiling with: ${SRC_OPTS[*]:0:2}"
  log "WARNING: calibration failed in every mode; profiling with ${SRC_OPTS[*]:0:1} ... (check the numbers)"
fi

# ---------------------------------------------------------------- 7. profile
CMD=()
if want atom && have probes; then PROBE_KINDS=atom; profile atom "$(count_kinds atom)" probe_ probes_launch; fi
if want matrix && have probes; then PROBE_KINDS=ldsm,stsm; profile matrix "$(count_kinds ldsm,stsm)" probe_ probes_launch; fi
if want cpasync && have probes; then PROBE_KINDS=cpasync; profile cpasync "$(count_kinds cpasync)" probe_ probes_launch; fi
if want cgsrc && have probes; then PROBE_KINDS=cgsrc; profile cgsrc "$(count_kinds cgsrc)" probe_ probes_launch; fi
if want cgline && have probes; then PROBE_KINDS=cgline; profile cgline "$(count_kinds cgline)" probe_ probes_launch; fi
if want casrcsize && have probes; then PROBE_KINDS=casrcsize; profile casrcsize "$(count_kinds casrcsize)" probe_ probes_launch; fi
if want cgwarm && have probes; then PROBE_KINDS=cgwarm; profile cgwarm "$(count_kinds cgwarm)" probe_ probes_launch; fi
if want cgforms && have probes; then PROBE_KINDS=cgsrcsize,cgignore,cgpair,cgpairplain,cgwarmsrcsize; profile cgforms "$(count_kinds cgsrcsize,cgignore,cgpair,cgpairplain,cgwarmsrcsize)" probe_ probes_launch; fi
if want zfill && have probes; then PROBE_KINDS=zfill; profile zfill "$(count_kinds zfill)" probe_ probes_launch; fi
if want caltc && have probes; then PROBE_KINDS=caltc; profile caltc "$(count_kinds caltc)" probe_ probes_launch; fi
if want cgltc && have probes; then PROBE_KINDS=cgltc; profile cgltc "$(count_kinds cgltc)" probe_ probes_launch; fi
if want s12 && have probes; then PROBE_KINDS=s12; profile s12 "$(count_kinds s12)" probe_ probes_launch; fi
if want cub12 && have cub12; then profile cub12 15 cub12_ cub_launch; fi
if want ld8mix && have microbench; then profile ld8mix "$(grep -c '^@' "$LD8" 2>/dev/null)" one_instruction ld8_launch; fi
if want ld8pred && have probes; then PROBE_KINDS=ld8; profile ld8pred "$(count_kinds ld8)" probe_ probes_launch; fi
if want global && have probes; then PROBE_KINDS=gld,gst; profile global "$(count_kinds gld,gst)" probe_ probes_launch; fi
if want layout && have probes; then
  # the probe program on the layout manifest, then the microbench on the ld/st trace
  saved_cases=$CASES; CASES=$LAYOUT_CASES; PROBE_KINDS=ldsm,stsm,cpasync
  profile layout "$(count_kinds ldsm,stsm,cpasync)" probe_ probes_launch
  CASES=$saved_cases
fi
if want layout && have microbench; then
  saved_ld8=$LD8; LD8=$LAYOUT_LDST
  profile layoutldst "$(grep -c '^@' "$LD8" 2>/dev/null)" one_instruction ld8_launch
  LD8=$saved_ld8
fi

# ---------------------------------------------------------------- 8. summary
timeout -k 5 60 python3 validate/sm90/probes/probe_summary.py "$RES" > "$RES/summary-console.txt" 2>&1
rc=$?
record summarize "$([[ $rc == 0 ]] && echo ok || echo "failed(rc=$rc)")" 0

# ---------------------------------------------------------------- 9. sanitizer
if have probes && (( $(remaining) > RESERVE + 45 )); then
  run sanitizer-probes 40 compute-sanitizer --tool memcheck --print-limit 20 "$BIN/probes" "$CASES"
  grep -E "ERROR SUMMARY" "$RES/logs/sanitizer-probes.log" | tee -a "$LOG"
else
  record sanitizer-probes skipped 0 budget
fi

# ---------------------------------------------------------------- 10. pack
for f in "$RES/summary.txt" "$RES/sass/check.txt" "$RES/latency/latency.csv" "$RES/latency/latency_fit.txt" \
         "$RES/latency/latency.png"; do
  [[ -f $f ]] && cp "$f" "$OUT/$(basename "$f" | sed 's/^check.txt$/sass_check.txt/')"
done
tar -C "$WORK" --exclude='*.ncu-rep' -czf "$OUT/probes.tar.gz" results 2>> "$LOG"
if (( $(int "$(stat -c %s "$OUT/probes.tar.gz" 2>/dev/null)") > 15 * 1024 * 1024 )); then
  log "probes.tar.gz over 15 MiB: packing again without the raw source pages (summary/*.instructions.csv keeps their memory rows)"
  tar -C "$WORK" --exclude='*.ncu-rep' --exclude='*.source.csv' -czf "$OUT/probes.tar.gz" results 2>> "$LOG"
fi
reps=$(int "$(find "$RES/ncu" -name '*.ncu-rep' -printf '%s\n' 2>/dev/null | awk '{s+=$1} END{print s+0}')")
if (( reps > 0 && reps < 15 * 1024 * 1024 )); then
  ( cd "$RES" && find ncu -name '*.ncu-rep' -print0 | tar --null -T - -cf "$OUT/ncu-reports.tar" ) 2>> "$LOG"
fi

{
echo
echo "================ probe run summary ================"
echo "elapsed ${SECONDS}s of a ${BUDGET}s budget; results in $OUT ($(ls "$OUT" | tr '\n' ' '))"
printf '%-34s %-22s %6s  %s\n' step status secs note
while IFS=$'\t' read -r s st t n; do printf '%-34s %-22s %6s  %s\n' "$s" "$st" "$t" "$n"; done < "$RES/steps.tsv"
echo "---- measured cases"
cat "$RES/summary-console.txt" 2>/dev/null
echo "---- latency (cycles per dependent step; fits in latency_fit.txt)"
if [[ -f $RES/latency/latency.csv ]]; then
  awk -F, 'NR==1 || ($1=="ld" && $2==4 && ($3=="cf" || $3=="bcast" || ($3=="spread" && ($4==2 || $4==4 || $4==8 || $4==16 || $4==32))))' \
    "$RES/latency/latency.csv" | column -t -s, 2>/dev/null
  grep -E '^(ld|st) ' "$RES/latency/latency_fit.txt" 2>/dev/null
fi
echo "---- SASS check: $(tail -n 1 "$RES/sass/check.txt" 2>/dev/null)"
} 2>&1 | tee -a "$LOG"
cp "$LOG" "$OUT/run.log"
