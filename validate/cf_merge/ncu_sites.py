#!/usr/bin/env python3
"""Shared-memory counters of the CF-Merge sort per site, from Nsight Compute.

  ncu_sites.py --sass R.sass.csv --disasm bench.gi.txt [--repo .] [--csv out.csv]

Inputs (validate/cf_merge/run_on_gpu.sh makes them):
  R.sass.csv   `ncu --section SourceCounters` of some launches, exported with
               `ncu -i R --page source --csv --print-source sass`
  bench.gi.txt `nvdisasm -gi` of kernel.cf_sort_bench's cubin (built with -lineinfo)

Each launch's SASS is matched with one function of the disassembly
(validate/harness/per_instruction.py's matching and parsers), and each
executed LDS/STS is given the site of sim/algorithms/merge/cf_merge_sort.hpp that its inline
chain reaches: the innermost frame in that header whose line names one of
CfSortSites' enumerators (gather_key, gather_value, path_a, ...); anything
else (CUB's BlockLoad/BlockStore, CUB's own kernels) is "other". Printed per
launch and site: instructions executed, "L1 Wavefronts Shared", the ideal,
and their difference (excess wavefronts = bank conflicts). The claim to
confirm on the H100: gather_key and gather_value have no excess.
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402
from validate.harness import per_instruction as pi  # noqa: E402

HEADER = "sim/algorithms/merge/cf_merge_sort.hpp"
SITES = ["stage_key", "stage_value", "path_a", "path_b", "split_store", "split_load", "gather_key", "gather_value",
         "stage_key_down", "stage_value_down"]


def site_of(chain, lines):
    for path, line in chain:
        if not path.replace("\\", "/").endswith(HEADER) or not 1 <= line <= len(lines):
            continue
        tokens = set(re.findall(r"[A-Za-z_]\w*", lines[line - 1]))
        found = [s for s in SITES if s in tokens]
        if len(found) == 1:
            return found[0]
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sass", required=True)
    ap.add_argument("--disasm", required=True)
    ap.add_argument("--repo", default=".")
    ap.add_argument("--csv")
    a = ap.parse_args()
    lines = open(os.path.join(a.repo, HEADER)).read().split("\n")
    functions = pi.read_disassembly(a.disasm)
    # no launch list here: copies are dropped only where every block is doubled (ncu_csv.py)
    launches = ncu_csv.drop_copies(ncu_csv.read_blocks(a.sass))
    rows_out, status = [], 0
    for index, (kernel, rows) in enumerate(launches):
        # functions with the same SASS (policies that compile alike) are the same code: take the first
        hits = pi.matching_functions(rows, functions)
        fn = hits[0] if hits else None
        if fn is None:
            print(f"launch {index} ({kernel[:80]}): SASS matches no function of {a.disasm}")
            status = 1
            continue
        chains = functions[fn]
        totals = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
        for row, (offset, sass, chain) in zip(rows, chains):
            op = pi.op_of(sass)
            executed = pi.number(row.get("Instructions Executed"))
            if op is None or executed == 0:
                continue
            t = totals[(site_of(chain, lines), op)]
            t[0] += executed
            t[1] += pi.number(row.get("L1 Wavefronts Shared"))
            t[2] += pi.number(row.get("L1 Wavefronts Shared Ideal"))
            t[3] += 1
        print(f"launch {index}: {kernel[:110]}")
        print(f"  {'site':14s} {'op':3s} {'SASS':>5s} {'executed':>12s} {'wavefronts':>12s} {'ideal':>12s} {'excess':>10s}")
        for (site, op), (ex, wf, ideal, count) in sorted(totals.items()):
            print(f"  {site:14s} {op:3s} {count:5d} {int(ex):12d} {int(wf):12d} {int(ideal):12d} {int(wf - ideal):10d}")
            rows_out.append({"launch": index, "kernel": kernel, "site": site, "op": op, "sass_instructions": count,
                             "executed": int(ex), "wavefronts": int(wf), "ideal": int(ideal),
                             "excess": int(wf - ideal)})
        gather = [(s, v) for (s, _), v in totals.items() if s.startswith("gather")]
        if gather:
            excess = sum(v[1] - v[2] for _, v in gather)
            print(f"  => gather: {sum(v[3] for _, v in gather)} SASS loads, excess wavefronts {int(excess)}"
                  f" ({'conflict free' if excess == 0 else 'CONFLICTS'})")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["launch", "kernel", "site", "op", "sass_instructions", "executed",
                                              "wavefronts", "ideal", "excess"])
            w.writeheader()
            w.writerows(rows_out)
    return status


if __name__ == "__main__":
    sys.exit(main())
