#!/usr/bin/env bash
# Model-versus-hardware harness (docs/validation.md). Run on the GPU machine
# from the repository root:
#   BIN=build-gpu/bin PRED=build-gpu/predicted bash validate/harness/run_all.sh [program ...]
# (merge_sort's time step sorts up to 1.1e9 keys per shape: about 90 s per
# shape on an H100, so give it STEP_LIMIT=400 or run it per --shape.)
# BIN holds the kernel.<program> binaries (built on the development machine:
# validate/harness/prepare.sh), PRED the <program>.predicted.csv files that
# `kernel.<program> --mode predict` wrote there for the same inputs. Without
# BIN the kernels are built here with cmake (needs the project's dependencies).
# For each program: check (GPU output vs the same code on the CPU, GPU trace vs
# CPU trace), profile under Nsight Compute, compare with the prediction per
# launch (launch_compare.py), per instruction (sass: per_instruction.py), time.
# Everything lands in $OUT/results.tar.gz; summaries are also printed.
set -uo pipefail
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d)
res="$work/results"
mkdir -p "$res"
programs=${*:-"transpose pbs merge"}
STEPS=${STEPS:-"check profile sass time"}
if [[ -z "${BIN:-}" ]]; then
  cmake -S . -B build-harness -G Ninja -DCMAKE_BUILD_TYPE=Release > "$res/build.log" 2>&1 &&
    cmake --build build-harness -j"$(nproc)" $(for p in $programs; do echo --target kernel.$p; done) >> "$res/build.log" 2>&1 ||
    { echo "build failed: see build.log"; tail -20 "$res/build.log"; }
  BIN=build-harness/kernels
fi
PRED=${PRED:-build-gpu/predicted}
# kernel.merge_sort reads the worst-case inputs prepare.sh cached beside the predictions.
export BANKCHECK_MERGE_SORT_INPUTS=${BANKCHECK_MERGE_SORT_INPUTS:-$(dirname "$PRED")/inputs}
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
  ncu --version | tail -1
  nvcc --version | tail -1
  echo "programs: $programs; steps: $STEPS; BIN=$BIN PRED=$PRED"
  echo "ncu command: ncu --clock-control none --csv --page raw --metrics $metrics -k regex:phased_kernel <bin> --mode profile --out <dir>"
} > "$res/environment.txt"
cat "$res/environment.txt"
status=0
# Pack after every step: a run cut off by its time limit still returns what it did.
pack() { (cd "$work" && tar czf "$OUT/results.tar.gz" results); }
for p in $programs; do
  exe="$BIN/kernel.$p"
  if [[ ! -x "$exe" ]]; then echo "MISSING $exe"; status=1; continue; fi
  if [[ " $STEPS " == *" check "* ]]; then
    timeout "${STEP_LIMIT:-240}" "$exe" --mode check > "$res/$p.check.log" 2>&1
    rc=$?
    echo "$p check: rc=$rc, $(grep -c '^ok ' "$res/$p.check.log") ok, $(grep -c '^FAIL' "$res/$p.check.log") FAIL"
    grep '^FAIL' "$res/$p.check.log" | head -5
    [[ $rc -ne 0 ]] && status=1
  fi
  pack
  if [[ " $STEPS " == *" profile "* ]]; then
    timeout "${STEP_LIMIT:-240}" ncu --clock-control none --csv --page raw --metrics "$metrics" -k regex:phased_kernel \
      "$exe" --mode profile --out "$res" > "$res/$p.ncu.csv" 2> "$res/$p.ncu.err"
    rc=$?
    echo "$p profile: rc=$rc, $(grep -c '^"[0-9]' "$res/$p.ncu.csv") kernels profiled"
    if [[ -f "$PRED/$p.predicted.csv" ]]; then
      cp "$PRED/$p.predicted.csv" "$res/"
      python3 validate/harness/launch_compare.py --title "$p" --predicted "$res/$p.predicted.csv" \
        --manifest "$res/$p.manifest.csv" --ncu "$res/$p.ncu.csv" \
        --csv "$res/$p.compare.csv" --markdown "$res/$p.summary.md" || status=1  # a mismatch or an unpaired launch
    else
      echo "no prediction $PRED/$p.predicted.csv"
    fi
  fi
  pack
  if [[ " $STEPS " == *" sass "* ]]; then
    # Per-instruction counts: SourceCounters of every launch (a second ncu
    # pass, the same launches as profile), the SASS with its inline line info,
    # and per_instruction.py to map each LDS/STS to its site.
    sdir="$work/sass-$p"
    mkdir -p "$sdir"
    timeout "${STEP_LIMIT:-240}" ncu --clock-control none --section SourceCounters -k regex:phased_kernel \
      -o "$sdir/source" -f "$exe" --mode profile --out "$sdir" > /dev/null 2> "$res/$p.sass.err"
    ncu -i "$sdir/source.ncu-rep" --page source --csv --print-source sass > "$res/$p.sass.csv" 2>> "$res/$p.sass.err"
    exe_abs=$(realpath "$exe")
    (cd "$sdir" && cuobjdump -xelf all "$exe_abs" > /dev/null && for c in *.cubin; do nvdisasm -gi -c "$c"; done) \
      > "$res/$p.gi.txt" 2>> "$res/$p.sass.err"
    if [[ -f "$PRED/$p.predicted_sites.csv" ]]; then
      cp "$PRED/$p.predicted_sites.csv" "$res/"
      python3 validate/harness/per_instruction.py --title "$p" --sass "$res/$p.sass.csv" --disasm "$res/$p.gi.txt" \
        --manifest "$sdir/$p.manifest.csv" --predicted-sites "$res/$p.predicted_sites.csv" --repo . \
        --csv "$res/$p.per_instruction.csv" --markdown "$res/$p.per_instruction.md" || status=1
    else
      echo "no prediction $PRED/$p.predicted_sites.csv"
    fi
    gzip -f "$res/$p.sass.csv" "$res/$p.gi.txt"
  fi
  pack
  if [[ " $STEPS " == *" time "* ]]; then
    timeout "${STEP_LIMIT:-240}" "$exe" --mode time --out "$res" > "$res/$p.time.log" 2>&1
    echo "$p time: rc=$?, $(grep -c '^time ' "$res/$p.time.log") timings"
  fi
  pack
done
pack
cp "$res"/*.summary.md "$OUT/" 2>/dev/null  # (the device call returns at most 8 files: the rest is in the tarball)
exit $status
