#!/usr/bin/env python3
"""Predictions for the negated-operand and .ZFILL cp.async campaign
(validate/fidelity/make_cpasync_reg_cases.py, seed 4848), written before it
is measured:

  python3 validate/fidelity/make_cpasync_reg_cases.py DIR 4848
  python3 validate/sm90/cpasync3_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync3_predictions.txt

and for the second run (seed 4949: fresh cases, and the zlanes family),
after the rules run 1 gave were written, into cpasync4_predictions.txt;
there the `today` column is the prediction (those rules, as capture would
apply them: the trace's ops are capture's).

Per case: the site; the operand the kernel should get (from the case's
kernel name, cpasync_reg_kernels.cuh; `-` for .ZFILL); the model as capture
would cost it today (`nm`: not modelled: every negated .cg operand and every
.ZFILL copy); and the case costed under two readings of rule 6c for a .cg
copy: as a 16-byte store (op cpasync.cg.zfill, today's P0 rule) and as rule
6b (op cpasync.cg, today's rule for the other registers). For .ca copies
and .ZFILL both columns are the plain copy's rule of the same width
(op cpasync, op cpasync.cg). The hypothesis stated before the run:
only a non-negated P0 is the store; `!P0` and every other operand, negated
or not, is rule 6b (Triton's `!P0` copies measured 8 per execution where
its `P0` copies of the other halves of the same lines measured 4,
validate/results/h200-2026-11-29/lds64/library/lib.triton_mm_s3.compare.csv);
the .ca forms cost as they do without a negation; .ZFILL with every lane
reading all its bytes costs as the same copy without .ZFILL."""
import csv
import io
import os
import subprocess
import sys
import tempfile

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import line, records_of  # noqa: E402


def model(bankcheck, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write("warp 32\n" + "\n".join(lines) + "\n")
    try:
        out = subprocess.run([bankcheck, "replay", "--per-instruction", "--csv", "--quiet", "--threads", "1", f.name],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    return {r["site"]: (r["wavefronts"] if r["modelled"] == "true" else "nm")
            for r in csv.DictReader(io.StringIO(out)) if r["scope"] == "instruction"}


def with_op(records, op_of):
    return [line(r["site"], op_of(r), r["width"], r["addresses"], r["sources"]) for r in records]


def main():
    bankcheck, trace = sys.argv[1], sys.argv[2]
    records = records_of(trace)
    form = {r["site"]: r["site"].split("-")[3] for r in records}
    zmode = {r["site"]: r["site"].split("-")[4] for r in records}
    today = model(bankcheck, with_op(records, lambda r: r["op"]))
    cg = lambda r: form[r["site"]].startswith("cg")  # noqa: E731
    store = model(bankcheck, with_op(records, lambda r: "cpasync.cg.zfill" if cg(r) else "cpasync"))
    plain = model(bankcheck, with_op(records, lambda r: "cpasync.cg" if cg(r) else "cpasync"))
    print("# " + __doc__.strip().splitlines()[0])
    print("# site operand today store rule6b hypothesis")
    for r in records:
        site = r["site"]
        z = zmode[site]
        operand = "-" if z == "partial" else ("!P" if z.startswith("neg") else "P") + z[-1]
        hyp = store[site] if operand == "P0" and cg(r) else plain[site]
        print(site, operand, today[site], store[site], plain[site], hyp)


if __name__ == "__main__":
    main()
