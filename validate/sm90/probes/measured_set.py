#!/usr/bin/env python3
"""Turn one kind of a probe run into a measured set of validate/sm90:

  python3 validate/sm90/probes/measured_set.py RESULTS KIND NAME "GPU, driver, CUDA, date" "command"

RESULTS is the `results` folder of validate/sm90/probes/run_on_gpu.sh (inside its
probes.tar.gz). Writes validate/sm90/cases/NAME.trace (the model's view of
each case, from cases/KIND.trace, with the op refined from the SASS the probe
compiled to: LDGSTS...BYPASS -> cpasync.cg, with the predicate operand P0
cpasync.cg.zfill) and validate/sm90/measured/NAME.csv
(site, Nsight Compute's per-instruction "L1 Wavefronts Shared" of the probed
instruction, its SASS). tests/model/phase_rules_test.cpp checks the model on
the pair."""
import csv
import os
import re
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import line, records_of  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def probed_rows(res, kind):
    """{case: its summary row} of the probed instruction (target 1) of each case."""
    rows = {}
    for r in csv.DictReader(open(os.path.join(res, "summary", f"{kind}.instructions.csv"))):
        if r["target"] == "1":
            rows.setdefault(r["name"], r)  # a case of two probed copies (cgpair): the first, which its line describes
    return rows


def refined(op, r):
    """The case's op, refined from the SASS the probe compiled to."""
    if ".BYPASS" not in r["sass"].split(" ")[0]:
        return op
    # The predicate operand's register decides (op refinement, capture/host/sass/op_refinement.hpp):
    # P0 the zero-fill form's cost, another register the plain form's, a negated one unmeasured.
    m = re.search(r",\s*(!?P[0-6T])(\s|,|;|$)", r["sass"])
    pred = m.group(1) if m else ""
    return "cpasync.unmeasured" if pred.startswith("!") else "cpasync.cg.zfill" if pred == "P0" else "cpasync.cg"


def main(res, kind, name, gpu, command):
    rows = probed_rows(res, kind)
    out_trace, out_csv = [], []
    for case in records_of(os.path.join(res, "cases", f"{kind}.trace"), comments=True):
        site = case["site"]
        r = rows[site]
        out_trace.append(line(site, refined(case["op"], r), case["width"], case["addresses"], case["sources"],
                              case["comment"].strip()))
        out_csv.append(f"{site},{r['wavefronts']},{r['sass'].split(' ')[0]}")
    with open(os.path.join(ROOT, "cases", f"{name}.trace"), "w") as f:
        f.write(f"# sm90 single-instruction {kind} cases of validate/sm90/probes (make_probe_cases.py), op refined from the SASS\n")
        f.write("warp 32\n" + "\n".join(out_trace) + "\n")
    with open(os.path.join(ROOT, "measured", f"{name}.csv"), "w") as f:
        f.write(f"# Nsight Compute per-instruction \"L1 Wavefronts Shared\" of the probed instruction of each case of cases/{name}.trace\n")
        f.write(f"# {gpu}\n# command: {command}\n")
        f.write("site,wavefronts,sass\n" + "\n".join(out_csv) + "\n")
    print(f"{len(out_csv)} cases -> cases/{name}.trace, measured/{name}.csv")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:6])
