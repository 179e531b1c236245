#!/usr/bin/env python3
"""validate/suggest/ on the H200 run committed under
validate/results/h200-2026-11-29/suggest/cases: capmaps.py makes the
capmaps.h that the run built with from the committed suggest outputs;
ncu_shared.py makes the committed per-instruction table from the committed
Nsight Compute export; and the README's table states what that export
measured: every row's naive and suggested wavefronts per instruction (the
measured column, recomputed here from ncu_shared.csv by source line) equal
its predicted columns, and its capture-map column differs only in the row the
README explains (ldsm_trans's ldmatrix.x4.trans)."""
import csv
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

from repo_root import ROOT
from validate.suggest import table

CASES = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "suggest", "cases")
README = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "suggest", "README.md")


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True).stdout


def main():
    failures = []
    got = run(os.path.join(ROOT, "validate", "suggest", "capmaps.py"), CASES)
    if got != open(os.path.join(CASES, "capmaps.h")).read():
        failures.append("capmaps.py does not reproduce cases/capmaps.h")

    with tempfile.TemporaryDirectory() as tmp:
        for name in ("ncu-source.csv", "suggest_kernels.gi.txt"):
            with gzip.open(os.path.join(CASES, name + ".gz"), "rb") as src, open(os.path.join(tmp, name), "wb") as dst:
                shutil.copyfileobj(src, dst)
        out = os.path.join(tmp, "ncu_shared.csv")
        run(os.path.join(ROOT, "validate", "suggest", "ncu_shared.py"), "--sass", os.path.join(tmp, "ncu-source.csv"),
            "--disasm", os.path.join(tmp, "suggest_kernels.gi.txt"), "--csv", out)
        if open(out).read() != open(os.path.join(CASES, "ncu_shared.csv")).read():
            failures.append("ncu_shared.py does not reproduce cases/ncu_shared.csv")

    rows = list(csv.DictReader(open(os.path.join(CASES, "ncu_shared.csv"))))
    readme_rows = [line.split("|")[1:-1] for line in open(README)
                   if re.match(r"\| \w+ \| [a-z][a-z0-9.,=]* \| \d", line)]
    if len(readme_rows) != 21:
        failures.append(f"README: {len(readme_rows)} rows of the per-instruction table, expected 21")
    for cells in readme_rows:
        case, access = cells[0].strip(), cells[1].strip()
        element, naive, _, accesses = table.CASES[case]
        lines = next(ln for a, along, ln in accesses if a + (f",along={along}" if along is not None else "") == access)
        m = table.measured(rows, case, naive)
        per = {}
        for v in ("naive", "suggested", "capture-map"):
            e = sum(m[v][ln][0] for ln in lines)
            per[v] = sum(m[v][ln][1] for ln in lines) / e if e else None
        pn, mn, ps, ms, cap, mc = (c.strip() for c in cells[2:8])
        for label, stated, value in (("naive", mn, per["naive"]), ("suggested", ms, per["suggested"]),
                                     ("capture-map", mc, per["capture-map"])):
            if not stated.startswith(f"{value:.3f}"):
                failures.append(f"README {case} {access} {label}: states {stated}, ncu_shared.csv gives {value:.3f}")
        if float(pn) != per["naive"] or float(ps) != per["suggested"]:
            failures.append(f"{case} {access}: predicted {pn}, {ps} but measured {per['naive']}, {per['suggested']}")
        after = float(cap.split("->")[1])
        if (after != per["capture-map"]) != (case == "ldsm_trans" and access == "ldmatrix.x4.trans"):
            failures.append(f"{case} {access}: capture predicted {after}, capture-map measured {per['capture-map']}")
    for f in failures:
        print("FAIL:", f)
    print("suggest cases:", "failed" if failures else "passed", f"({len(readme_rows)} rows)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
