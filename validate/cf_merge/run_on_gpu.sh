#!/usr/bin/env bash
# The CF-Merge device merge sort on the GPU machine (docs/cf-merge.md). From the
# repository root:
#   OUT=some/dir bash validate/cf_merge/run_on_gpu.sh
# Builds kernel.cf_sort_bench with nvcc alone (no CMake; the program parses its
# own arguments, so no CLI11; the few library sources it needs use no Boost) --
# or takes PREBUILT=dir/kernel.cf_sort_bench (and dir/ptxas.log) built elsewhere --
# records ptxas's registers/spills and the SASS's local-memory (LDL/STL) and
# shared-memory instructions, then runs, each step under `timeout` and within a
# total budget of BUDGET seconds (default 230; BUDGET=420 runs every step in full):
#   check     correctness sweep against std::sort and CUB (must print 0 failures)
#   time A    4- and 8-byte keys, keys and pairs, n = 2^i E for i = 16..24: CUB's
#             merge sort, ours and CUB's radix sort, random and worst-case inputs
#   tune      the compiled-in candidate policies on random keys
#   ncu       SourceCounters of our block-sort and first merge-pass kernels
#             (random and worst-cf input) and of CUB's on worst-cub, n = 2^18 E,
#             mapped per site by ncu_sites.py (the gather's loads: no excess wavefronts)
#   stalls    every kernel's duration in one sort and the first merge pass's ncu
#             sections (stall reasons, instruction mix, throughput), ours and CUB's
#   sanitize  compute-sanitizer memcheck and racecheck on `--mode check --quick`
#   time B    4-byte keys only, i = 25..26 (the largest sizes, for the headline)
# Everything goes into $OUT/cf_merge.tar.gz (packed after every step, so a run cut
# short still returns what it did), $OUT/summary.txt and $OUT/throughput.png
# (validate/cf_merge/plot.py, where matplotlib is installed).
# Expected on an H100: build 60-100 s (none with PREBUILT), check ~15 s, time A
# ~40 s, tune ~15 s, ncu ~40 s, sanitize ~40 s, time B ~30 s.
set -uo pipefail
OUT=${OUT:-cf-merge-out}
BUDGET=${BUDGET:-230}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d)
res="$work/cf_merge"
mkdir -p "$res/obj"
SECONDS=0
log() { echo "[$(date -u +%H:%M:%S) t=${SECONDS}s] $*" | tee -a "$res/steps.log"; }
pack() { tar czf "$OUT/cf_merge.tar.gz" -C "$work" --exclude=cf_merge/obj --exclude=cf_merge/kernel.cf_sort_bench cf_merge; }
# timeout for a step: its own limit, cut to what is left of the budget
limit() { local left=$((BUDGET - SECONDS)); ((left < 5)) && left=5; echo $(($1 < left ? $1 : left)); }
left() { echo $((BUDGET - SECONDS)); }

source validate/cf_merge/nvcc_build.sh  # NVCC, CCCL, CXX, cf_nvcc_build
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
  "$NVCC" --version | tail -2
  command -v ncu > /dev/null && ncu --version | tail -1
  "$CXX" --version | head -1
  echo "CCCL: $CCCL"
  echo "git: $(git rev-parse HEAD 2>/dev/null)"
} > "$res/environment.txt" 2>&1
cat "$res/environment.txt"

# ---- build ------------------------------------------------------------------
bin="$res/kernel.cf_sort_bench"
if [[ -n ${PREBUILT:-} ]]; then
  cp "$PREBUILT/kernel.cf_sort_bench" "$bin" && cp "$PREBUILT/ptxas.log" "$res/ptxas.log" 2> /dev/null
  log "build: prebuilt binary from $PREBUILT"
else
  log "build: start"
  cf_nvcc_build kernels/cf_sort_bench.cu "$bin" "$res" "$(limit 200)"
  rc=$?
  log "build: rc=$rc"
  grep -E "error" "$res/ptxas.log" "$res/build.log" | head -20
fi
pack
if [[ ! -x $bin ]]; then
  log "no binary; stopping"
  { echo "build failed: see build.log / ptxas.log in cf_merge.tar.gz"; tail -30 "$res/ptxas.log" "$res/build.log"; } > "$OUT/summary.txt"
  exit 1
