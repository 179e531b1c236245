#!/usr/bin/env python3
"""validate/harness/time_model.py on a made-up results folder whose numbers
are worked out by hand: 132 SMs x 1.98 GHz serve 261.36 million wavefronts
per millisecond, so a variant with 261.36 million more wavefronts (counted
on 2 blocks, timed on 20) is predicted to take 1 ms longer. Then on the
H100's timings: the committed table is what the script makes of the
committed inputs, and README.md states that table's result, every pair
counted (its figures are derived here from the committed table, so they
cannot drift from it)."""
import csv
import filecmp
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate", "harness", "time_model.py")
INPUTS = os.path.join(ROOT, "validate", "results", "h100-2026-11-22")
TABLE = os.path.join(ROOT, "validate", "results", "h100-2026-11-23", "time-model")
# How README.md names each pair of variants of the table.
LABELS = {
    ("transpose", "plain", "padded"): "transpose",
    ("pbs", "pbs", "pbs-cf"): "PBS against PBS-CF",
    ("pbs", "pbs-cl", "pbs-cf"): "PBS-CL against PBS-CF",
    ("aho_corasick", "sm1", "skewed"): "Aho-Corasick SM-1 against the skewed layout",
    ("aho_corasick", "sm2", "skewed"): "SM-2",
    ("pairwise_merge", "cub-serial", "cf-merge-gather"): "the serial merge against CF-Merge's gather",
    ("split", "thread_major", "interleaved"): "split",
    ("scan", "plain", "padded"): "the Blelloch scan against its padded form",
    ("css", "plain", "padded"): "CSS tree",
}


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def committed_table_is_the_scripts():
    """The script, run on the committed inputs, writes the committed table byte for byte."""
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        out_csv, out_md = os.path.join(d, "t.csv"), os.path.join(d, "t.md")
        subprocess.run([sys.executable, SCRIPT, INPUTS, "--csv", out_csv, "--markdown", out_md], check=True,
                       capture_output=True)
        failures = 0
        for made, committed in ((out_csv, "time_model.csv"), (out_md, "time_model.md")):
            same = filecmp.cmp(made, os.path.join(TABLE, committed), shallow=False)
            print(f"{committed}: {'as the script makes it' if same else 'DIFFERS from what the script makes'}")
            failures += not same
        return failures


def readme_states_the_table():
    """Every figure of README.md's time-model paragraph, derived from the committed table."""
    rows = list(csv.DictReader(open(os.path.join(TABLE, "time_model.csv"), newline="")))
    readme = " ".join(open(os.path.join(ROOT, "README.md")).read().split())
    groups = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["variant"], r["base"]), []).append(float(r["ratio"]))
    inside = sum(0.5 <= x <= 1.0 for ratios in groups.values() for x in ratios)
    start = readme.find("Those pipe cycles predict")
    within, outside = readme.find("Within 0.5-1:", start), readme.find("Outside:", start)
    expected = [(f"in {inside} of the {len(rows)} pairs timed on the H100, and not in the other {len(rows) - inside}",
                 start, len(readme))]
    for key, ratios in groups.items():
        if key not in LABELS:
            print(f"README names no label for {key}: add it to LABELS and the paragraph")
            return 1
        n, lo, hi = len(ratios), min(ratios), max(ratios)
        band = sum(0.5 <= x <= 1.0 for x in ratios)
        if band not in (0, n):
            print(f"{key}: {band} of {n} pairs in [0.5, 1]: the README paragraph cannot say it as it is written")
            return 1
        section = (within, outside) if band == n else (outside, len(readme))
        expected.append((f"{LABELS[key]} ({n} pairs): {lo:.2f} to {hi:.2f}", *section))
    failures = 0
    for text, lo, hi in expected:
        found = start >= 0 and readme.find(text, lo, hi) >= 0
        print(f"README: '{text}' {'ok' if found else 'MISSING'}")
        failures += not found
    if re.search(r"within 0\.57-0\.96", readme):
        print("README still gives one band for the whole table")
        failures += 1
    return failures


def main():
    failures = committed_table_is_the_scripts() + readme_states_the_table()
    return 1 if failures or hand_worked() else 0


def hand_worked():
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        pred = ["case", "blocks", "threads", "shared_bytes", "input_hash", "ld_instructions", "ld_wavefronts",
                "ld_conflicts", "st_instructions", "st_wavefronts", "st_conflicts"]
        # per 2 blocks: plain 26.136M + 0 wavefronts more than padded; timed on 20 blocks (x10)
        write(os.path.join(d, "transpose.predicted.csv"), pred, [
            ["transpose/plain/random/tile=32;bytes=4", 2, 1024, 0, 0, 0, 26_136_000 + 1000, 26_136_000, 0, 500, 0],
            ["transpose/padded/random/tile=32;bytes=4", 2, 1024, 0, 0, 0, 1000, 0, 0, 500, 0]])
        write(os.path.join(d, "transpose.timing.csv"),
              ["case", "blocks", "threads", "shared_bytes", "input_hash", "items", "median_ms", "repeats"], [
                  ["transpose/plain/random/tile=32;bytes=4", 20, 1024, 0, 0, 0, 3.5, 15],
                  ["transpose/padded/random/tile=32;bytes=4", 20, 1024, 0, 0, 0, 2.0, 15]])
        out = os.path.join(d, "out.csv")
        subprocess.run([sys.executable, SCRIPT, d, "--csv", out], check=True, capture_output=True)
        rows = list(csv.DictReader(open(out)))
        failures = 0
        if len(rows) != 1:
            print(f"expected one pair, got {len(rows)}")
            return 1
        r = rows[0]
        for name, want, got in [("predicted_extra_ms", 1.0, float(r["predicted_extra_ms"])),
                                ("measured_extra_ms", 1.5, float(r["measured_extra_ms"])),
                                ("ratio", 1.5, float(r["ratio"])),
                                ("conflicts", 261_360_000, float(r["conflicts"]))]:
            ok = abs(got - want) <= 1e-9 * max(1.0, abs(want))
            print(f"{name}: {got} (want {want}) {'ok' if ok else 'WRONG'}")
            failures += not ok
        print(f"{4 - failures} passed, {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
