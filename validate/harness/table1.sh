#!/usr/bin/env bash
# HiPC 2015 Table I on the GPU machine: PBS, PBS-CF, PBS-CL and the global
# read/write baseline for 500M queries on K = 4096 8-byte keys: median times
# (time mode), then DRAM bandwidth and stall reasons from one launch of each
# (ncu sections SpeedOfLight, MemoryWorkloadAnalysis, WarpStateStats).
#   BIN=build-gpu/bin bash validate/harness/table1.sh OUTDIR   (carry build-gpu)
# Table: python3 validate/harness/table1.py OUTDIR
set -uo pipefail
out=$1
mkdir -p "$out" "$out/profile"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader; } > "$out/table1-env.txt"
args=(--bytes 8 --log-k-min 12 --log-k-max-8 12 --queries 500000000)
timeout 250 "$BIN/kernel.pbs" --mode time "${args[@]}" --out "$out" > "$out/table1.time.log" 2>&1
echo "time rc=$?"
mv "$out/pbs.timing.csv" "$out/table1.timing.csv"
timeout 280 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --csv --page raw -k regex:"phased_kernel|read_write_kernel" "$BIN/kernel.pbs" --mode profile "${args[@]}" \
  --out "$out/profile" > "$out/table1.ncu.csv" 2> "$out/table1.ncu.err"
echo "ncu rc=$?"
gzip -f "$out/table1.ncu.csv"