fi

# ---- registers, spills, SASS ------------------------------------------------
# ptxas -v per kernel (demangled), then the SASS: per kernel the instruction
# count, LDL/STL (local memory: must be 0 in our full-tile kernels), and the
# LDS/STS/LDG/STG opcodes with their widths.
python3 - "$res/ptxas.log" > "$res/registers.txt" <<'EOF'
import re, subprocess, sys
name = st = None
rows = []
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Compiling entry function '(\S+)' for", line)
    if m: name = m.group(1); continue
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m: st = m.groups(); continue
    m = re.search(r"Used (\d+) registers", line)
    if m and name:
        rows.append((name, m.group(1), st)); name = None
dem = subprocess.run(["c++filt"], input="\n".join(r[0] for r in rows), capture_output=True, text=True).stdout.split("\n")
for (raw, regs, st), d in zip(rows, dem):
    d = re.sub(r"cub::CUB_\d+_SM_\d+::", "", d or raw)
    for a, b in (("bankcheck::cf::detail::", ""), ("bankcheck::cf::Policy", "Policy"), ("bankcheck::CfNoValue", "keys-only"),
                 ("(anonymous namespace)::", ""), ("(BlockLoadAlgorithm)4", "WT"), ("(BlockLoadAlgorithm)2", "VEC"),
                 ("(BlockStoreAlgorithm)4", "WT"), ("detail::merge_sort::", "")):
        d = d.replace(a, b)
    d = re.sub(r"\(bool.*", "", d)
    print(f"regs={regs:>4} stack={st[0]:>4} spill_st={st[1]:>4} spill_ld={st[2]:>4}  {d[:200]}")
EOF
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$bin" > "$work/bench.sass" 2> /dev/null
  python3 - "$work/bench.sass" > "$res/sass_summary.txt" <<'EOF'
import re, subprocess, sys
funcs, cur = {}, None
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m: cur = m.group(1); funcs[cur] = {"n": 0}; continue
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", line)
    if m and cur:
        op = m.group(1); f = funcs[cur]; f["n"] += 1
        if op.split(".")[0] in ("LDL", "STL", "LDS", "STS", "LDG", "STG", "BAR", "LDSM"):
            f[op] = f.get(op, 0) + 1
names = list(funcs)
dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
total_local = 0
for raw, d in zip(names, dem):
    f = funcs[raw]
    local = sum(v for k, v in f.items() if k.startswith(("LDL", "STL")))
    ours = "bankcheck::cf::" in d
    if ours and "true" not in d.split(">")[0]:
        total_local += local
    ops = " ".join(f"{k}:{v}" for k, v in sorted(f.items()) if k != "n")
    d = re.sub(r"cub::CUB_\d+_SM_\d+::", "", d or raw)
    print(f"{f['n']:6d} instr  LDL+STL={local:<4d} {ops}\n        {d[:230]}")
