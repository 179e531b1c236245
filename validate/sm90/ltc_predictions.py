#!/usr/bin/env python3
"""Predictions for the caltc, cgltc and zfill probe sets, written before they
are measured:

  python3 validate/sm90/ltc_predictions.py BANKCHECK > validate/sm90/ltc_predictions.txt

Per case: the site; for caltc and cgltc the twin (the same copy without the
L2::128B hint) and the twin's measured wavefronts (validate/sm90/measured/
cpasrc.csv, cgsrc.csv: the hardware, not the model), which the hinted copy
should equal if the hint changes nothing on the shared side; and the
model's wavefronts for the case as its trace states it (`nm`: not
modelled). For zfill the model is the hypothesis: a zero-filling lane (`z`)
reads nothing and is written as any other lane (rules 6 and 6c)."""
import csv
import os
import subprocess
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import records_of  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "probes", "cases")


def measured(name):
    path = os.path.join(HERE, "measured", f"{name}.csv")
    rows = [l for l in open(path) if not l.startswith("#")]
    return {r["site"]: r["wavefronts"] for r in csv.DictReader(rows)}


def model(bankcheck, trace):
    out = subprocess.run([bankcheck, "replay", "--per-instruction", "--csv", "--quiet", "--threads", "1", trace],
                         capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit(f"replay of {trace} failed: {out.stderr.strip()}")
    pred = {}
    for r in csv.DictReader(out.stdout.splitlines()):
        if r["scope"] == "instruction":
            pred[r["site"]] = r["wavefronts"] if r["modelled"] == "true" else "nm"
    return pred


def twins(trace):
    """site -> twin site, from the trace's comments (`twin NAME`)."""
    out = {}
    for r in records_of(trace, comments=True):
        if "twin " in r["comment"]:
            out[r["site"]] = r["comment"].rsplit("twin ", 1)[1].split()[0]
    return out


def main():
    bankcheck = sys.argv[1]
    plain = {**measured("cpasrc"), **measured("cgsrc")}
    print("# site twin twin_measured model  (twin '-': none; model 'nm': not modelled)")
    for kind in ("zfill", "caltc", "cgltc"):
        trace = os.path.join(CASES, f"{kind}.trace")
        pred = model(bankcheck, trace)
        twin = twins(trace)
        for r in records_of(trace):
            site = r["site"]
            t = twin.get(site, "-")
            print(site, t, plain.get(t, "-"), pred.get(site, "missing"))


if __name__ == "__main__":
    main()
