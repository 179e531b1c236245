#!/usr/bin/env python3
"""validate/sm90/collect_set.py on a real microbench run: the H200 campaign
committed in validate/results/h200-2026-11-29/fidelity (its ldst8.trace and
Nsight Compute's source page ldst8.sass.csv, 320 single LDS.64/STS.64
launches). The collector's per-case wavefronts must equal the committed
validate/sm90/measured/fid8.csv, which validate/fidelity/collect.py made from
the same export by its own reading; and a trace that does not match the page
(one case more) is refused with exit 2 and no file written."""
import os
import subprocess
import sys
import tarfile
import tempfile

from repo_root import ROOT

RUN = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "fidelity", "fidelity.tar.gz")
FID8 = os.path.join(ROOT, "validate", "sm90", "measured", "fid8.csv")
COLLECT = os.path.join(ROOT, "validate", "sm90", "collect_set.py")


def wavefronts(path):
    out = {}
    for line in open(path):
        if line.startswith("#") or line.startswith("site,"):
            continue
        site, wf = line.split(",")[:2]
        out[site] = int(wf)
    return out


def collect(sm90, sass_csv):
    return subprocess.run([sys.executable, COLLECT, "fid8", sass_csv, "NVIDIA H200", "test", sm90],
                          capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(RUN) as tar:
            for name in ("fidelity/ldst8.trace", "fidelity/ldst8.sass.csv"):
                tar.extract(name, tmp)
        sm90 = os.path.join(tmp, "sm90")
        os.makedirs(os.path.join(sm90, "cases"))
        os.makedirs(os.path.join(sm90, "measured"))
        trace = open(os.path.join(tmp, "fidelity", "ldst8.trace")).read()
        open(os.path.join(sm90, "cases", "fid8.trace"), "w").write(trace)
        sass_csv = os.path.join(tmp, "fidelity", "ldst8.sass.csv")
        r = collect(sm90, sass_csv)
        if r.returncode != 0:
            failures.append(f"collect_set.py exit {r.returncode}: {r.stderr.strip()}")
        else:
            got, want = wavefronts(os.path.join(sm90, "measured", "fid8.csv")), wavefronts(FID8)
            if len(want) != 320 or got != want:
                differ = [s for s in want if got.get(s) != want[s]]
                failures.append(f"{len(got)} cases collected, {len(want)} committed, {len(differ)} differ: {differ[:3]}")
        if os.path.exists(os.path.join(sm90, "measured", "fid8.csv")):
            os.remove(os.path.join(sm90, "measured", "fid8.csv"))
        last = [l for l in trace.splitlines() if l.startswith("@")][-1]
        open(os.path.join(sm90, "cases", "fid8.trace"), "w").write(trace + last.replace("@", "@extra-", 1) + "\n")
        r = collect(sm90, sass_csv)
        if r.returncode != 2 or "321 cases" not in r.stderr:
            failures.append(f"a trace of 321 cases against 320 launches: exit {r.returncode}, {r.stderr.strip()}")
        if os.path.exists(os.path.join(sm90, "measured", "fid8.csv")):
            failures.append("a refused collection wrote measured/fid8.csv")
    for f in failures:
        print("FAIL:", f)
    print("collect_set:", "failed" if failures else "passed (320 cases equal the committed fid8.csv)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
