#!/usr/bin/env bash
# Loads and stores through generic pointers into shared memory (LD.E, ST.E and
# their .STRONG forms), against the same cases measured as LDS/STS. Capture
# records a generic access that lands in shared memory as "ld"/"st"
# (docs/capture.md); this measures what the hardware charges for it.
# On the GPU machine, repository root:
#   OUT=DIR [FORMS="shared generic volatile relaxed"] [OPS="ld st"] [WIDTHS="1 2 4 8 16"] [TAG=all] \
#     bash validate/sm90/generic_on_gpu.sh [SET...]                          (default: blind)
# Compiles validate/sm90/microbench.cu, runs each set's cases of the given
# widths as single instructions in each form (shared: LDS/STS; generic: weak
# LD.E/ST.E; volatile: .STRONG.SYS; relaxed: .STRONG.GPU) under Nsight Compute
# (kernel-level counters of the raw page and per-instruction counters of the
# source page), keeps the SASS, and packs $OUT/generic-TAG.tar.gz after every
# profiled chunk. Then, anywhere:
#   python3 validate/sm90/generic_compare.py DIR/generic-TAG SET...
set -uo pipefail
export LC_ALL=C PATH="$PATH:/usr/local/cuda/bin"
: "${OUT:?set OUT}"
FORMS=${FORMS:-shared generic volatile relaxed}
WIDTHS=${WIDTHS:-1 2 4 8 16}
OPS=${OPS:-ld st}
TAG=${TAG:-all}
CHUNK=${CHUNK:-250}
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(blind)
W=$(mktemp -d /tmp/generic.XXXXXX)
R=$W/generic-$TAG
mkdir -p "$R" "$OUT"
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
  echo "command: FORMS=\"$FORMS\" OPS=\"$OPS\" WIDTHS=\"$WIDTHS\" TAG=$TAG OUT=DIR bash validate/sm90/generic_on_gpu.sh ${sets[*]}"
} > "$R/environment.txt"
cat "$R/environment.txt"
nvcc -arch=sm_90 -O2 -std=c++20 -o "$W/microbench" validate/sm90/microbench.cu > "$R/compile.log" 2>&1 ||
  { cat "$R/compile.log"; exit 1; }
cuobjdump -sass "$W/microbench" | grep -E "Function|LD|ST" | grep -vE "LDC|LDG|STG|ULDC" > "$R/sass.txt"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# the raw page's rows with only the launch ID, the kernel name and the counters asked for
COMPACT='import csv, sys
rows = list(csv.reader(l for l in sys.stdin if l.startswith("\"")))
keep = [i for i, h in enumerate(rows[0] if rows else []) if h in ("ID", "Kernel Name") or h.startswith("l1tex__")]
out = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL)
[out.writerow([r[i] for i in keep]) for r in rows]'
widths=$(echo "$WIDTHS" | tr ' ' '|')
ops=$(echo "$OPS" | tr ' ' '|')
for set in "${sets[@]}"; do
  # each set's cases of the widths, in chunks of CHUNK cases (a timeout loses one chunk)
  grep -E '^warp ' "validate/sm90/cases/$set.trace" > "$W/head"
  grep -E "^@[^ ]+ ($ops) ($widths) " "validate/sm90/cases/$set.trace" | split -l "$CHUNK" -d - "$W/$set.part."
  for part in "$W/$set".part.*; do
    n=${part##*.}
    cat "$W/head" "$part" > "$R/$set.$n.trace"
    for form in $FORMS; do
      t0=$SECONDS
      name=$set.$form.$n
      timeout 150 ncu --clock-control none --section SourceCounters --metrics "$metrics" -f -o "$W/$name" \
        "$W/microbench" "$R/$set.$n.trace" "$form" > "$R/$name.ncu.log" 2>&1
      rc=$?
      ncu -i "$W/$name.ncu-rep" --page raw --csv --metrics "$metrics" 2>/dev/null | python3 -c "$COMPACT" > "$R/$name.raw.csv"
      ncu -i "$W/$name.ncu-rep" --page source --print-source sass --csv > "$R/$name.source.csv" 2>/dev/null
      echo "$name: exit $rc after $((SECONDS - t0)) s, $(grep -c '^"[0-9]' "$R/$name.raw.csv") kernels profiled"
      rm -f "$W/$name.ncu-rep"
      tar -C "$W" -czf "$OUT/generic-$TAG.tar.gz" "generic-$TAG"  # packed after each run: a timeout keeps the rest
    done
  done
done
tar -C "$W" -czf "$OUT/generic-$TAG.tar.gz" "generic-$TAG"
ls -la "$OUT"
