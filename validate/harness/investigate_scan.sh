#!/usr/bin/env bash
# Follow-up of the 2026-11-22 sigmod run: ncu counted 1256 executed shared
# stores in each scan launch where BlockRecorder predicts 1128 (8 blocks x 16
# warps = 128 more), while wavefronts and conflicts matched exactly. Question:
# which STS runs more often than the algorithm has stores with an active
# lane? Per-SASS-instruction counts (SourceCounters) of launch 6 (scan, plain,
# 4-byte), and the SASS around each STS.
#   BIN=build-gpu/bin bash validate/harness/investigate_scan.sh RESULTS_DIR
set -uo pipefail
res=$1
mkdir -p "$res"
ncu --clock-control none --section SourceCounters -k regex:phased_kernel --launch-skip 6 --launch-count 1 \
  -o "$res/scan-source" -f "$BIN/kernel.sigmod" --mode profile --out "$res" > /dev/null 2>> "$res/investigate.err"
ncu -i "$res/scan-source.ncu-rep" --page source --csv --print-source sass > "$res/scan-source.csv" 2>> "$res/investigate.err"
rm -f "$res/scan-source.ncu-rep"
echo "scan source: $(wc -l < "$res/scan-source.csv") lines; STS/LDS: address, SASS, instructions executed, thread instructions, predicated-on thread instructions"
python3 - "$res/scan-source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
cols = rows[head]
ix = {name: cols.index(name) for name in ("Source", "Instructions Executed", "Thread Instructions Executed",
                                          "Predicated-On Thread Instructions Executed")}
for r in rows[head + 1:]:
    if len(r) > ix["Source"] and ("STS" in r[ix["Source"]] or "LDS" in r[ix["Source"]]):
        print(r[ix["Source"]].strip(), "|", r[ix["Instructions Executed"]], "|", r[ix["Thread Instructions Executed"]],
              "|", r[ix["Predicated-On Thread Instructions Executed"]])
PY
