#!/usr/bin/env python3
"""HiPC 2015 Table I from validate/harness/table1.sh's files: per kernel and
input, median time (time mode), DRAM bytes per second and the share of each
warp's issue latency spent stalled on global memory (long scoreboard) and on
shared memory / MIO (short scoreboard), from ncu's WarpStateStats ratios
(stall cycles per issued instruction over all cycles per issued instruction).
  python3 validate/harness/table1.py DIR
"""
import csv
import gzip
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402

VARIANT = {"0": "pbs", "3": "pbs-cf", "4": "pbs-cl"}  # PbsVariant values in the kernel names


def main(d):
    times = {}
    for r in csv.DictReader(open(os.path.join(d, "table1.timing.csv"))):
        _, variant, inp, _ = r["case"].split("/")
        times[(variant, inp)] = float(r["median_ms"])
    with gzip.open(os.path.join(d, "table1.ncu.csv.gz"), "rt") as f:
        rows = ncu_csv.raw_rows(f)
    print("| kernel | input | time (ms, median of 15) | DRAM GB/s | stalled on global memory | stalled on shared memory |")
    print("|---|---|---:|---:|---:|---:|")
    for i, r in enumerate(rows):
        name = r["Kernel Name"]
        variant = "read-write" if "read_write" in name else VARIANT[name.split("PbsFactory<long, ")[1].split(">")[0]]
        inp = "random" if i < len(rows) // 2 else "worst"  # profile mode: all kernels on random, then on worst
        latency = ncu_csv.number(r["smsp__average_warp_latency_per_inst_issued.ratio"])
        long_sb = ncu_csv.number(r["smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"])
        short_sb = ncu_csv.number(r["smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"])
        gbs = ncu_csv.number(r["dram__bytes.sum.per_second"]) / 1e9
        print(f"| {variant} | {inp} | {times[(variant, inp)]:.2f} | {gbs:.0f} | {100 * long_sb / latency:.1f}% | "
              f"{100 * short_sb / latency:.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1])
