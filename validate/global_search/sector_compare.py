#!/usr/bin/env python3
"""Per-instruction global sectors: Nsight Compute against the model.

  python3 validate/global_search/sector_compare.py NCU_SOURCE.csv [BANKCHECK]

NCU_SOURCE.csv is run_on_gpu.sh's ncu_source.csv (the small case: K=65536,
2048 queries, 256 threads, 1 query per thread, 8 blocks, B-tree cached=1).
The model's side is `bankcheck run gms|btree ... --json` of the same case
(same keys, queries and 256-aligned layout). Each site of a search is one
gld/gst instruction in the source; the SASS rows with global sectors are
joined with the sites by their execution count (ncu's "Instructions
Executed" = the model's instructions at the site) and kind (LDG or a
generic LD for a load site, STG or ST for a store site; ncu gives a generic
access its global sectors), in the sites' first-issue order, and then
compared in sectors ("L2 Theoretical Sectors Global" and its "Ideal"). A
site the compiler split into several SASS instructions stays unmatched (its
rows are listed), and the kernel's total sectors are compared as well.
Exit 0 when every site's sectors equal ncu's, 1 otherwise.
"""
import json
import os
import subprocess
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402
from validate.harness.kernel_names import base_name  # noqa: E402

CASE = ["K=65536", "u=256", "q=1", "blocks=8", "--seed", "1"]


def ncu_blocks(path):
    """kernel name -> rows (sass, executed, sectors, ideal) of its first block with global sectors."""
    blocks = {}
    for block, (kernel, page_rows) in enumerate(ncu_csv.read_blocks(path), start=1):
        for d in page_rows:
            sectors = int(d.get("L2 Theoretical Sectors Global", "0") or 0)
            if sectors == 0:
                continue
            name = {"gms_kernel": "gms", "btree_kernel": "btree"}.get(base_name(kernel), kernel)
            rows = blocks.setdefault(name, {}).setdefault(block, [])
            rows.append((d["Source"].strip(), int(d["Instructions Executed"]), sectors,
                         int(d.get("L2 Theoretical Sectors Global Ideal", "0") or 0)))
    return {name: next(iter(b.values())) for name, b in blocks.items()}


def model_sites(bankcheck, algorithm):
    extra = ["cached=1"] if algorithm == "btree" else []
    out = subprocess.run([bankcheck, "run", algorithm, *CASE[:4], *extra, *CASE[4:], "--json"],
                         capture_output=True, text=True, check=False).stdout
    doc = json.loads(out)
    return {s["site"]: s["totals"] for s in doc["global"]["sites"]}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bankcheck = sys.argv[2] if len(sys.argv) > 2 else "build/bankcheck"
    ncu = ncu_blocks(sys.argv[1])
    ok = True
    for algorithm in ("gms", "btree"):
        rows = ncu.get(algorithm, [])
        sites = model_sites(bankcheck, algorithm)
        left = list(rows)  # SASS rows in address order, matched in the sites' first-issue order
        print(f"{algorithm}: {len(rows)} SASS instructions with global sectors, {len(sites)} sites")
        print(f"  {'site':22} {'instr':>6} {'model':>8} {'ncu':>8} {'ideal m/n':>13}  equal  sass")
        for site, t in sites.items():
            store = t["stores"] > 0
            kinds = ("STG", "ST.") if store else ("LDG", "LD.")  # generic LD/ST rows carry global sectors too
            match = [next((r for r in left if r[1] == t["instructions"] and r[0].lstrip("@!P0123456789 ").startswith(
                kinds)), None)]
            match = [r for r in match if r is not None]
            for r in match:
                left.remove(r)
            measured = sum(r[2] for r in match)
            ideal = sum(r[3] for r in match)
            equal = bool(match) and measured == t["sectors"]
            ok &= equal
            sass = "; ".join(r[0] for r in match) or "(no SASS row with this execution count)"
            print(f"  {site:22} {t['instructions']:>6} {t['sectors']:>8} {measured:>8} "
                  f"{t['ideal_sectors']:>6}/{ideal:<6}  {'yes' if equal else 'NO ':3}    {sass[:60]}")
        for r in left:
            print(f"  (unmatched SASS) executed {r[1]} sectors {r[2]}: {r[0]}")
        total_m = sum(t["sectors"] for t in sites.values())
        total_n = sum(r[2] for r in rows)
        print(f"  total sectors: model {total_m}, ncu {total_n}")
        ok &= total_m == total_n
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
