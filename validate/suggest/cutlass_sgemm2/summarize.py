#!/usr/bin/env python3
"""Shared-memory wavefronts of the sgemm_2 TN variants, per SASS instruction.

  summarize.py RESULTS_DIR

Reads ncu-source-orig.csv and ncu-source-suggested.csv (one profiled launch
each: SourceCounters exported with --page source --print-source sass) and
prints, per variant, every STS/LDS instruction that ran (executions,
wavefronts, wavefronts per execution) and the totals per class, then the
result hashes and times of run-VARIANT.txt.
"""
import os
import re
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv, sass_text  # noqa: E402


def number(text):
    text = (text or "").replace(",", "").strip()
    return int(float(text)) if text else 0


def summarize(path):
    """[(sass, executed, wavefronts)] of the one launch's shared instructions, and {class: [executed, waves]}."""
    blocks = ncu_csv.drop_copies(ncu_csv.read_blocks(path))
    if len(blocks) != 1:
        raise ValueError(f"{path}: {len(blocks)} launches, expected 1")
    rows, totals = [], {"STS": [0, 0], "LDS": [0, 0]}
    for r in blocks[0][1]:
        sass = " ".join(r.get("Source", "").replace(";", " ").split())
        m = sass_text.mnemonic(sass)
        executed = number(r.get("Instructions Executed"))
        cls = "STS" if m.startswith("STS") else "LDS" if m.startswith("LDS") else None
        if cls is None or executed == 0:
            continue
        waves = number(r.get("L1 Wavefronts Shared"))
        rows.append((sass, executed, waves))
        totals[cls][0] += executed
        totals[cls][1] += waves
    return rows, totals


def main():
    results = sys.argv[1]
    for v in ("orig", "suggested"):
        path = os.path.join(results, f"ncu-source-{v}.csv")
        if not os.path.exists(path):
            print(f"{v}: no {path}")
            continue
        try:
            rows, totals = summarize(path)
        except ValueError as e:  # a failed profile: said, and the other variant still summarized
            print(f"{v}: {e}")
            continue
        print(f"{v}:")
        for sass, executed, waves in rows:
            print(f"  {sass[:48]:48} executed {executed:8}  wavefronts {waves:9}  per execution {waves / executed:.3f}")
        for cls, (e, w) in totals.items():
            print(f"  total {cls}: executed {e}, wavefronts {w}, per execution {w / e if e else 0:.3f}")
        run = os.path.join(results, f"run-{v}.txt")
        if os.path.exists(run):
            text = open(run).read()
            for pat in (r"result_fnv1a=\w+", r"CUTE_GEMM:.*"):
                m = re.search(pat, text)
                print("  " + (m.group(0) if m else f"{pat}: not found"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
