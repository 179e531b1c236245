#!/usr/bin/env python3
"""validate/harness/ncu_csv.py, the one Python reader of Nsight Compute's
source page, on small pages written here by hand: the reader's blocks and
rows, and the two rules for blocks printed twice, which are
capture/host/ncu/ncu_table.hpp's and ncu_launches.hpp's. The mixed page is the
case the H100 showed on 2026-11-26 (cuDNN's sm90 attention kernels printed
once, the others twice): without a launch list nothing may be dropped, with
it exactly the copies are."""
import os
import sys
import tempfile

from repo_root import ROOT  # noqa: F401  (puts the repository root on sys.path)
from validate.harness import ncu_csv

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def page(blocks):
    """A source-page CSV of (kernel, [executed per instruction]) blocks."""
    lines = []
    for kernel, counts in blocks:
        lines += [f'"Kernel Name","{kernel}"', '"Address","Source","Instructions Executed"']
        lines += [f'"0x{16 * i:x}","LDS R{i}, [R0]","{n}"' for i, n in enumerate(counts)]
    f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    f.write("\n".join(lines) + "\n")
    f.close()
    return ncu_csv.read_blocks(f.name)


def shape(blocks):
    return [(k, [r["Instructions Executed"] for r in rows]) for k, rows in blocks]


a, b, c = ("a", [1, 2]), ("b", [3]), ("c", [4, 5, 6])
# The reader: one block per "Kernel Name", one row dict per 0x row, header as keys.
blocks = page([a, b])
check("blocks read", shape(blocks), [("a", ["1", "2"]), ("b", ["3"])])
check("row keys", sorted(blocks[0][1][0]), ["Address", "Instructions Executed", "Source"])
# Every block doubled: the copies go, with or without a launch list.
doubled = page([a, a, b, b])
check("doubled, no list", shape(ncu_csv.drop_copies(doubled)), shape(page([a, b])))
check("doubled, list", shape(ncu_csv.drop_copies_by_launch_list(doubled, ["a", "b"])), shape(page([a, b])))
# Mixed (b printed once): the page alone cannot tell, so nothing is dropped.
mixed = page([a, a, b, c, c])
check("mixed, no list", len(ncu_csv.drop_copies(mixed)), 5)
check("mixed, list", shape(ncu_csv.drop_copies_by_launch_list(mixed, ["a", "b", "c"])), shape(page([a, b, c])))
check("mixed, unnamed list", len(ncu_csv.drop_copies_by_launch_list(mixed, [None] * 3)), 3)
# Two real launches with equal counters, printed once each: neither is a copy.
check("repeat launch, list", len(ncu_csv.drop_copies_by_launch_list(page([a, a]), ["a", "a"])), 2)
# A page the list cannot pair is an error, never a silent drop.
for what, blocks_, names in (("wrong name", page([a, b]), ["a", "c"]), ("extra block", page([a, b, c]), ["a", "b"])):
    try:
        ncu_csv.drop_copies_by_launch_list(blocks_, names)
        failures.append(f"{what}: no ValueError")
    except ValueError:
        pass
# The details page's long form: ncu's log lines and the program's output between its rows are not rows.
long_form = ['==PROF== Connected to process 7 (/tmp/prog)', '"ID","Kernel Name","Metric Name","Metric Value"',
             '"0","k(int)","gpu__time_duration.sum","1,024"', 'the program prints a line, "quoted" inside',
             '==PROF== Profiling "k": 0%....100% - 1 pass', '"1","k(int)","gpu__time_duration.sum","998"']
check("long form", [(r["ID"], r["Metric Value"]) for r in ncu_csv.metric_rows(long_form)], [("0", "1,024"), ("1", "998")])
# A cell's value: thousands separators go; nothing, "n/a" or text is None, never 0.
check("numbers", [ncu_csv.number(t) for t in ("1,024", " 7 ", "0.5", "", None, "n/a", "LDS")],
      [1024.0, 7.0, 0.5, None, None, None, None])

for f in failures:
    print("FAIL", f)
print("ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