print(f"LDL+STL in our full-tile kernels (all policies): {total_local}")
EOF
  tail -1 "$res/sass_summary.txt"
  # line info of every instruction, for ncu_sites.py
  mkdir -p "$work/elf" && (cd "$work/elf" && cuobjdump -xelf all "$bin" > /dev/null 2>&1)
  cubin=$(ls "$work"/elf/*sm_90*.cubin 2> /dev/null | head -1)
  if [[ -n $cubin ]] && command -v nvdisasm > /dev/null; then nvdisasm -gi "$cubin" > "$work/bench.gi.txt" 2> /dev/null; fi
else
  echo "cuobjdump not found: no SASS summary" | tee "$res/sass_summary.txt"
fi
log "registers/SASS: $(grep -c . "$res/registers.txt") kernels; spilling: $(grep -vc 'stack=   0 spill_st=   0 spill_ld=   0' "$res/registers.txt")"
pack

# ---- check ------------------------------------------------------------------
log "check: start"
timeout "$(limit 90)" "$bin" --mode check > "$res/check.log" 2>&1
rc=$?
log "check: rc=$rc, $(grep -c '^ok ' "$res/check.log") ok, $(grep -c '^FAIL' "$res/check.log") FAIL"
grep '^FAIL' "$res/check.log" | head -5
check_rc=$rc
pack

# ---- time A -----------------------------------------------------------------
log "time A: start"
timeout "$(limit 80)" "$bin" --mode time --log-min 16 --log-max 24 --csv "$res/time.csv" > "$res/time_a.log" 2> "$res/time_a.err"
log "time A: rc=$? ($(grep -c . "$res/time.csv") CSV lines)"
pack

# ---- tune -------------------------------------------------------------------
log "tune: start"
timeout "$(limit 40)" "$bin" --mode tune --csv "$res/tune.csv" > "$res/tune.log" 2> "$res/tune.err"
log "tune: rc=$?"
pack

# ---- ncu ---------------------------------------------------------------------
if command -v ncu > /dev/null && (($(left) > 70)); then
  log "ncu: start"
  metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,gpu__time_duration.sum
  timeout "$(limit 25)" ncu --clock-control none --section SourceCounters --metrics "$metrics" -k regex:"block_sort_kernel|merge_kernel" \
    --launch-count 2 -o "$work/cf_random" -f "$bin" --mode profile --algo cf --input random --log 18 \
    > "$res/ncu_cf_random.log" 2>&1
  log "ncu cf random: rc=$?"
  timeout "$(limit 25)" ncu --clock-control none --section SourceCounters --metrics "$metrics" -k regex:"block_sort_kernel|merge_kernel" \
    --launch-count 2 -o "$work/cf_worst" -f "$bin" --mode profile --algo cf --input worst-cf --log 18 \
    > "$res/ncu_cf_worst.log" 2>&1
  log "ncu cf worst-cf: rc=$?"
  timeout "$(limit 25)" ncu --clock-control none --section SourceCounters --metrics "$metrics" -k regex:"DeviceMergeSort(BlockSort|Merge)Kernel" \
    --launch-count 2 -o "$work/cub_worst" -f "$bin" --mode profile --algo cub --input worst-cub --log 18 \
    > "$res/ncu_cub_worst.log" 2>&1
  log "ncu cub worst-cub: rc=$?"
  for r in cf_random cf_worst cub_worst; do
    if [[ -f "$work/$r.ncu-rep" ]]; then
      ncu -i "$work/$r.ncu-rep" --page source --csv --print-source sass > "$res/$r.sass.csv" 2>> "$res/ncu.err"
      ncu -i "$work/$r.ncu-rep" --page raw --csv --metrics "$metrics" > "$res/$r.raw.csv" 2>> "$res/ncu.err"
      if [[ -f "$work/bench.gi.txt" ]]; then
        python3 validate/cf_merge/ncu_sites.py --sass "$res/$r.sass.csv" --disasm "$work/bench.gi.txt" \
          --csv "$res/$r.sites.csv" > "$res/$r.sites.txt" 2>&1
        grep "=> gather" "$res/$r.sites.txt"
      fi
    fi
  done
  pack
else
  log "ncu: skipped (no ncu, or $(left) s left)"
fi

# ---- stalls -------------------------------------------------------------------
# Why a merge sort is as fast as it is (docs/cf-merge.md, "Where the time goes"):
# every kernel's duration in one sort of 4-byte keys, n = 2^22 E (one pass,
# --clock-control none, so the clocks are the ones the timing runs see), and the
# first merge pass with the sections that explain it: throughput against the
# H100's peaks, warp stall reasons, the instruction mix, occupancy.
if command -v ncu > /dev/null && (($(left) > 60)); then
  for algo in cf cub; do
    log "stalls $algo: start"
    timeout "$(limit 40)" ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw \
      "$bin" --mode profile --keys 4 --algo "$algo" --input random --log 22 > "$res/kernels_$algo.csv" 2> "$res/kernels_$algo.err"
    [[ $algo == cf ]] && k='regex:^merge_kernel$' || k='regex:DeviceMergeSortMergeKernel'
    timeout "$(limit 60)" ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section WarpStateStats --section SchedulerStats --section InstructionStats --section Occupancy \
      --section LaunchStats --section ComputeWorkloadAnalysis -k "$k" --launch-skip 2 --launch-count 1 -f -o "$work/stall_$algo" \
      "$bin" --mode profile --keys 4 --algo "$algo" --input random --log 22 > "$res/stall_$algo.log" 2>&1
    if [[ -f "$work/stall_$algo.ncu-rep" ]]; then
      ncu -i "$work/stall_$algo.ncu-rep" --page details --csv > "$res/stall_$algo.details.csv" 2>> "$res/ncu.err"
      ncu -i "$work/stall_$algo.ncu-rep" --page raw --csv > "$res/stall_$algo.raw.csv" 2>> "$res/ncu.err"
    fi
    log "stalls $algo: $(grep -c . "$res/kernels_$algo.csv") kernel rows, details $(grep -c . "$res/stall_$algo.details.csv" 2> /dev/null) lines"
  done
  pack
else
  log "stalls: skipped ($(left) s left)"
fi

# ---- sanitize ------------------------------------------------------------------
# Races and out-of-bounds accesses in shared and global memory, which the CPU
# replay cannot see (barriers, CUB's load/store, the launch sequence).
if command -v compute-sanitizer > /dev/null && (($(left) > 40)); then
  for tool in memcheck racecheck; do
    log "sanitize $tool: start"
    timeout "$(limit 45)" compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin" --mode check --quick \
      > "$res/sanitize_$tool.log" 2>&1
    log "sanitize $tool: rc=$? ($(grep -c '^ok ' "$res/sanitize_$tool.log") ok, $(grep -c '^FAIL' "$res/sanitize_$tool.log") FAIL; $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$res/sanitize_$tool.log"))"
  done
  pack
else
  log "sanitize: skipped ($(left) s left)"
fi

# ---- time B ------------------------------------------------------------------
if (($(left) > 25)); then
  log "time B: start"
  timeout "$(limit 120)" "$bin" --mode time --keys 4 --pairs 0 --log-min 25 --log-max 26 --csv "$res/time.csv" \
    > "$res/time_b.log" 2> "$res/time_b.err"
  log "time B: rc=$?"
else
  log "time B: skipped ($(left) s left)"
fi

# ---- summary -----------------------------------------------------------------
{
  echo "CF-Merge device merge sort on $(head -2 "$res/environment.txt" | tail -1)"
  echo "steps:"; cat "$res/steps.log"
  echo; echo "registers / spills, default policies (all kernels: registers.txt):"
  grep -E "Policy<256, (32|16), WT, WT, (4|2)>" "$res/registers.txt" | grep -v Greater
  echo; echo "CUB's kernels:"; grep "DeviceMergeSort" "$res/registers.txt" | grep -v Greater | head -8
  echo; for t in memcheck racecheck; do [[ -f "$res/sanitize_$t.log" ]] && echo "$t: $(grep -m1 'SUMMARY' "$res/sanitize_$t.log")"; done
  echo; tail -1 "$res/sass_summary.txt"
  echo; echo "check: rc=$check_rc"; grep -E "^FAIL|failure" "$res/check.log" | head -10
  echo; args=(); [[ -f "$res/time.csv" ]] && args+=("$res/time.csv"); [[ -f "$res/tune.csv" ]] && args+=(--tune "$res/tune.csv")
  ((${#args[@]})) && python3 validate/cf_merge/sort_ratios.py "${args[@]}" 2>&1
  echo; echo "ncu per site (gather = the dual subsequence gather's loads):"
  for r in cf_random cf_worst cub_worst; do [[ -f "$res/$r.sites.txt" ]] && { echo "== $r"; cat "$res/$r.sites.txt"; }; done
} > "$OUT/summary.txt" 2>&1
# The throughput plot (needs matplotlib, which the GPU machine's Python has).
if [[ -f $res/time.csv ]] && python3 -c "import matplotlib" 2> /dev/null; then
  python3 validate/cf_merge/plot.py "$res/time.csv" "$OUT/throughput.png" > "$res/plot.log" 2>&1
  log "plot: rc=$? ($OUT/throughput.png)"
fi
pack
log "done"
cat "$OUT/summary.txt" | tail -60
