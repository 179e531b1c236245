#!/usr/bin/env python3
"""Compare bankcheck layout's predictions with the H100's counts.

  python3 validate/layout/layout_compare.py MEASURED [MEASURED ...] [--predictions FILE]

MEASURED: the probe run's per-case summaries (RES/summary/layout.cases.csv
and RES/summary/layoutldst.cases.csv, from
`PROBE_GROUPS=layout OUT=DIR bash validate/sm90/probes/run_on_gpu.sh`, inside
DIR/probes.tar.gz), or a committed measurement in the form of
validate/sm90/measured/*.csv (columns site,wavefronts; '#' comments).
Per-instruction wavefronts are Nsight Compute's SourceCounters of the one
probed instruction (src_wavefronts). Prints one line per instruction
(predicted, measured, equal?), then per case, then the tally; exits 1 when a
measured instruction differs from its prediction or a prediction was not
measured. Standard library only.
"""
import csv
import os
import sys
from collections import OrderedDict


def read_predictions(path):
    out = OrderedDict()
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split()
        out[parts[0]] = None if parts[1] == "not-modelled" else int(parts[1])
    return out


def read_measured(paths):
    out = {}
    for path in paths:
        lines = [l for l in open(path) if l.strip() and not l.startswith("#")]
        for r in csv.DictReader(lines):
            name = r.get("name") or r.get("site")
            value = r.get("src_wavefronts", r.get("wavefronts", ""))
            if name and value not in ("", None):
                out[name] = int(float(value))
    return out


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    predictions_path = os.path.join(here, "predictions.txt")
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == "--predictions":
            predictions_path = argv[i + 1]
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    predicted = read_predictions(predictions_path)
    measured = read_measured(files)
    print(f"{'instruction':36s} {'predicted':>9s} {'measured':>9s}  equal")
    per_case = OrderedDict()
    equal = differ = missing = 0
    for name, p in predicted.items():
        m = measured.get(name)
        case = name.rsplit(".i", 1)[0]
        c = per_case.setdefault(case, [0, 0, True, True])
        if m is None:
            verdict = "not measured"
            missing += 1
            c[3] = False
        elif p is None:
            verdict = "not modelled"
            c[2] = False
        elif p == m:
            verdict = "yes"
            equal += 1
        else:
            verdict = "NO"
            differ += 1
            c[2] = False
        c[0] += p or 0
        c[1] += m or 0
        print(f"{name:36s} {('-' if p is None else str(p)):>9s} {('-' if m is None else str(m)):>9s}  {verdict}")
    print()
    print(f"{'case':30s} {'predicted':>9s} {'measured':>9s}  equal")
    cases_equal = 0
    for case, (p, m, ok, complete) in per_case.items():
        verdict = "yes" if ok and complete else ("not measured" if ok else "NO")
        cases_equal += verdict == "yes"
        print(f"{case:30s} {p:9d} {m if complete else '-':>9}  {verdict}")
    print()
    print(f"instructions: {equal} equal, {differ} differ, {missing} not measured, of {len(predicted)}; "
          f"cases: {cases_equal} of {len(per_case)} equal on every instruction")
    return 0 if differ == 0 and missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
