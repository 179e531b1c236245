#!/usr/bin/env bash
# The CF sort's shared-memory counters per site on the H100, for the replay's
# test (tests/sim/algorithms/merge/cf_sort_replay_test.cpp): Nsight Compute's
# SourceCounters of the first block-sort launch of `kernel.cf_sort_bench --mode
# profile --algo cf --input random` (E << LOG keys; 4- and 8-byte keys), each
# executed LDS/STS given its site of sim/algorithms/merge/cf_merge_sort.hpp by
# validate/cf_merge/ncu_sites.py through the program's line info (nvdisasm -gi of
# its sm_90 cubin). The program must be built from this tree: the line info
# names this tree's lines.
#   BIN=dir/kernel.cf_sort_bench OUT=dir [LOG=18] bash validate/cf_merge/run_site_counts.sh
# Output in $OUT: keys4.sites.csv, keys8.sites.csv (ncu_sites.py), *.sites.txt, the
# SourceCounters pages (*.sass.csv.gz), gpu.txt. Exit status 1 if a step failed.
set -uo pipefail
: "${BIN:?BIN: a kernel.cf_sort_bench built from this tree}" "${OUT:?OUT: the output directory}"
LOG=${LOG:-18}
mkdir -p "$OUT"
work=$(mktemp -d)
rc=0
(cd "$work" && cuobjdump -xelf all "$BIN" > /dev/null) || rc=1
cubin=$(ls "$work"/*sm_90*.cubin 2> /dev/null | head -1)
nvdisasm -gi "$cubin" > "$work/gi.txt" || rc=1
for keys in 4 8; do
  name=keys$keys
  timeout 200 ncu --clock-control none --section SourceCounters -k regex:block_sort_kernel --launch-count 1 \
    -o "$work/$name" -f "$BIN" --mode profile --algo cf --input random --keys "$keys" --log "$LOG" \
    > "$OUT/$name.ncu.log" 2>&1 || rc=1
  ncu -i "$work/$name.ncu-rep" --page source --csv --print-source sass > "$OUT/$name.sass.csv" 2>> "$OUT/$name.ncu.log" || rc=1
  python3 validate/cf_merge/ncu_sites.py --sass "$OUT/$name.sass.csv" --disasm "$work/gi.txt" \
    --csv "$OUT/$name.sites.csv" > "$OUT/$name.sites.txt" 2>&1 || rc=1
  gzip -f "$OUT/$name.sass.csv"
done
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
rm -rf "$work"
exit $rc
